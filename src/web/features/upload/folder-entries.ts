/**
 * The files of a dropped folder. A drop gives folders as File and Directory Entries
 * (DataTransferItem.webkitGetAsEntry); their files are read here, recursively. Only the parts of
 * that API used here are named, so tests can hand in a fake tree.
 */
export interface EntryLike {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  /** '/study/DICOM/IM0001': where the entry is in what was dropped. */
  readonly fullPath: string;
}

export interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: DOMException) => void): void;
}

export interface DirectoryReaderLike {
  readEntries(success: (entries: EntryLike[]) => void, failure?: (error: DOMException) => void): void;
}

export interface DirectoryEntryLike extends EntryLike {
  createReader(): DirectoryReaderLike;
}

/** A file found in what was chosen, with its path there ('study/DICOM/IM0001'), which tells apart files of the same name in different folders. */
export interface FoundFile {
  file: File;
  path: string;
}

export interface FoundFiles {
  files: FoundFile[];
  /** Paths of the entries that could not be read (removed meanwhile, no permission). */
  unreadable: string[];
}

/**
 * Files the operating system leaves in folders ('.DS_Store', '._IM0001', 'Thumbs.db'): never
 * DICOM, and sent along they would only come back as skipped files.
 */
export function isSystemFile(name: string): boolean {
  return name.startsWith('.') || name.toLowerCase() === 'thumbs.db' || name.toLowerCase() === 'desktop.ini';
}

const relative = (fullPath: string, name: string) => fullPath.replace(/^\/+/, '') || name;

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder: readEntries answers in batches (100 at a time in Chromium) until an empty one. */
async function readAll(reader: DirectoryReaderLike): Promise<EntryLike[]> {
  const all: EntryLike[] = [];
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** The files under the dropped entries, folders read recursively, in the order met (each folder's entries by name). */
export async function filesFromEntries(entries: readonly EntryLike[]): Promise<FoundFiles> {
  const found: FoundFiles = { files: [], unreadable: [] };
  const visit = async (entry: EntryLike): Promise<void> => {
    if (isSystemFile(entry.name)) return;
    try {
      if (entry.isFile) {
        found.files.push({ file: await readFile(entry as FileEntryLike), path: relative(entry.fullPath, entry.name) });
      } else if (entry.isDirectory) {
        const children = await readAll((entry as DirectoryEntryLike).createReader());
        children.sort((a, b) => a.name.localeCompare(b.name, 'en-US', { numeric: true }));
        // One after the other: a study of 2,000 files read all at once holds that many open reads.
        for (const child of children) await visit(child);
      }
    } catch {
      found.unreadable.push(relative(entry.fullPath, entry.name));
    }
  };
  for (const entry of entries) await visit(entry);
  return found;
}

/** Files chosen with a picker: a folder picker (webkitdirectory) names each file's path in the folder. */
export function filesFromPicker(files: readonly File[]): FoundFile[] {
  return files
    .filter((file) => !isSystemFile(file.name))
    .map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

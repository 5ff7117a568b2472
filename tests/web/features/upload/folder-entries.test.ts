import { describe, expect, it } from 'vitest';
import {
  filesFromEntries,
  filesFromPicker,
  isSystemFile,
  type DirectoryEntryLike,
  type EntryLike,
  type FileEntryLike,
} from '../../../../src/web/features/upload/folder-entries.ts';

const file = (name: string, size = 4) => new File([new Uint8Array(size)], name);

function fileEntry(fullPath: string, fail = false): FileEntryLike {
  const name = fullPath.split('/').pop()!;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (success, failure) => (fail ? failure?.(new DOMException('gone', 'NotFoundError')) : success(file(name))),
  };
}

/** A folder whose reader answers `batchSize` entries per call, as Chromium answers 100 at a time. */
function directoryEntry(fullPath: string, children: EntryLike[], batchSize = 2): DirectoryEntryLike & { reads: number } {
  const entry = {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').pop()!,
    fullPath,
    reads: 0,
    createReader: () => {
      let offset = 0;
      return {
        readEntries: (success: (entries: EntryLike[]) => void) => {
          entry.reads += 1;
          const batch = children.slice(offset, offset + batchSize);
          offset += batch.length;
          // Asynchronous, as the browser's reader is.
          setTimeout(() => success(batch), 0);
        },
      };
    },
  };
  return entry;
}

describe('folder traversal', () => {
  it('reads every file of a dropped study folder, recursively, reading each folder until it answers no more entries', async () => {
    const series1 = directoryEntry('/study/DICOM/S1', [fileEntry('/study/DICOM/S1/IM0002'), fileEntry('/study/DICOM/S1/IM0001'), fileEntry('/study/DICOM/S1/IM0010')]);
    const series2 = directoryEntry('/study/DICOM/S2', [fileEntry('/study/DICOM/S2/IM0001')]);
    const dicom = directoryEntry('/study/DICOM', [series2, series1]);
    const study = directoryEntry('/study', [fileEntry('/study/DICOMDIR'), dicom, fileEntry('/study/.DS_Store')]);

    const found = await filesFromEntries([study, fileEntry('/loose.dcm')]);

    expect(found.files.map(({ path }) => path)).toEqual([
      'study/DICOM/S1/IM0001',
      'study/DICOM/S1/IM0002',
      'study/DICOM/S1/IM0010',
      'study/DICOM/S2/IM0001',
      'study/DICOMDIR',
      'loose.dcm',
    ]);
    expect(found.files.every(({ file: f }) => f instanceof File)).toBe(true);
    expect(found.unreadable).toEqual([]);
    // Three entries in batches of two: two full reads and the empty one that ends the folder.
    expect(series1.reads).toBe(3);
  });

  it('names the entries it cannot read and keeps the others', async () => {
    const folder = directoryEntry('/scans', [fileEntry('/scans/a.dcm'), fileEntry('/scans/gone.dcm', true)]);
    const found = await filesFromEntries([folder]);
    expect(found.files.map(({ path }) => path)).toEqual(['scans/a.dcm']);
    expect(found.unreadable).toEqual(['scans/gone.dcm']);
  });

  it('answers nothing for an empty folder', async () => {
    expect(await filesFromEntries([directoryEntry('/empty', [])])).toEqual({ files: [], unreadable: [] });
  });

  it('takes the path a folder picker gives, and leaves out system files', () => {
    const inFolder = file('IM0001');
    Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'study/S1/IM0001' });
    const picked = filesFromPicker([inFolder, file('single.dcm'), file('Thumbs.db')]);
    expect(picked.map(({ path }) => path)).toEqual(['study/S1/IM0001', 'single.dcm']);
    expect(isSystemFile('._IM0001')).toBe(true);
    expect(isSystemFile('IM0001')).toBe(false);
  });
});

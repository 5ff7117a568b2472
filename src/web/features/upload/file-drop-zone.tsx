import { useRef, useState, type DragEvent } from 'react';
import { Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { UploadIcon } from '../../ui/icons.tsx';
import { filesFromEntries, filesFromPicker, type EntryLike, type FoundFiles } from './folder-entries.ts';
import { formatBytes } from './upload-format.ts';

export interface FileDropZoneProps {
  onFiles: (found: FoundFiles) => void;
  maxFileBytes: number;
  disabled?: boolean;
}

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * The dropped items as entries, read during the drop event itself (the browser empties the list
 * once the event is over); null where the browser gives no entries, and the plain file list is used.
 */
function droppedEntries(transfer: DataTransfer): EntryLike[] | null {
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length === 0 || typeof items[0]!.webkitGetAsEntry !== 'function') return null;
  const entries = items.map((item) => item.webkitGetAsEntry());
  return entries.every((entry) => entry !== null) ? (entries as EntryLike[]) : null;
}

/**
 * Where DICOM files or a whole study folder (a DICOMDIR export) are dropped, or chosen with the
 * buttons: a file picker for one or many files and a folder picker. The buttons are the keyboard's
 * way in; the inputs themselves stay out of the tab order.
 */
export function FileDropZone({ onFiles, maxFileBytes, disabled = false }: FileDropZoneProps) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [reading, setReading] = useState(false);
  const blocked = disabled || reading;

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (blocked || !carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent<HTMLDivElement>) => {
    // Moving over a child fires a leave on the zone: only leaving the zone itself counts.
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (blocked) return;
    const entries = droppedEntries(event.dataTransfer);
    if (entries) {
      setReading(true);
      void filesFromEntries(entries)
        .then(onFiles)
        .finally(() => setReading(false));
      return;
    }
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles({ files: filesFromPicker(files), unreadable: [] });
  };
  const onPicked = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    // Cleared so that choosing the same files again (after removing them) is seen as a change.
    input.value = '';
    if (files.length > 0) onFiles({ files: filesFromPicker(files), unreadable: [] });
  };

  return (
    <Stack
      data-testid="drop-zone"
      data-dragging={dragging || undefined}
      align="center"
      justify="center"
      gap="3"
      py="10"
      px="6"
      textAlign="center"
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={dragging ? 'colorPalette.solid' : 'border.emphasized'}
      bg={dragging ? 'colorPalette.subtle' : 'bg.subtle'}
      rounded="l3"
      colorPalette="teal"
      opacity={disabled ? 0.6 : 1}
      aria-busy={reading}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <UploadIcon boxSize="8" color="fg.muted" />
      <Text fontWeight="medium">Drop DICOM files or a study folder here</Text>
      <Text textStyle="sm" color="fg.muted">
        IVUS pullbacks with their angiography runs: single files, or a whole study (a DICOMDIR folder). Up to{' '}
        {formatBytes(maxFileBytes)} per file.
      </Text>
      {reading ? (
        <HStack gap="2" role="status" data-testid="reading-folder">
          <Spinner size="sm" />
          <Text textStyle="sm">Reading the folder…</Text>
        </HStack>
      ) : null}
      <HStack gap="3" wrap="wrap" justify="center">
        <Button size="sm" variant="outline" disabled={blocked} onClick={() => filesInput.current?.click()}>
          Choose files…
        </Button>
        <Button size="sm" variant="outline" disabled={blocked} onClick={() => folderInput.current?.click()}>
          Choose folder…
        </Button>
      </HStack>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label="DICOM files"
        data-testid="file-input"
        disabled={blocked}
        onChange={(event) => onPicked(event.currentTarget)}
      />
      <input
        // React knows no webkitdirectory prop: the property is set on the element.
        ref={(element) => {
          folderInput.current = element;
          if (element) element.webkitdirectory = true;
        }}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label="Study folder"
        data-testid="folder-input"
        disabled={blocked}
        onChange={(event) => onPicked(event.currentTarget)}
      />
    </Stack>
  );
}

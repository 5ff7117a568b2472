import { useRef, useState, type DragEvent } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { UploadIcon } from '../../ui/icons.tsx';
import { formatBytes } from './upload-format.ts';

export interface FileDropZoneProps {
  onFiles: (files: File[]) => void;
  maxFileBytes: number;
  disabled?: boolean;
}

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Where DICOM files are dropped, or chosen with the button (a native file picker for one or many
 * files; the button is the keyboard's way in, the input itself stays out of the tab order).
 */
export function FileDropZone({ onFiles, maxFileBytes, disabled = false }: FileDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !carriesFiles(event)) return;
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
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
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
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <UploadIcon boxSize="8" color="fg.muted" />
      <Text fontWeight="medium">Drop DICOM files here</Text>
      <Text textStyle="sm" color="fg.muted">
        An IVUS pullback, with its angiography run if you have one. Up to {formatBytes(maxFileBytes)} per file.
      </Text>
      <Button size="sm" variant="outline" disabled={disabled} onClick={() => input.current?.click()}>
        Choose files…
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label="DICOM files"
        data-testid="file-input"
        disabled={disabled}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Cleared so that choosing the same file again (after removing it) is seen as a change.
          event.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </Stack>
  );
}

import { useState } from 'react';
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { ErrorState } from '../../ui/states.tsx';
import { ChosenFiles } from './chosen-files.tsx';
import { FileDropZone } from './file-drop-zone.tsx';
import type { FoundFiles } from './folder-entries.ts';
import { IdentityMismatch } from './identity-mismatch.tsx';
import { NotIvusQuestion } from './not-ivus-question.tsx';
import type { ImportsApi } from './imports-api.ts';
import { PatientChooser } from './patient-chooser.tsx';
import { fileFractions } from './upload-format.ts';
import { rejectionSentences } from './upload-request.ts';
import { plural, type useUpload } from './use-upload.ts';

export interface FilesTabProps {
  imports: ImportsApi;
  state: ReturnType<typeof useUpload>;
  maxFileBytes: number;
  patientSearchDebounceMs?: number | undefined;
}

/** What a drop or a pick found that is not in the list: nothing at all, or entries that could not be read. */
function pickNote({ files, unreadable }: FoundFiles): string | null {
  if (unreadable.length > 0) return `${plural(unreadable.length, 'file or folder', 'files or folders')} could not be read: ${unreadable.slice(0, 3).join(', ')}${unreadable.length > 3 ? '…' : ''}`;
  return files.length === 0 ? 'No files were found in what was dropped.' : null;
}

/**
 * Upload → Files: DICOM files, or a whole study folder, are dropped or chosen, checked against the
 * size limit and sent in one request with per-file progress, with the questions the answer asks.
 */
export function FilesTab({ imports, state, maxFileBytes, patientSearchDebounceMs }: FilesTabProps) {
  const { chosen, upload, rejection } = state;
  const [note, setNote] = useState<string | null>(null);
  const sending = upload.phase === 'sending';

  const onFiles = (found: FoundFiles) => {
    setNote(pickNote(found));
    state.addFiles(found.files);
  };

  const tooLarge = chosen.filter(({ file }) => file.size > maxFileBytes);
  const progress = upload.phase === 'sending' ? upload.progress : null;
  const sent = sending
    ? progress
      ? fileFractions(chosen.map(({ file }) => file.size), progress.loaded, progress.total)
      : chosen.map(() => 0)
    : null;
  const allSent = progress !== null && progress.loaded >= progress.total;
  const percent = progress ? Math.round((100 * Math.min(progress.loaded, progress.total)) / Math.max(1, progress.total)) : 0;

  let uploadStatus: string | null = null;
  if (sending) uploadStatus = allSent ? 'All files sent: the server is checking them…' : `Uploading ${plural(chosen.length, 'file')}: ${percent}%`;

  const generalRefusal = rejection && !state.rejectedFileListed ? rejectionSentences(rejection) : null;

  return (
    <Stack gap="4">
      <FileDropZone onFiles={onFiles} maxFileBytes={maxFileBytes} disabled={sending} />
      {note ? (
        <Text textStyle="sm" color="fg.warning" role="status" data-testid="pick-note">
          {note}
        </Text>
      ) : null}
      {chosen.length > 0 ? (
        <ChosenFiles files={chosen} maxFileBytes={maxFileBytes} sent={sent} rejection={rejection} onRemove={state.removeFile} disabled={sending} />
      ) : null}
      {upload.phase === 'needs-patient' ? (
        <PatientChooser
          imports={imports}
          files={upload.files}
          onChoose={state.choosePatient}
          onCancel={state.cancelQuestion}
          searchDebounceMs={patientSearchDebounceMs}
        />
      ) : null}
      {upload.phase === 'identity-mismatch' ? (
        <IdentityMismatch identity={upload.identity} onConfirm={state.confirmIdentity} onCancel={state.cancelQuestion} />
      ) : null}
      {upload.phase === 'not-ivus' ? (
        <NotIvusQuestion rejection={upload.rejection} onConfirm={state.confirmOtherUltrasound} onCancel={state.cancelQuestion} />
      ) : null}
      {generalRefusal ? (
        <ErrorState title="The upload was refused" message={generalRefusal.reason}>
          {generalRefusal.detail ? <Text textStyle="sm">{generalRefusal.detail}</Text> : null}
        </ErrorState>
      ) : null}
      {rejection ? (
        <Text textStyle="sm" color="fg.muted">
          Nothing was imported. Remove or replace the file, then upload again.
        </Text>
      ) : null}
      {upload.phase === 'failed' ? (
        <ErrorState title={upload.title} message={upload.message} onRetry={chosen.length > 0 ? state.retryLast : undefined} />
      ) : null}
      {tooLarge.length > 0 ? (
        <Text textStyle="sm" color="fg.error">
          {tooLarge.length === 1 ? 'One file is' : `${tooLarge.length} files are`} over the upload limit: remove{' '}
          {tooLarge.length === 1 ? 'it' : 'them'} to upload.
        </Text>
      ) : null}
      {chosen.length > 0 && upload.phase !== 'needs-patient' ? (
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="teal" loading={sending} loadingText="Uploading…" disabled={tooLarge.length > 0} onClick={state.send}>
            Upload {plural(chosen.length, 'file')}
          </Button>
          {sending ? (
            <Button variant="outline" onClick={state.abort}>
              Cancel upload
            </Button>
          ) : (
            <Button variant="ghost" onClick={state.clear}>
              Clear the list
            </Button>
          )}
        </HStack>
      ) : null}
      <Box aria-live="polite">
        {uploadStatus ? (
          <Text textStyle="sm" color="fg.muted" data-testid="upload-status">
            {uploadStatus}
          </Text>
        ) : null}
      </Box>
    </Stack>
  );
}

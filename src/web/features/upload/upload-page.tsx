import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { DEFAULT_IMPORT_MAX_FILE_BYTES } from '../../../domain/imports.ts';
import { useApi } from '../../api/api-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { BatchResult } from './batch-result.tsx';
import { ChosenFiles } from './chosen-files.tsx';
import { FileDropZone } from './file-drop-zone.tsx';
import type { FoundFiles } from './folder-entries.ts';
import { IdentityMismatch } from './identity-mismatch.tsx';
import { ImportList } from './import-list.tsx';
import { importsApi } from './imports-api.ts';
import { PatientChooser } from './patient-chooser.tsx';
import { fileFractions } from './upload-format.ts';
import { rejectionSentences } from './upload-request.ts';
import { useRecentImports } from './use-recent-imports.ts';
import { plural, useUpload } from './use-upload.ts';

export interface UploadPageProps {
  /** Largest file accepted before sending (the server's own limit answers too_large as well). */
  maxFileBytes?: number;
  /** How often imports still processing are asked for their progress. */
  pollIntervalMs?: number;
  /** How long typing in the patient search pauses before the search is sent. */
  patientSearchDebounceMs?: number;
}

/** What a drop or a pick found that is not in the list: nothing at all, or entries that could not be read. */
function pickNote({ files, unreadable }: FoundFiles): string | null {
  if (unreadable.length > 0) return `${plural(unreadable.length, 'file or folder', 'files or folders')} could not be read: ${unreadable.slice(0, 3).join(', ')}${unreadable.length > 3 ? '…' : ''}`;
  return files.length === 0 ? 'No files were found in what was dropped.' : null;
}

/**
 * /upload: DICOM files, or a whole study folder, are dropped or chosen, checked against the size
 * limit, sent in one request with per-file progress; the server makes one import per record and
 * names the files it skips. Files without a Patient ID, or whose patient exists under another
 * identity, come back with a question, answered by sending the same files again. The page follows
 * the decoding of every import, and the tenant's recent imports are listed too, so an import
 * started before leaving the page is found again.
 */
export function UploadPage({ maxFileBytes = DEFAULT_IMPORT_MAX_FILE_BYTES, pollIntervalMs, patientSearchDebounceMs }: UploadPageProps) {
  const api = useApi();
  const toast = useToast();
  const imports = useMemo(() => importsApi(api), [api]);
  const recent = useRecentImports(imports, pollIntervalMs);
  const state = useUpload({ imports, recent, toast, maxFileBytes });
  const { chosen, upload, rejection, batch } = state;
  const [note, setNote] = useState<string | null>(null);

  const sending = upload.phase === 'sending';
  useEffect(() => {
    if (!sending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [sending]);

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
  const batchIds = new Set(batch?.importIds ?? []);
  const batchImports = (recent.imports ?? []).filter(({ importId }) => batchIds.has(importId));
  const otherImports = recent.imports && recent.imports.filter(({ importId }) => !batchIds.has(importId));

  return (
    <>
      <PageHeader title="Upload" subtitle="Import IVUS pullbacks and angiography runs from DICOM files." />
      <Stack gap="8" maxWidth="56rem">
        <Stack as="section" gap="4" aria-labelledby="upload-files-heading">
          <Heading as="h2" size="lg" id="upload-files-heading">
            Files
          </Heading>
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

        {batch && batchImports.length > 0 ? (
          <BatchResult
            imports={batchImports}
            skipped={batch.skipped}
            checkFailures={recent.checkFailures}
            retryable={state.retryable}
            onRetry={state.retryImport}
            retryDisabled={sending}
          />
        ) : null}

        <Stack as="section" gap="4" aria-labelledby="recent-imports-heading">
          <Heading as="h2" size="lg" id="recent-imports-heading">
            {batch ? 'Earlier imports' : 'Recent imports'}
          </Heading>
          <RecentImportsBody
            recent={recent}
            imports={otherImports}
            emptyTitle={batch ? 'No earlier imports' : 'No imports yet'}
            retryable={state.retryable} onRetry={state.retryImport} retryDisabled={sending} />
        </Stack>
      </Stack>
    </>
  );
}

function RecentImportsBody({
  recent,
  imports,
  retryable,
  onRetry,
  retryDisabled,
  emptyTitle,
}: {
  recent: ReturnType<typeof useRecentImports>;
  emptyTitle: string;
  /** The recent imports but those of this page's last upload (shown above); null until listed. */
  imports: ReturnType<typeof useRecentImports>['imports'];
  retryable: ReadonlySet<string>;
  onRetry: (importId: string) => void;
  retryDisabled: boolean;
}) {
  const { error, reload, checkFailures } = recent;
  if (imports === null) return <LoadingState label="Loading recent imports…" />;
  const failure = error ? (
    <ErrorState title="The recent imports could not be loaded" message={error.message} onRetry={reload} />
  ) : null;
  if (imports.length === 0) {
    return (
      failure ?? (
        <EmptyState
          title={emptyTitle}
          description="Uploaded files appear here while the server decodes them, and stay listed once their record is ready."
        />
      )
    );
  }
  return (
    <>
      {failure}
      <ImportList imports={imports} checkFailures={checkFailures} retryable={retryable} onRetry={onRetry} retryDisabled={retryDisabled} />
    </>
  );
}

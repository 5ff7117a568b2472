import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { DEFAULT_IMPORT_MAX_FILE_BYTES, type ImportRejected } from '../../../domain/imports.ts';
import { useApi } from '../../api/api-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { ChosenFiles, type ChosenFile } from './chosen-files.tsx';
import { FileDropZone } from './file-drop-zone.tsx';
import { ImportList } from './import-list.tsx';
import { importsApi } from './imports-api.ts';
import { fileFractions, fileIdentity } from './upload-format.ts';
import { NETWORK_ERROR_MESSAGE, rejectionSentences, type UploadHandle, type UploadProgress } from './upload-request.ts';
import { useRecentImports } from './use-recent-imports.ts';

export interface UploadPageProps {
  /** Largest file accepted before sending (the server's own limit answers too_large as well). */
  maxFileBytes?: number;
  /** How often imports still processing are asked for their progress. */
  pollIntervalMs?: number;
}

type UploadState =
  | { phase: 'idle' }
  | { phase: 'sending'; progress: UploadProgress | null }
  /** A 4xx: a file was refused and nothing was kept; the files stay listed to fix and send again. */
  | { phase: 'rejected'; rejection: ImportRejected }
  /** The server was not reached or answered something else: send the same files again. */
  | { phase: 'failed'; title: string; message: string };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * /upload: DICOM files are dropped or chosen, checked against the size limit, sent in one request
 * with per-file progress, then decoded on the server while the page polls their progress, and the
 * new record opens from here. The tenant's recent imports are listed too, so an import started
 * before leaving the page is found again (still followed while it processes).
 */
export function UploadPage({ maxFileBytes = DEFAULT_IMPORT_MAX_FILE_BYTES, pollIntervalMs }: UploadPageProps) {
  const api = useApi();
  const toast = useToast();
  const imports = useMemo(() => importsApi(api), [api]);
  const recent = useRecentImports(imports, pollIntervalMs);
  const [chosen, setChosen] = useState<ChosenFile[]>([]);
  const [upload, setUpload] = useState<UploadState>({ phase: 'idle' });
  /** The files of the imports started here, to send again if their processing fails. */
  const [sentFiles, setSentFiles] = useState<Record<string, ChosenFile[]>>({});
  const handle = useRef<UploadHandle | null>(null);

  // Leaving the page stops an upload still sending (the server keeps nothing of it); an import
  // already accepted goes on on the server and is listed when the page opens again.
  useEffect(() => () => handle.current?.abort(), []);

  const sending = upload.phase === 'sending';
  useEffect(() => {
    if (!sending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [sending]);

  const tooLarge = chosen.filter(({ file }) => file.size > maxFileBytes);
  const rejection = upload.phase === 'rejected' ? upload.rejection : null;
  const rejectedFileListed = rejection !== null && chosen.some(({ file }) => file.name === rejection.fileName);

  const addFiles = (files: File[]) => {
    setChosen((current) => {
      const keys = new Set(current.map(({ key }) => key));
      const added: ChosenFile[] = [];
      for (const file of files) {
        const key = fileIdentity(file);
        if (keys.has(key)) continue;
        keys.add(key);
        added.push({ key, file });
      }
      return [...current, ...added];
    });
    // A refusal that names no file was about the whole set, which has now changed.
    if (upload.phase === 'failed' || (upload.phase === 'rejected' && !rejectedFileListed)) setUpload({ phase: 'idle' });
  };

  const removeFile = (key: string) => {
    const removed = chosen.find((entry) => entry.key === key);
    setChosen((current) => current.filter((entry) => entry.key !== key));
    if (upload.phase === 'failed' || (upload.phase === 'rejected' && (!rejectedFileListed || removed?.file.name === rejection?.fileName))) {
      setUpload({ phase: 'idle' });
    }
  };

  const send = (files: ChosenFile[]) => {
    if (files.length === 0 || files.some(({ file }) => file.size > maxFileBytes) || handle.current) return;
    setUpload({ phase: 'sending', progress: null });
    const current = imports.upload(
      files.map(({ file }) => file),
      (progress) => setUpload((state) => (state.phase === 'sending' ? { phase: 'sending', progress } : state)),
    );
    handle.current = current;
    void current.done.then((outcome) => {
      if (handle.current !== current) return;
      handle.current = null;
      switch (outcome.kind) {
        case 'accepted':
          recent.add(outcome.summary);
          setSentFiles((known) => ({ ...known, [outcome.summary.importId]: files }));
          setChosen((listed) => listed.filter((entry) => !files.includes(entry)));
          setUpload({ phase: 'idle' });
          toast.show({
            severity: 'success',
            summary: `${plural(files.length, 'file')} uploaded`,
            detail: 'The server is decoding the frames: follow the progress under Recent imports.',
            life: 5000,
          });
          break;
        case 'rejected':
          setUpload({ phase: 'rejected', rejection: outcome.rejection });
          break;
        case 'failed':
          setUpload({ phase: 'failed', title: 'The upload failed', message: outcome.message });
          // The list call meets the same 401 and lets the app end the session the usual way.
          if (outcome.status === 401) recent.reload();
          break;
        case 'network':
          setUpload({ phase: 'failed', title: 'The upload did not reach the server', message: NETWORK_ERROR_MESSAGE });
          break;
        case 'aborted':
          setUpload({ phase: 'idle' });
          break;
      }
    });
  };

  const retryImport = (importId: string) => {
    const files = sentFiles[importId];
    if (!files || handle.current) return;
    setSentFiles(({ [importId]: _, ...others }) => others);
    setChosen(files);
    send(files);
  };

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

  const generalRefusal = rejection && !rejectedFileListed ? rejectionSentences(rejection) : null;

  return (
    <>
      <PageHeader title="Upload" subtitle="Import IVUS pullbacks and angiography runs from DICOM files." />
      <Stack gap="8" maxWidth="56rem">
        <Stack as="section" gap="4" aria-labelledby="upload-files-heading">
          <Heading as="h2" size="lg" id="upload-files-heading">
            Files
          </Heading>
          <FileDropZone onFiles={addFiles} maxFileBytes={maxFileBytes} disabled={sending} />
          {chosen.length > 0 ? (
            <ChosenFiles files={chosen} maxFileBytes={maxFileBytes} sent={sent} rejection={rejection} onRemove={removeFile} disabled={sending} />
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
            <ErrorState title={upload.title} message={upload.message} onRetry={chosen.length > 0 ? () => send(chosen) : undefined} />
          ) : null}
          {tooLarge.length > 0 ? (
            <Text textStyle="sm" color="fg.error">
              {tooLarge.length === 1 ? 'One file is' : `${tooLarge.length} files are`} over the upload limit: remove{' '}
              {tooLarge.length === 1 ? 'it' : 'them'} to upload.
            </Text>
          ) : null}
          {chosen.length > 0 ? (
            <HStack gap="3" wrap="wrap">
              <Button
                colorPalette="teal"
                loading={sending}
                loadingText="Uploading…"
                disabled={tooLarge.length > 0}
                onClick={() => send(chosen)}
              >
                Upload {plural(chosen.length, 'file')}
              </Button>
              {sending ? (
                <Button variant="outline" onClick={() => handle.current?.abort()}>
                  Cancel upload
                </Button>
              ) : (
                <Button
                  variant="ghost"
                  onClick={() => {
                    setChosen([]);
                    setUpload({ phase: 'idle' });
                  }}
                >
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

        <Stack as="section" gap="4" aria-labelledby="recent-imports-heading">
          <Heading as="h2" size="lg" id="recent-imports-heading">
            Recent imports
          </Heading>
          <RecentImportsBody
            recent={recent}
            retryable={new Set(Object.keys(sentFiles))}
            onRetry={retryImport}
            retryDisabled={sending}
          />
        </Stack>
      </Stack>
    </>
  );
}

function RecentImportsBody({
  recent,
  retryable,
  onRetry,
  retryDisabled,
}: {
  recent: ReturnType<typeof useRecentImports>;
  retryable: ReadonlySet<string>;
  onRetry: (importId: string) => void;
  retryDisabled: boolean;
}) {
  const { imports, error, reload, checkFailures } = recent;
  if (imports === null) return <LoadingState label="Loading recent imports…" />;
  const failure = error ? (
    <ErrorState title="The recent imports could not be loaded" message={error.message} onRetry={reload} />
  ) : null;
  if (imports.length === 0) {
    return (
      failure ?? (
        <EmptyState
          title="No imports yet"
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

import { useEffect, useMemo, useState } from 'react';
import { Heading, Stack, Tabs } from '@chakra-ui/react';
import { DEFAULT_IMPORT_MAX_FILE_BYTES } from '../../../domain/imports.ts';
import { useApi } from '../../api/api-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { BatchResult } from './batch-result.tsx';
import { FilesTab } from './files-tab.tsx';
import { ImportList } from './import-list.tsx';
import { importsApi } from './imports-api.ts';
import { pacsBrowseApi } from './pacs-api.ts';
import { PacsPullTab } from './pacs-pull-tab.tsx';
import { usePull } from './use-pull.ts';
import { useRecentImports } from './use-recent-imports.ts';
import { useUpload, type UploadBatch } from './use-upload.ts';

export interface UploadPageProps {
  /** Largest file accepted before sending (the server's own limit answers too_large as well). */
  maxFileBytes?: number;
  /** How often imports still processing are asked for their progress. */
  pollIntervalMs?: number;
  /** How long typing in the patient search pauses before the search is sent. */
  patientSearchDebounceMs?: number;
}

/** The last batch started on this page, and whether it was uploaded or pulled from a PACS. */
type ShownBatch = UploadBatch & { source: 'files' | 'pacs' };

/**
 * /upload: DICOM files are uploaded (Files) or series are pulled from a PACS (From PACS); either
 * way the server makes one import per record. Files without a Patient ID, or whose patient exists
 * under another identity, come back with a question, answered by sending the same files (or
 * pulling the same series) again. The page follows the decoding of every import, and the tenant's
 * recent imports are listed too, so an import started before leaving the page is found again.
 */
export function UploadPage({ maxFileBytes = DEFAULT_IMPORT_MAX_FILE_BYTES, pollIntervalMs, patientSearchDebounceMs }: UploadPageProps) {
  const api = useApi();
  const toast = useToast();
  const imports = useMemo(() => importsApi(api), [api]);
  const pacs = useMemo(() => pacsBrowseApi(api), [api]);
  const recent = useRecentImports(imports, pollIntervalMs);
  const [tab, setTab] = useState<'files' | 'pacs'>('files');
  const [batch, setBatch] = useState<ShownBatch | null>(null);
  const state = useUpload({ imports, recent, toast, maxFileBytes, onBatch: (shown) => setBatch({ ...shown, source: 'files' }) });
  const pull = usePull({ pacs, recent, toast, onBatch: (shown) => setBatch({ ...shown, source: 'pacs' }) });

  const sending = state.upload.phase === 'sending';
  useEffect(() => {
    if (!sending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [sending]);

  // A failed import is retried the way it was started: its files uploaded again, or its series pulled
  // again. Its tab opens, where the answer (and any question about the patient) will show.
  const retryable = new Set([...state.retryable, ...pull.retryable]);
  const onRetry = (importId: string) => {
    const uploaded = state.retryable.has(importId);
    setTab(uploaded ? 'files' : 'pacs');
    if (uploaded) state.retryImport(importId);
    else pull.retryImport(importId);
  };
  const retryDisabled = sending || pull.pulling;

  const batchIds = new Set(batch?.importIds ?? []);
  const batchImports = (recent.imports ?? []).filter(({ importId }) => batchIds.has(importId));
  const otherImports = recent.imports && recent.imports.filter(({ importId }) => !batchIds.has(importId));

  return (
    <>
      <PageHeader title="Upload" subtitle="Import IVUS pullbacks and angiography runs from DICOM files or from a PACS." />
      <Stack gap="8" maxWidth="60rem">
        {/* The tabs stay mounted once opened, so a search, a choice or an upload under way survive a switch. */}
        <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value === 'pacs' ? 'pacs' : 'files')} lazyMount variant="line" colorPalette="teal">
          <Tabs.List mb="4">
            <Tabs.Trigger value="files">Files</Tabs.Trigger>
            <Tabs.Trigger value="pacs">From PACS</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="files">
            <FilesTab imports={imports} state={state} maxFileBytes={maxFileBytes} patientSearchDebounceMs={patientSearchDebounceMs} />
          </Tabs.Content>
          <Tabs.Content value="pacs">
            <PacsPullTab pacs={pacs} imports={imports} pull={pull} patientSearchDebounceMs={patientSearchDebounceMs} />
          </Tabs.Content>
        </Tabs.Root>

        {batch && batchImports.length > 0 ? (
          <BatchResult
            imports={batchImports}
            skipped={batch.skipped}
            checkFailures={recent.checkFailures}
            retryable={retryable}
            onRetry={onRetry}
            retryDisabled={retryDisabled}
            title={batch.source === 'pacs' ? 'This import' : 'This upload'}
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
            retryable={retryable}
            onRetry={onRetry}
            retryDisabled={retryDisabled}
          />
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
          description="Uploaded files and series imported from a PACS appear here while the server decodes them, and stay listed once their record is ready."
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

import { Badge, Box, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { Link } from 'wouter';
import type { ImportStatus, ImportSummary } from '../../../domain/imports.ts';
import { COUNT_FORMAT, formatStarted } from './upload-format.ts';
import { rejectionSentences } from './upload-request.ts';

const STATUS: Record<ImportStatus, { label: string; palette: string }> = {
  processing: { label: 'Processing', palette: 'blue' },
  done: { label: 'Done', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
};

export function recordReviewPath(patientId: string, recordId: string): string {
  return `/patients/${encodeURIComponent(patientId)}/records/${encodeURIComponent(recordId)}/review`;
}

export function patientRecordsPath(patientId: string): string {
  return `/patients/${encodeURIComponent(patientId)}/records`;
}

export interface ImportListProps {
  imports: readonly ImportSummary[];
  /** Progress checks that failed, by import id. */
  checkFailures: Readonly<Record<string, string>>;
  /** Imports whose files this page still holds, so they can be sent again. */
  retryable: ReadonlySet<string>;
  onRetry: (importId: string) => void;
  retryDisabled: boolean;
  /** What the list is, for screen readers. */
  label?: string;
}

/** Imports (the tenant's recent ones newest first, or those of one upload), each with its state and what to do next. */
export function ImportList({ imports, checkFailures, retryable, onRetry, retryDisabled, label = 'Recent imports' }: ImportListProps) {
  return (
    <Stack as="ul" listStyleType="none" gap="3" aria-label={label} data-testid="import-list">
      {imports.map((summary) => (
        <ImportItem
          key={summary.importId}
          summary={summary}
          checkFailure={checkFailures[summary.importId] ?? null}
          onRetry={retryable.has(summary.importId) && !retryDisabled ? () => onRetry(summary.importId) : null}
        />
      ))}
    </Stack>
  );
}

/** The files of an import, the first few named (an import of a whole study may hold hundreds). */
export function importName(fileNames: readonly string[]): string {
  if (fileNames.length === 0) return 'Import';
  const more = fileNames.length - 3;
  return more > 0 ? `${fileNames.slice(0, 3).join(', ')} and ${COUNT_FORMAT.format(more)} more` : fileNames.join(', ');
}

/** Where the files of an import came from; null for an upload (named by its files, as always). */
export function importSource(summary: Pick<ImportSummary, 'source' | 'sourceName'>): string | null {
  if (summary.source === 'pacs') return `From PACS ${summary.sourceName ?? ''}`.trim();
  if (summary.source === 'dimse') return `Pushed by ${summary.sourceName ?? 'a DICOM device'} (DICOM)`;
  return null;
}

function ImportItem({ summary, checkFailure, onRetry }: { summary: ImportSummary; checkFailure: string | null; onRetry: (() => void) | null }) {
  const status = STATUS[summary.status];
  const source = importSource(summary);
  // Retrieved and pushed files are named by their SOP Instance UIDs, which say nothing to a person: their source does.
  const names = source ?? importName(summary.fileNames);
  const files = source ? `${COUNT_FORMAT.format(summary.fileNames.length)} DICOM ${summary.fileNames.length === 1 ? 'file' : 'files'} · ` : '';
  return (
    <Box as="li" data-testid="import-item" data-status={summary.status} borderWidth="1px" rounded="l2" px="4" py="3">
      <HStack justify="space-between" align="flex-start" gap="4">
        <Stack gap="0" minWidth="0">
          <Text fontWeight="medium" truncate title={names}>
            {names}
          </Text>
          <Text textStyle="sm" color="fg.muted">
            {files}Started {formatStarted(summary.createdAt)}
          </Text>
        </Stack>
        <Badge colorPalette={status.palette} variant="subtle" flexShrink="0" data-testid="import-status">
          {status.label}
        </Badge>
      </HStack>
      {summary.status === 'processing' ? <Processing summary={summary} name={names} checkFailure={checkFailure} /> : null}
      {summary.status === 'done' ? <Done summary={summary} /> : null}
      {summary.status === 'failed' ? <Failed summary={summary} onRetry={onRetry} /> : null}
      {summary.warnings.length > 0 ? (
        <Stack as="ul" gap="0" mt="2" ps="5" listStyleType="disc" textStyle="sm" color="fg.muted" aria-label="Warnings">
          {summary.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}

function Processing({ summary, name, checkFailure }: { summary: ImportSummary; name: string; checkFailure: string | null }) {
  const { framesDone, framesTotal } = summary;
  const text =
    framesTotal > 0
      ? `Decoding frames: ${COUNT_FORMAT.format(framesDone)} of ${COUNT_FORMAT.format(framesTotal)}`
      : 'Preparing to decode the frames…';
  return (
    <Stack gap="1" mt="3">
      <Progress.Root value={framesTotal > 0 ? Math.round((100 * framesDone) / framesTotal) : null} size="sm" colorPalette="blue">
        <Progress.Track aria-label={`Processing of ${name}`} aria-valuetext={text}>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text textStyle="sm" color="fg.muted" aria-live="polite" data-testid="import-progress">
        {text}
      </Text>
      {checkFailure ? (
        <Text textStyle="sm" color="fg.warning">
          The progress could not be checked ({checkFailure}); trying again.
        </Text>
      ) : null}
    </Stack>
  );
}

function Done({ summary }: { summary: ImportSummary }) {
  const { patientId, recordId } = summary;
  return (
    <Stack gap="2" mt="3">
      <Text textStyle="sm" data-testid="import-progress">
        {COUNT_FORMAT.format(summary.framesTotal)} {summary.framesTotal === 1 ? 'frame' : 'frames'} imported
        {patientId ? ` for patient ${patientId}` : ''}.
      </Text>
      {patientId ? (
        <HStack gap="3" wrap="wrap">
          {recordId ? (
            <Button asChild size="sm" colorPalette="teal">
              <Link href={recordReviewPath(patientId, recordId)}>Open the record</Link>
            </Button>
          ) : null}
          <Button asChild size="sm" variant="outline">
            <Link href={patientRecordsPath(patientId)}>Records of patient {patientId}</Link>
          </Button>
        </HStack>
      ) : null}
    </Stack>
  );
}

const RETRY_HINT: Record<ImportSummary['source'], string> = {
  upload: ' Choose the files again above to retry.',
  pacs: ' Choose the series again under From PACS to retry.',
  dimse: ' Send the series again from the device that pushed it.',
};

function Failed({ summary, onRetry }: { summary: ImportSummary; onRetry: (() => void) | null }) {
  const pulled = summary.source === 'pacs';
  const { reason, detail } = summary.error
    ? rejectionSentences({ error: summary.error.code, message: summary.error.message })
    : { reason: 'The import failed.', detail: null };
  return (
    <Stack gap="2" mt="3" data-testid="import-error">
      <Text textStyle="sm" color="fg.error" fontWeight="medium">
        {reason}
      </Text>
      {detail ? (
        <Text textStyle="sm" color="fg.muted">
          {detail}
        </Text>
      ) : null}
      <Text textStyle="sm" color="fg.muted">
        Nothing of this import was kept.
        {onRetry ? null : RETRY_HINT[summary.source]}
      </Text>
      {onRetry ? (
        <Box>
          <Button size="sm" variant="outline" onClick={onRetry}>
            {pulled ? 'Retrieve these series again' : 'Upload these files again'}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}

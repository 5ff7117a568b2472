import { Box, Heading, Progress, Stack, Text } from '@chakra-ui/react';
import type { ImportSummary, SkippedFile } from '../../../domain/imports.ts';
import { ImportList } from './import-list.tsx';
import { COUNT_FORMAT } from './upload-format.ts';

/** Skipped files listed one by one; a study export may hold hundreds of reports and screenshots. */
export const MAX_LISTED_SKIPPED = 100;

const plural = (count: number, one: string, many = `${one}s`) => `${COUNT_FORMAT.format(count)} ${count === 1 ? one : many}`;

/** "2 records: 1 done, 1 processing" — where the imports of one upload stand. */
export function batchSummary(imports: readonly ImportSummary[]): string {
  const count = (status: ImportSummary['status']) => imports.filter((summary) => summary.status === status).length;
  const parts = [
    count('done') > 0 ? `${COUNT_FORMAT.format(count('done'))} done` : null,
    count('processing') > 0 ? `${COUNT_FORMAT.format(count('processing'))} processing` : null,
    count('failed') > 0 ? `${COUNT_FORMAT.format(count('failed'))} failed` : null,
  ].filter(Boolean);
  return `${plural(imports.length, 'record')}: ${parts.join(', ')}`;
}

export interface BatchResultProps {
  /** The imports of the upload, as last known (their progress followed by the page). */
  imports: readonly ImportSummary[];
  skipped: readonly SkippedFile[];
  checkFailures: Readonly<Record<string, string>>;
  retryable: ReadonlySet<string>;
  onRetry: (importId: string) => void;
  retryDisabled: boolean;
  /** 'This upload', or 'This import' for series pulled from a PACS. */
  title?: string;
}

/**
 * What the last upload became: one import per record it makes or fills, with their progress and
 * links, the frames decoded in all, and the files it did not import with the reason for each.
 */
export function BatchResult({ imports, skipped, checkFailures, retryable, onRetry, retryDisabled, title = 'This upload' }: BatchResultProps) {
  const framesDone = imports.reduce((sum, summary) => sum + (summary.status === 'done' ? summary.framesTotal : summary.framesDone), 0);
  const framesTotal = imports.reduce((sum, summary) => sum + summary.framesTotal, 0);
  const processing = imports.some((summary) => summary.status === 'processing');
  const percent = framesTotal > 0 ? Math.round((100 * framesDone) / framesTotal) : 0;
  const listedSkipped = skipped.slice(0, MAX_LISTED_SKIPPED);
  return (
    <Stack as="section" gap="4" aria-labelledby="batch-heading" data-testid="batch-result">
      <Stack gap="1">
        <Heading as="h2" size="lg" id="batch-heading">
          {title}
        </Heading>
        <Text textStyle="sm" color="fg.muted" data-testid="batch-summary">
          {batchSummary(imports)}
          {skipped.length > 0 ? ` · ${plural(skipped.length, 'file')} not imported` : ''}
        </Text>
      </Stack>
      {processing && framesTotal > 0 ? (
        <Progress.Root value={percent} size="sm" colorPalette="blue">
          <Progress.Track aria-label="Frames decoded in this upload" aria-valuetext={`${COUNT_FORMAT.format(framesDone)} of ${COUNT_FORMAT.format(framesTotal)} frames`}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <ImportList
        imports={imports}
        checkFailures={checkFailures}
        retryable={retryable}
        onRetry={onRetry}
        retryDisabled={retryDisabled}
        label={`Imports of ${title.toLowerCase()}`}
      />
      {skipped.length > 0 ? (
        <Box borderWidth="1px" borderColor="border.warning" rounded="l2" px="4" py="3" data-testid="skipped-files">
          <Heading as="h3" size="sm">
            {skipped.length === 1 ? 'One file was not imported' : `${COUNT_FORMAT.format(skipped.length)} files were not imported`}
          </Heading>
          <Stack as="ul" gap="1" mt="2" listStyleType="none" aria-label="Files not imported">
            {listedSkipped.map((file, index) => (
              <Text as="li" key={`${file.fileName}-${index}`} textStyle="sm" data-testid="skipped-file" data-code={file.code}>
                <Text as="span" fontWeight="medium">
                  {file.fileName}
                </Text>
                {': '}
                {file.message}
              </Text>
            ))}
          </Stack>
          {skipped.length > listedSkipped.length ? (
            <Text textStyle="sm" color="fg.muted" mt="1">
              and {plural(skipped.length - listedSkipped.length, 'more file')}.
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

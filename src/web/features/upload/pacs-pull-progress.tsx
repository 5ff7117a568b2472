import { Box, Progress, Stack, Text } from '@chakra-ui/react';
import type { PullProgress } from './pacs-api.ts';
import { COUNT_FORMAT, formatBytes } from './upload-format.ts';
import type { PullOrder } from './use-pull.ts';
import { plural } from './use-upload.ts';

/** 'Retrieving from Orthanc: 2 of 3 instances, 145 MiB', or where the pull stands before and after. */
export function pullProgressText({ series, connection }: PullOrder, progress: PullProgress | null): string {
  const { name } = connection;
  if (!progress) {
    return `Retrieving ${plural(series.length, 'series', 'series')} from ${name}: the PACS sends every image before the import starts, which takes a while for a long pullback.`;
  }
  const { instancesDone, instancesTotal, bytes } = progress;
  if (instancesTotal === 0) return `Retrieving from ${name}: ${formatBytes(bytes)}`;
  if (instancesDone >= instancesTotal) {
    return `Retrieved ${plural(instancesTotal, 'instance')} from ${name} (${formatBytes(bytes)}): the server is checking them…`;
  }
  return `Retrieving from ${name}: ${COUNT_FORMAT.format(instancesDone)} of ${plural(instancesTotal, 'instance')}, ${formatBytes(bytes)}`;
}

/**
 * How far the server is in retrieving a pull's instances from the PACS, shown as the Files tab
 * shows an upload: a bar, and a sentence in a polite live region (kept in the page between pulls,
 * so screen readers announce its changes). Nothing is shown when no pull is under way.
 */
export function PacsPullProgress({ pull }: { pull: { order: PullOrder; progress: PullProgress | null } | null }) {
  const text = pull ? pullProgressText(pull.order, pull.progress) : null;
  const progress = pull?.progress ?? null;
  const percent =
    progress && progress.instancesTotal > 0 ? Math.round((100 * Math.min(progress.instancesDone, progress.instancesTotal)) / progress.instancesTotal) : null;
  return (
    <Stack gap="2" data-testid="pacs-pull-status">
      {pull ? (
        <Progress.Root value={percent} size="sm" colorPalette="teal" maxWidth="32rem">
          <Progress.Track aria-label={`Retrieval from ${pull.order.connection.name}`} aria-valuetext={text ?? undefined}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <Box aria-live="polite">
        {text ? (
          <Text textStyle="sm" color="fg.muted" data-testid="pacs-pull-progress">
            {text}
          </Text>
        ) : null}
      </Box>
    </Stack>
  );
}

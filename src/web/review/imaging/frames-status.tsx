import { HStack, Progress, Text } from '@chakra-ui/react';
import { describeMissingFrames, type RecordImagesState } from './use-record-images.ts';

/** One line under the review header: how far the record's frames have downloaded, and what is missing. */
export function FramesStatus({ state }: { state: RecordImagesState }) {
  if (state.status === 'off') {
    return <Text textStyle="sm" color="fg.muted" data-testid="frames-status">Images are not loaded (noImage=true).</Text>;
  }
  if (state.status === 'loading') return <Text textStyle="sm" color="fg.muted" data-testid="frames-status">Loading the image lists…</Text>;
  if (state.status === 'error') {
    return <Text textStyle="sm" color="fg.error" role="alert" data-testid="frames-status">The images could not be loaded: {state.message}</Text>;
  }
  const { images, download } = state;
  const frames = `${images.bmode.count.toLocaleString('en-US')} B-mode and ${images.angio.count.toLocaleString('en-US')} angio frames`;
  if (!download) return <Text textStyle="sm" color="fg.muted" data-testid="frames-status">{frames}</Text>;
  const missing = describeMissingFrames(images, download.failed);
  const complete = download.done === download.total;
  return (
    <HStack gap="3" data-testid="frames-status" aria-live="polite">
      {complete ? (
        <Text textStyle="sm" color="fg.muted">All {frames} downloaded</Text>
      ) : (
        <>
          <Progress.Root value={(100 * download.done) / Math.max(1, download.total)} size="xs" width="8rem" aria-label="Frames downloaded">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text textStyle="sm" color="fg.muted">
            Downloading {frames}: {Math.round((100 * download.done) / Math.max(1, download.total))}%{download.paused ? ' (paused)' : ''}
          </Text>
        </>
      )}
      {missing.length > 0 ? (
        <Text textStyle="sm" color="fg.error" role="alert">
          Missing: {missing.join(', ')}
        </Text>
      ) : null}
    </HStack>
  );
}

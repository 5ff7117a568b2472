import { HStack, Progress, Text } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import type { ImageStore } from './image-store.ts';
import type { RecordImagesState } from './use-record-images.ts';

/** One line under the review header: frames loaded into the page, the background download, and what is missing. */
export function FramesStatus({ state, store }: { state: RecordImagesState; store: ImageStore }) {
  // Only the loaded count: the store also changes on every slice, which this line does not show.
  const loaded = useSyncExternalStore(store.subscribe, () => store.getSnapshot().bmodeLoaded + store.getSnapshot().angioLoaded);
  if (state.status === 'off') {
    return <Text textStyle="sm" color="fg.muted" data-testid="frames-status">Images are not loaded (noImage=true).</Text>;
  }
  if (state.status === 'loading') return <Text textStyle="sm" color="fg.muted" data-testid="frames-status">Loading the image lists…</Text>;
  if (state.status === 'error') {
    return <Text textStyle="sm" color="fg.error" role="alert" data-testid="frames-status">The images could not be loaded: {state.message}</Text>;
  }
  const { images, download, missing } = state;
  const total = images.bmode.count + images.angio.count;
  const frames = `${images.bmode.count.toLocaleString('en-US')} B-mode and ${images.angio.count.toLocaleString('en-US')} angio frames`;
  const downloaded = download !== null && download.done === download.total && download.failed.length === 0;
  return (
    <HStack gap="3" aria-live="polite">
      {loaded < total ? (
        <Progress.Root value={(100 * loaded) / Math.max(1, total)} size="xs" width="8rem" aria-label="Frames loaded">
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <Text textStyle="sm" color="fg.muted" data-testid="frames-status">
        {downloaded ? `All ${frames} downloaded` : loaded < total ? `Loading ${frames}: ${Math.round((100 * loaded) / Math.max(1, total))}%` : `${frames} loaded`}
      </Text>
      {missing.length > 0 ? (
        <Text textStyle="sm" color="fg.error" role="alert" data-testid="frames-missing">
          Could not load {missing.join(', ')}
        </Text>
      ) : null}
    </HStack>
  );
}

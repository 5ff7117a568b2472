import { HStack, Progress, Text } from '@chakra-ui/react';
import { useMemo, useSyncExternalStore } from 'react';
import type { ImageStore } from './image-store.ts';
import type { RecordImagesState } from './use-record-images.ts';

/** How often the line follows the loaded count while chunks arrive (the last count shows at once). */
const STATUS_UPDATE_MS = 250;

const loadedCount = (store: ImageStore) => store.getSnapshot().bmodeLoaded + store.getSnapshot().angioLoaded;

/**
 * Tells `listener` of changes in the loaded count at most every STATUS_UPDATE_MS: chunks arrive
 * a dozen times a second, and each change repaints the line. The store also changes on every
 * slice, which the line does not show.
 */
function subscribeToLoadedCount(store: ImageStore, listener: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let told = loadedCount(store);
  const tell = () => {
    timer = null;
    told = loadedCount(store);
    listener();
  };
  const unsubscribe = store.subscribe(() => {
    const count = loadedCount(store);
    if (count === told) return;
    const total = (store.size('bmode')?.count ?? 0) + (store.size('angio')?.count ?? 0);
    // Everything loaded shows without waiting.
    if (count >= total) {
      if (timer !== null) clearTimeout(timer);
      tell();
    } else if (timer === null) timer = setTimeout(tell, STATUS_UPDATE_MS);
  });
  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
  };
}

function useLoadedCount(store: ImageStore): number {
  const subscribe = useMemo(() => (listener: () => void) => subscribeToLoadedCount(store, listener), [store]);
  return useSyncExternalStore(subscribe, () => loadedCount(store));
}

/** One line under the review header: frames loaded into the page, the background download, and what is missing. */
export function FramesStatus({ state, store }: { state: RecordImagesState; store: ImageStore }) {
  const loaded = useLoadedCount(store);
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
    // Its own compositing layer while frames load, and a bar that jumps instead of sliding: the line
    // changes with every chunk (a dozen times a second), and repainting the page layer around it, or
    // animating the bar between chunks, kept the GPU process busy while the review was loading. Once
    // all are in it no longer changes: no layer for the compositor to draw in every played frame.
    // Not a live region either: a screen reader would read every percent; the bar carries the value.
    <HStack gap="3" willChange={loaded < total ? 'transform' : undefined}>
      {loaded < total ? (
        <Progress.Root value={(100 * loaded) / Math.max(1, total)} size="xs" width="8rem" aria-label="Frames loaded">
          <Progress.Track>
            <Progress.Range transition="none" />
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

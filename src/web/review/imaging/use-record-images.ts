import { useEffect, useState } from 'react';
import { RecordImagesSchema, type RecordImages } from '../../../domain/images.ts';
import { useApi } from '../../api/api-context.tsx';
import { onWorkerMessage, postToServiceWorker, resumeFetches, stopFetches, type WorkerMessage } from '../../sw/sw-client.ts';
import { describeChunk, loadRecordFrames } from './frame-loader.ts';
import { ImageStore } from './image-store.ts';

export type RecordImagesState =
  | { status: 'off' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; images: RecordImages; download: WorkerMessage | null; missing: string[] };

/**
 * The record's image lists and frames, in an image store owned by this review (freed when it
 * closes). The service worker downloads the whole record in the background for the next
 * visit; it pauses while the page itself loads frames. Off with `noImage=true`.
 */
export function useRecordImages(recordId: string, enabled: boolean): { state: RecordImagesState; store: ImageStore } {
  const api = useApi();
  const [store] = useState(() => new ImageStore());
  const [state, setState] = useState<RecordImagesState>(enabled ? { status: 'loading' } : { status: 'off' });

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let urls = new Set<string>();
    const unsubscribe = onWorkerMessage((message) => {
      // Progress of another record's download (a tab left open) is not ours.
      if (message.total !== urls.size) return;
      setState((current) => (current.status === 'ready' ? { ...current, download: message } : current));
    });
    const addMissing = (description: string) =>
      setState((current) => (current.status === 'ready' && !current.missing.includes(description) ? { ...current, missing: [...current.missing, description] } : current));

    api
      .get(RecordImagesSchema, `records/${encodeURIComponent(recordId)}/images`, { signal: controller.signal })
      .then(async (images) => {
        store.setImages(images);
        urls = new Set([...images.bmode.chunks, ...images.angio.chunks].map((path) => api.url(path)));
        setState({ status: 'ready', images, download: null, missing: [] });
        // Paused before it is handed the list, so its first downloads do not race the page's own.
        void stopFetches();
        void postToServiceWorker({ type: 'prefetch', urls: [...urls], authorization: api.authorization() ?? '' });
        await loadRecordFrames(
          api,
          images,
          store,
          {
            onBusy: (busy) => void (busy ? stopFetches() : resumeFetches()),
            onFailed: (series, chunk) => addMissing(describeChunk(images, series, chunk)),
          },
          controller.signal,
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: error instanceof Error ? error.message : 'The images could not be loaded.' });
      });
    return () => {
      controller.abort();
      unsubscribe();
      // Leaving the review frees its frames; a worker download still under way may go on for the next visit.
      store.reset();
    };
  }, [api, store, recordId, enabled]);

  return { state, store };
}

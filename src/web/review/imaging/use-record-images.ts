import { useEffect, useState } from 'react';
import { RecordImagesSchema, type RecordImages } from '../../../domain/images.ts';
import { useApi } from '../../api/api-context.tsx';
import { onWorkerMessage, postToServiceWorker, type WorkerMessage } from '../../sw/sw-client.ts';

export type RecordImagesState =
  | { status: 'off' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; images: RecordImages; download: WorkerMessage | null };

/**
 * The record's image lists, and the service worker's background download of all its frames
 * (so scrubbing and a second visit never wait for the network). Off with `noImage=true`.
 */
export function useRecordImages(recordId: string, enabled: boolean): RecordImagesState {
  const api = useApi();
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
    api
      .get(RecordImagesSchema, `records/${encodeURIComponent(recordId)}/images`, { signal: controller.signal })
      .then((images) => {
        urls = new Set([...images.bmode.chunks, ...images.angio.chunks].map((path) => api.url(path)));
        setState({ status: 'ready', images, download: null });
        void postToServiceWorker({ type: 'prefetch', urls: [...urls], authorization: api.authorization() ?? '' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: error instanceof Error ? error.message : 'The images could not be loaded.' });
      });
    return () => {
      controller.abort();
      unsubscribe();
    };
  }, [api, recordId, enabled]);

  return state;
}

/** "Frames 17–32 (B-mode)" for each chunk the worker could not download. */
export function describeMissingFrames(images: RecordImages, failedUrls: readonly string[]): string[] {
  return failedUrls.flatMap((url) => {
    const match = /\/frames\/(bmode|angio)\/(\d+)/.exec(url);
    if (!match) return [];
    const series = match[1] === 'bmode' ? images.bmode : images.angio;
    const first = Number(match[2]) * series.framesPerChunk;
    const last = Math.min(series.count, first + series.framesPerChunk);
    return [`Frames ${first + 1}–${last} (${match[1] === 'bmode' ? 'B-mode' : 'angio'})`];
  });
}

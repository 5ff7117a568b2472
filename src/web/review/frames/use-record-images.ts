import { useEffect, useState } from 'react';
import { RecordImagesSchema, type RecordImages } from '../../../domain/images.ts';
import { useApi } from '../../api/api-context.tsx';
import type { ApiClient } from '../../api/api-client.ts';
import { onWorkerMessage, postToServiceWorker, resumeFetches, stopFetches, type WorkerMessage } from '../../sw/sw-client.ts';
import { chunkSpans } from '../../sw/chunk-spans.ts';
import { createFrameDecodePool, type FrameDecodePool } from '../../codecs/decode-pool.ts';
import { describeChunk, hasFramePacks, loadRecordFrames, warmPackCodecs } from './frame-loader.ts';
import { ImageStore } from './image-store.ts';

/**
 * A record's image lists, asked for at once: the review's route asks as it first renders, so that
 * the server starts making a first open's frames while the review renders (about 0.4 s before
 * the page's own effects run; issue 27). A failure is the hook's to handle (it asks again).
 */
export function askRecordImages(api: ApiClient, recordId: string): Promise<RecordImages> {
  const now = performance.now();
  if (lastAsked?.api === api && lastAsked.recordId === recordId && now - lastAsked.at < ASKED_AGAIN_WITHIN_MS) return lastAsked.lists;
  const lists = api.get(RecordImagesSchema, `records/${encodeURIComponent(recordId)}/images`);
  lists.catch(() => undefined);
  lastAsked = { api, recordId, at: now, lists };
  return lists;
}

/**
 * The last lists asked for, taken again by a route render within this time: React throws away a
 * render in which a part of the review was still loading and renders it again, state and all.
 */
const ASKED_AGAIN_WITHIN_MS = 2000;
let lastAsked: { api: ApiClient; recordId: string; at: number; lists: Promise<RecordImages> } | null = null;

/** The service worker's queue hears of slice changes at most this often (playback moves 100 slices a second). */
const FOCUS_INTERVAL_MS = 250;

export type RecordImagesState =
  | { status: 'off' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; images: RecordImages; download: WorkerMessage | null; missing: string[] };

/**
 * The record's image lists and frames, in an image store owned by this review (freed when it
 * closes). The service worker downloads the whole record in the background for the next
 * visit; it pauses while the page itself loads frames. Off with `noImage=true`.
 * The review passes its session's store (`given`); without one the hook keeps its own.
 * `asked`: the lists already asked for (askRecordImages, as the review's route renders), taken
 * instead of asking again; when that request failed, they are asked again here.
 */
export function useRecordImages(
  recordId: string,
  enabled: boolean,
  given?: ImageStore,
  asked?: Promise<RecordImages> | null,
): { state: RecordImagesState; store: ImageStore } {
  const api = useApi();
  const [store] = useState(() => given ?? new ImageStore());
  const [state, setState] = useState<RecordImagesState>(enabled ? { status: 'loading' } : { status: 'off' });

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    // Frame packs' decode workers: started as soon as the lists say the record has packs, so
    // they are ready when its first chunk arrives; ended when the review is left.
    let pool: FrameDecodePool | null = null;
    const unsubscribe = onWorkerMessage((message) => {
      // Progress of another record's download (a tab left open) is not ours.
      if (message.recordId !== recordId) return;
      setState((current) => (current.status === 'ready' ? { ...current, download: message } : current));
    });
    // The worker's download follows the clinician: told when the slice has moved to another chunk's frames.
    let focusedChunk = -1;
    let focusTimer: ReturnType<typeof setTimeout> | null = null;
    const sendFocus = () => {
      focusTimer = null;
      const { slice } = store.getSnapshot();
      const chunk = Math.floor((slice - 1) / (store.images?.bmode.framesPerChunk ?? 1));
      if (!store.images || chunk === focusedChunk) return;
      focusedChunk = chunk;
      void postToServiceWorker({ type: 'prefetch_focus', recordId, slice });
    };
    const unsubscribeSlice = store.subscribe(() => {
      if (focusTimer === null) focusTimer = setTimeout(sendFocus, FOCUS_INTERVAL_MS);
    });
    const addMissing = (description: string) =>
      setState((current) => (current.status === 'ready' && !current.missing.includes(description) ? { ...current, missing: [...current.missing, description] } : current));

    const ask = () => api.get(RecordImagesSchema, `records/${encodeURIComponent(recordId)}/images`, { signal: controller.signal });
    (asked ? asked.catch(ask) : ask())
      .then(async (images) => {
        // The lists asked before this review's first render are not aborted with it.
        if (controller.signal.aborted) return;
        store.setImages(images);
        if (hasFramePacks(images)) {
          pool = createFrameDecodePool();
          // The codecs load while the first chunks download; the B-mode's first, as its frame shows first.
          warmPackCodecs(pool, images);
        }
        const items = chunkSpans(images).map(({ series, index, first, last }) => ({ url: api.url(images[series].chunks[index]!), first, last }));
        setState({ status: 'ready', images, download: null, missing: [] });
        // Paused before it is handed the list, so its first downloads do not race the page's own.
        void stopFetches();
        const { slice } = store.getSnapshot();
        focusedChunk = Math.floor((slice - 1) / images.bmode.framesPerChunk);
        void postToServiceWorker({ type: 'prefetch', recordId, items, slice, authorization: api.authorization() ?? '' });
        await loadRecordFrames(
          api,
          images,
          store,
          {
            onBusy: (busy) => void (busy ? stopFetches() : resumeFetches()),
            onFailed: (series, chunk) => addMissing(describeChunk(images, series, chunk)),
          },
          controller.signal,
          pool,
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: error instanceof Error ? error.message : 'The images could not be loaded.' });
      });
    return () => {
      controller.abort();
      pool?.dispose();
      unsubscribe();
      unsubscribeSlice();
      if (focusTimer !== null) clearTimeout(focusTimer);
      // Leaving the review frees its frames; a worker download still under way may go on for the next visit.
      store.reset();
    };
  }, [api, store, recordId, enabled, asked]);

  return { state, store };
}

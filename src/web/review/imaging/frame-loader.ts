import { chunkFrames, type ImageSeriesName, type RecordImages } from '../../../domain/images.ts';
import type { ApiClient } from '../../api/api-client.ts';
import type { ImageStore } from './image-store.ts';

/** Chunks in flight at once: enough to fill the pipe, few enough that the first frames come first. */
const CONCURRENCY = 4;
const LMODE_POLL_MS = 2000;

export interface FrameLoaderCallbacks {
  /** The page needs the bandwidth: the service worker's background download pauses meanwhile. */
  onBusy(busy: boolean): void;
  onFailed(series: ImageSeriesName, chunk: number, error: unknown): void;
}

/** Chunk order: the one holding the current slice first, then outwards, so scrubbing near it never waits. */
export function chunkOrder(chunkCount: number, startChunk: number): number[] {
  const order: number[] = [];
  for (let distance = 0; order.length < chunkCount; distance++) {
    if (startChunk + distance < chunkCount) order.push(startChunk + distance);
    if (distance > 0 && startChunk - distance >= 0) order.push(startChunk - distance);
  }
  return order;
}

/**
 * Loads every frame of a record into the image store: B-mode chunks around the current slice
 * first, then angio, then the L-mode image (polled while the server is still making it).
 * Requests go through the service worker, which answers from its cache what it already has.
 */
export async function loadRecordFrames(
  api: ApiClient,
  images: RecordImages,
  store: ImageStore,
  callbacks: FrameLoaderCallbacks,
  signal: AbortSignal,
): Promise<void> {
  const startChunk = Math.floor((store.getSnapshot().slice - 1) / images.bmode.framesPerChunk);
  const queue: [ImageSeriesName, number][] = [
    ...chunkOrder(images.bmode.chunks.length, startChunk).map((i): [ImageSeriesName, number] => ['bmode', i]),
    ...images.angio.chunks.map((_, i): [ImageSeriesName, number] => ['angio', i]),
  ];
  store.setDownloading(true);
  callbacks.onBusy(true);
  try {
    let urgent = true;
    const workerFor = async (limit: number) => {
      for (let taken = 0, next = queue.shift(); next && !signal.aborted; next = ++taken < limit ? queue.shift() : undefined) {
        const [series, index] = next;
        try {
          const bytes = await api.getBytes(images[series].chunks[index]!, { signal, urgent });
          if (bytes) store.addChunk(series, index, bytes);
          if (urgent) performance.mark('ivus:first-chunk-stored');
          urgent = false;
        } catch (error) {
          if (!signal.aborted) callbacks.onFailed(series, index, error);
        }
      }
    };
    // The chunk holding the current slice comes alone, with the whole pipe, so the first frame shows
    // as early as possible; the rest then arrive CONCURRENCY at a time.
    await workerFor(1);
    await Promise.all(Array.from({ length: CONCURRENCY }, () => workerFor(Infinity)));
  } finally {
    store.setDownloading(false);
    callbacks.onBusy(false);
  }
  // A record waiting for its pullback has no L-mode image to ask for.
  while (!signal.aborted && images.bmode.count > 0) {
    try {
      const lmode = await api.getBytes(images.lmode.path, { signal });
      if (lmode) {
        store.setLmode(images.lmode.width, images.lmode.height, lmode);
        return;
      }
    } catch (error) {
      if (!signal.aborted) callbacks.onFailed('bmode', -1, error);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, LMODE_POLL_MS));
  }
}

/** "Frames 17–32 (B-mode)" for a chunk that could not be loaded. */
export function describeChunk(images: RecordImages, series: ImageSeriesName, chunk: number): string {
  if (chunk < 0) return 'the L-mode image';
  const { first, count } = chunkFrames(chunk, images[series].count, images[series].framesPerChunk);
  return `frames ${first + 1}–${first + count} (${series === 'bmode' ? 'B-mode' : 'angio'})`;
}

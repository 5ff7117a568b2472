import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../../domain/constants.ts';
import { chunkFrames, type ImageSeriesName, type RecordImages } from '../../../domain/images.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { chunkSpans, orderAround, sliceDistance, type ChunkSpan } from '../../sw/chunk-spans.ts';
import type { FrameDecodePool } from '../../codecs/decode-pool.ts';
import type { ChunkShape, FirstFrame } from '../../codecs/pack-to-gray.ts';
import { framesCacheName } from '../../sw/messages.ts';
import type { ImageStore } from './image-store.ts';

/** Chunks in flight at once: enough to fill the pipe, few enough that the first frames come first. */
const CONCURRENCY = 4;

export interface FrameLoaderCallbacks {
  /** The page needs the bandwidth: the service worker's background download pauses meanwhile. */
  onBusy(busy: boolean): void;
  onFailed(series: ImageSeriesName, chunk: number, error: unknown): void;
}

/** Whether a record's chunks come as frame packs the page decodes (then it needs a decode pool). */
export function hasFramePacks(images: RecordImages): boolean {
  return images.bmode.chunkFormat === 'frame-pack' || images.angio.chunkFormat === 'frame-pack';
}

/** Has the pool's workers load the codec of each series of packs whose encoding the image lists name, the B-mode's first. */
export function warmPackCodecs(pool: Pick<FrameDecodePool, 'warm'>, images: RecordImages): void {
  for (const series of ['bmode', 'angio'] as const) {
    const { chunkFormat, packCodec, count } = images[series];
    if (chunkFormat === 'frame-pack' && packCodec && count > 0) pool.warm(packCodec);
  }
}

/** Takes the span nearest the slice out of `remaining` (the first of equally near ones). */
function takeNearest(remaining: ChunkSpan[], slice: number): ChunkSpan | undefined {
  let best = -1;
  for (let i = 0; i < remaining.length; i++) {
    if (best < 0 || sliceDistance(remaining[i]!, slice) < sliceDistance(remaining[best]!, slice)) best = i;
  }
  return best < 0 ? undefined : remaining.splice(best, 1)[0];
}

/**
 * Loads every frame of a record into the image store: first the chunk of the series Play plays
 * (the B-mode, else the angio run) holding the current slice, marked urgent (the server makes it
 * before anything else), then that series' chunks Play needs, then the angio's chunk holding the
 * slice, then the rest, always the chunk nearest the slice the clinician is on now, so that a
 * jump elsewhere is followed. The L-mode is built in the page from these frames (review/lmode).
 * Requests go through the service worker, which answers from its cache what it already has.
 * A series of frame packs is decoded by `pool`'s workers as each pack downloads, frame by frame;
 * a pack that cannot be decoded is a failed chunk like one that could not be fetched.
 */
export async function loadRecordFrames(
  api: ApiClient,
  images: RecordImages,
  store: ImageStore,
  callbacks: FrameLoaderCallbacks,
  signal: AbortSignal,
  pool: FrameDecodePool | null = null,
): Promise<void> {
  const remaining = chunkSpans(images);
  const slice = () => store.getSnapshot().slice;
  const nearestOf = (series: ImageSeriesName) => orderAround(remaining.filter((span) => span.series === series), slice())[0];
  // Play plays the B-mode, or the angiography run when there is no pullback.
  const playSeries: ImageSeriesName = images.bmode.count > 0 ? 'bmode' : 'angio';
  const first = nearestOf(playSeries);
  // With a pullback, the angio's chunk holding the slice is asked for once the chunks Play needs
  // have been: its panel starts only once Play is ready (review-panels.tsx), so before Play it took
  // a server frame worker and a decode here from what Play waits for (issue 27).
  let angioDue = playSeries === 'bmode';
  if (first) remaining.splice(remaining.indexOf(first), 1);
  let playChunksToAsk = Math.ceil(Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, images.bmode.count) / images.bmode.framesPerChunk) - (first ? 1 : 0);
  /** Until the chunks Play needs are asked for, the B-mode's nearest the slice; then the angio's; then the nearest. */
  const nextSpan = (): ChunkSpan | undefined => {
    const series = playChunksToAsk-- > 0 ? 'bmode' : angioDue ? 'angio' : undefined;
    if (series === 'angio') angioDue = false;
    const next = series ? nearestOf(series) : undefined;
    if (next) return remaining.splice(remaining.indexOf(next), 1)[0];
    return takeNearest(remaining, slice());
  };
  store.setDownloading(true);
  callbacks.onBusy(true);
  try {
    const decoding: Promise<void>[] = [];
    const keep = (series: ImageSeriesName, index: number, urgent: boolean, gray: Uint8Array) => {
      store.addChunk(series, index, gray);
      if (urgent && series === 'bmode') performance.mark('ivus:first-chunk-stored');
    };
    /**
     * The frame of an urgent chunk the review shows now goes to the store alone as soon as it is
     * decoded, before the rest of its chunk (issue 27). Should a later frame of the chunk fail, that
     * frame stays shown and the chunk is still reported missing as a whole, as before.
     */
    const shownFirst = (series: ImageSeriesName, chunkFirst: number, chunkCount: number): FirstFrame | undefined => {
      const shown = store.frameIndexAt(series, slice());
      if (shown < chunkFirst || shown >= chunkFirst + chunkCount) return undefined;
      return {
        index: shown - chunkFirst,
        take: (gray) => {
          if (signal.aborted) return;
          store.addFrame(series, shown, gray);
          if (series === 'bmode') performance.mark('ivus:first-frame-stored');
        },
      };
    };
    const fail = (series: ImageSeriesName, index: number) => (error: unknown) => {
      if (!signal.aborted) callbacks.onFailed(series, index, error);
    };
    /** A pack goes to a worker as it downloads: its frames are decoded while the rest of it, and the next chunks, arrive. */
    const loadPack = async (url: string, shape: ChunkShape, urgent: boolean, first?: FirstFrame): Promise<{ readonly gray: Promise<Uint8Array> } | null> => {
      if (!pool) throw new Error('no decode workers for frame packs');
      // The service worker hands a streamed pack straight through: the decode worker keeps it for the next visit.
      const cache = framesCacheName(api.authorization());
      const pack = pool.open(shape, cache ? { cache, url: api.url(url) } : undefined, first);
      let bytes: Uint8Array | null;
      try {
        bytes = await api.getBytes(url, { signal, urgent, body: { begin: () => pack.restart(), part: (part) => pack.push(part) } });
      } catch (error) {
        pack.cancel();
        throw error;
      }
      if (!bytes) {
        pack.cancel();
        return null;
      }
      // A client that does not stream answered with the whole pack.
      if (bytes.length) pack.push(bytes);
      // Not the promise itself: awaiting this function would then wait for the decode too.
      return { gray: pack.end() };
    };
    const load = async ({ series, index }: ChunkSpan, urgent: boolean) => {
      try {
        const { chunkFormat, chunks, width, height, count, framesPerChunk } = images[series];
        if (chunkFormat !== 'frame-pack') {
          const bytes = await api.getBytes(chunks[index]!, { signal, urgent });
          if (bytes) keep(series, index, urgent, bytes);
          return;
        }
        const frames = chunkFrames(index, count, framesPerChunk);
        const pack = await loadPack(chunks[index]!, { width, height, frames: frames.count }, urgent, urgent ? shownFirst(series, frames.first, frames.count) : undefined);
        if (!pack) return;
        // The download slot is free again at once, the first chunks' too: the workers finish the pack
        // while the next chunks are made on the server and arrive (issue 27: the next requests no
        // longer wait for the first chunk's decode, the server's frame workers idle meanwhile).
        const decoded = pack.gray.then((chunk) => {
          if (!signal.aborted) keep(series, index, urgent, chunk);
        });
        decoding.push(decoded.catch(fail(series, index)));
      } catch (error) {
        fail(series, index)(error);
      }
    };
    // The current slice's image downloads alone, with the whole pipe, so it shows as early as
    // possible; the rest then arrive CONCURRENCY at a time, while the first is decoded.
    const firstLoad = first ? load(first, true) : undefined;
    if (firstLoad) await firstLoad;
    const worker = async () => {
      for (let next = nextSpan(); next && !signal.aborted; next = nextSpan()) await load(next, false);
    };
    await Promise.all([firstLoad, ...Array.from({ length: CONCURRENCY }, worker)]);
    await Promise.all(decoding);
  } finally {
    store.setDownloading(false);
    callbacks.onBusy(false);
  }
}

/** "Frames 17–32 (B-mode)" for a chunk that could not be loaded. */
export function describeChunk(images: RecordImages, series: ImageSeriesName, chunk: number): string {
  const { first, count } = chunkFrames(chunk, images[series].count, images[series].framesPerChunk);
  return `frames ${first + 1}–${first + count} (${series === 'bmode' ? 'B-mode' : 'angio'})`;
}

/**
 * The page of `npm run bench:frame-decode`: loads one series' chunks as the review does (four
 * requests at a time, the nearest first), handing frame packs to the review's own decode pool
 * (told the packs' codec as the review is by the image lists, or not), either part by part as
 * each downloads (the review now) or whole once downloaded (before), and says how long it took
 * until every frame was in the page and how long the workers spent.
 */
import type { PackCodec } from '../../src/domain/images.ts';
import { createFrameDecodePool } from '../../src/web/codecs/decode-pool.ts';

export interface BenchSeries {
  readonly chunks: readonly string[];
  readonly kind: 'gray8' | 'frame-pack';
  readonly width: number;
  readonly height: number;
  readonly framesPerChunk: number;
  readonly count: number;
  /** The packs' codec as the image lists announce it, loaded by the workers before the first chunk is fetched (null: when the first pack arrives). */
  readonly packCodec: PackCodec | null;
  /** Decode workers (null: as many as the review would start here). */
  readonly workers: number | null;
  /** Packs handed to the workers as their bytes arrive (the review), or whole once downloaded (before). */
  readonly delivery: 'streamed' | 'whole';
}

export interface BenchResult {
  readonly allFramesMs: number;
  readonly firstChunkMs: number;
  /** Median over chunks of the workers' time per frame (null for gray8). */
  readonly decodeMsPerFrame: number | null;
  /** The workers' time on the first chunk decoded, which includes loading its codec (null for gray8). */
  readonly firstDecodeMs: number | null;
  readonly grayBytes: number;
  /** Mean bytes a read of a streamed pack's body gave (null when packs were read whole). */
  readonly bytesPerRead: number | null;
}

const CONCURRENCY = 4;

async function load(series: BenchSeries): Promise<BenchResult> {
  performance.clearMeasures('ivus:pack-decode');
  const pool = series.kind === 'frame-pack' ? createFrameDecodePool(series.workers ?? undefined) : null;
  if (pool && series.packCodec) pool.warm(series.packCodec);
  const start = performance.now();
  let firstChunkMs = 0;
  let grayBytes = 0;
  let reads = 0;
  let readBytes = 0;
  const decoding: Promise<void>[] = [];
  const store = (index: number, gray: Uint8Array) => {
    const frames = Math.min(series.framesPerChunk, series.count - index * series.framesPerChunk);
    if (gray.length !== frames * series.width * series.height) throw new Error(`chunk ${index} has ${gray.length} bytes`);
    grayBytes += gray.length;
    if (index === 0) firstChunkMs = performance.now() - start;
  };
  let next = 0;
  const fetcher = async () => {
    while (next < series.chunks.length) {
      const index = next++;
      const response = await fetch(series.chunks[index]!, { cache: 'no-store' });
      const shape = { width: series.width, height: series.height, frames: Math.min(series.framesPerChunk, series.count - index * series.framesPerChunk) };
      if (pool && series.delivery === 'streamed' && response.body) {
        const pack = pool.open(shape);
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          reads++;
          readBytes += read.value.length;
          pack.push(read.value);
        }
        decoding.push(pack.end().then((gray) => store(index, gray)));
        continue;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (!pool) store(index, bytes);
      else decoding.push(pool.decode(bytes, shape).then((gray) => store(index, gray)));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, fetcher));
  await Promise.all(decoding);
  const allFramesMs = performance.now() - start;
  pool?.dispose();
  const measures = performance.getEntriesByName('ivus:pack-decode') as PerformanceMeasure[];
  const perFrame = measures
    .map((measure) => measure.duration / (measure.detail as { frames: number }).frames)
    .sort((a, b) => a - b);
  const firstDecodeMs = measures.length ? Math.min(...measures.map((measure) => measure.startTime)) : null;
  const first = measures.find((measure) => measure.startTime === firstDecodeMs);
  return { allFramesMs, firstChunkMs, decodeMsPerFrame: perFrame.length ? perFrame[Math.floor(perFrame.length / 2)]! : null, firstDecodeMs: first?.duration ?? null, grayBytes, bytesPerRead: reads ? readBytes / reads : null };
}

(globalThis as unknown as { loadSeries: typeof load }).loadSeries = load;

/**
 * The detection of one record's borders, chunk by chunk, on the contour workers (or inline without
 * them), in the coarse-to-fine order of detection-order.ts: every run's first chunk across the
 * whole pullback, then every run's second, and so on. Chunks are asked of the imaging in that
 * order a few ahead of the detection, so that generation (frame workers) and detection (contour
 * workers) go on side by side on both cores. After each chunk the caller is told (progress, and
 * the provisional contours once the whole pullback is sampled).
 *
 * Every chunk's job reads the borders (with calcium, which needs them) and nothing else (issue 23):
 * a frame's stent struts cost about a quarter of its detection, and on two cores a 3,600-frame
 * record's borders and struts together took longer than the 15 s its borders are allowed. The
 * struts of every chunk are read once every border is in, from the stored chunks, after the caller
 * is told so (bordersDone: the final contours and MLA are stored then, before the stent). The first
 * pass's frames are made ahead of the page's download (detectionPriority). A run's warm-up frames go
 * to the worker raw, and so does a chunk being made: as soon as it is rendered, before its encoding and storage.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { SliceDetection } from '../../domain/contours/api.ts';
import type { BorderCarry } from '../../domain/contours/detect-sequence.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import type { StentFrameReading } from '../../domain/stent/strut-detection.ts';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import type { ContourWorkerPool } from './contour-worker-pool.ts';
import { detectChunk, type ChunkDetection, type ChunkReading } from './detect-chunk.ts';
import { CoarseToFineSchedule, detectionPriority, detectionRuns, type DetectionTask } from './detection-order.ts';

const gunzip = promisify(zlib.gunzip);

/** Two, as at a record's start: the first of them takes its temporal cue from the second. */
export const WARM_UP_FRAMES = 2;
/** Chunks asked of the imaging beyond those being detected: enough to keep the frame workers busy. */
const FETCH_AHEAD = 4;

export class DetectionStopped extends Error {}

export interface RecordDetectionDeps {
  readonly imaging: Pick<RecordImaging, 'chunk' | 'bmodeFrames' | 'bmodeChunkForDetection'>;
  /** Null: inline, yielding to the event loop between chunks. */
  readonly pool: ContourWorkerPool | null;
  readonly runChunks: number;
  /** Resolves when the detection may take its next chunk (an idle detection waits for a quiet spell). */
  readonly turn: () => Promise<void>;
  /** An idle detection (borders made at ingest) until someone asks for the record: its frames are made at background priority. */
  readonly idle: () => boolean;
  readonly stopped: () => boolean;
  /** After each chunk: the detections so far (undefined where not detected yet) and the schedule's state. */
  readonly afterChunk: (detections: readonly (SliceDetection | undefined)[], done: number, schedule: CoarseToFineSchedule) => Promise<void>;
  /** Time spent waiting for frames, summed over the lanes (logged). */
  readonly timing: { waitingForFramesMs: number };
  /**
   * Every frame's borders are in, no stent struts yet (issue 23: the final contours and MLA are
   * stored then; the stent follows). Awaited before the struts are read.
   */
  readonly bordersDone?: (detections: readonly SliceDetection[]) => Promise<void>;
}

/** What reading a record's struts alone needs (readRecordStruts): a subset of RecordDetectionDeps. */
export type StrutReadingDeps = Pick<RecordDetectionDeps, 'imaging' | 'pool' | 'turn' | 'idle' | 'stopped'>;

/** A chunk's frames as fetched: the stored gzip chunk, or raw frames as rendered (a chunk being made, a run's warm-up). */
type FetchedFrames = { readonly gz: Uint8Array } | { readonly raw: Uint8Array };

/** Every frame's borders and stent struts (issue 28), as the detection job's workers read them. */
export interface RecordDetection {
  readonly detections: SliceDetection[];
  /** Each frame's struts and wall bins (about 23 kB a frame) until the record's stent is read from them all. */
  readonly stent: StentFrameReading[];
}

/** Every frame's detection, coarse to fine; the result is that of detecting the runs one after another. */
export async function detectRecord(record: RecordRow, deps: RecordDetectionDeps): Promise<RecordDetection> {
  const { pool, imaging } = deps;
  const runs = detectionRuns(chunkCount(record.bmodeFrameCount), deps.runChunks);
  const schedule = new CoarseToFineSchedule(runs);
  const carries = runs.map((): BorderCarry | null => null);
  const detections = new Array<SliceDetection | undefined>(record.bmodeFrameCount);
  const geometry = { frameWidth: record.frameWidth, frameHeight: record.frameHeight, pixelSpacingMm: record.pixelSpacingMm };
  let done = 0;

  // The chunks in the order the schedule hands them out when every lane keeps pace: asked that far ahead.
  const order = fetchOrder(runs);
  const fetched = new Map<string, Promise<FetchedFrames>>();
  /** Fetches a lane took before the look-ahead reached them: not asked again. */
  const taken = new Set<string>();
  let nextFetch = 0;
  const fetchKey = (task: DetectionTask, warmUp: boolean) => `${warmUp ? 'w' : 'c'}${task.chunk}`;
  const startFetch = (task: DetectionTask, warmUp: boolean): Promise<FetchedFrames> => {
    const key = fetchKey(task, warmUp);
    let pending = fetched.get(key);
    if (!pending) {
      const priority = detectionPriority(task, runs, deps.idle());
      pending = warmUp ? warmUpFrames(task.chunk, priority) : imaging.bmodeChunkForDetection(record, task.chunk, priority);
      pending.catch(() => undefined); // awaited by the lane that takes the task; this only keeps an early failure from going unhandled
      fetched.set(key, pending);
    }
    return pending;
  };
  const fetchAhead = () => {
    for (; nextFetch < order.length && fetched.size < FETCH_AHEAD; nextFetch++) {
      const task = order[nextFetch]!;
      if (task.warmUp && !taken.has(fetchKey(task, true))) startFetch(task, true);
      if (!taken.has(fetchKey(task, false))) startFetch(task, false);
    }
  };
  const warmUpFrames = async (chunk: number, priority: ReturnType<typeof detectionPriority>): Promise<FetchedFrames> => {
    const start = chunkFrames(chunk, record.bmodeFrameCount).first;
    // Raw, as rendered: packing two frames only for the worker to unpack them would cost both sides.
    return { raw: await imaging.bmodeFrames(record, start - WARM_UP_FRAMES, start, priority) };
  };
  const take = async (task: DetectionTask, warmUp: boolean): Promise<FetchedFrames> => {
    const asked = performance.now();
    const bytes = await startFetch(task, warmUp);
    fetched.delete(fetchKey(task, warmUp));
    taken.add(fetchKey(task, warmUp));
    deps.timing.waitingForFramesMs += performance.now() - asked;
    return bytes;
  };
  const detect = (frames: FetchedFrames, carry: BorderCarry | null, read: ChunkReading, lastFrames?: number) => detectOn(pool, geometry, frames, carry, read, lastFrames);

  const detectTask = async (task: DetectionTask) => {
    await deps.turn();
    if (deps.stopped()) throw new DetectionStopped();
    if (task.warmUp) carries[task.run] = (await detect(await take(task, true), null, 'borders', WARM_UP_FRAMES)).carry;
    const frames = await take(task, false);
    fetchAhead();
    const result = await detect(frames, carries[task.run]!, 'borders');
    const { first, count } = chunkFrames(task.chunk, record.bmodeFrameCount);
    if (result.detections.length !== count) throw new Error(`chunk ${task.chunk} held ${result.detections.length} frames, expected ${count}`);
    result.detections.forEach((detection, k) => (detections[first + k] = detection));
    carries[task.run] = result.carry;
    done += count;
  };

  let failed = false;
  const lane = async () => {
    // After a failure the other lanes take no new chunk: the job fails (and is retried) as a whole.
    for (let task = schedule.take(); task && !failed; task = schedule.take()) {
      try {
        await detectTask(task);
      } catch (error) {
        failed = true;
        throw error;
      }
      schedule.complete(task);
      await deps.afterChunk(detections, done, schedule);
    }
  };
  fetchAhead();
  const lanes = Math.max(1, Math.min(runs.length, pool?.size ?? 1));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (!schedule.done()) throw new Error('the detection ended with chunks left');
  // Every border is in: the final contours are stored before any strut is read.
  await deps.bordersDone?.(detections as SliceDetection[]);
  return { detections: detections as SliceDetection[], stent: await readRecordStruts(record, deps) };
}

/**
 * Every frame's struts and wall, read from the record's stored chunks alone (no borders), chunk by
 * chunk in record order on every lane: once every border of a detection is in, and for a record
 * whose final contours were stored and whose stent reading stopped with its server (record-contours.ts
 * resumes it so; the readings of the stopped job are gone with it: all are read).
 */
export async function readRecordStruts(record: RecordRow, deps: StrutReadingDeps): Promise<StentFrameReading[]> {
  const geometry = { frameWidth: record.frameWidth, frameHeight: record.frameHeight, pixelSpacingMm: record.pixelSpacingMm };
  const stent = new Array<StentFrameReading>(record.bmodeFrameCount);
  const left = Array.from({ length: chunkCount(record.bmodeFrameCount) }, (_, chunk) => chunk);
  const lanes = Math.max(1, Math.min(left.length, deps.pool?.size ?? 1));
  const fetch = (chunk: number | undefined) => {
    if (chunk === undefined) return undefined;
    const gz = deps.imaging.chunk(record, 'bmode', chunk, deps.idle() ? 'background' : 'demand');
    // Awaited (and its failure thrown) when its turn comes; until then a failure must not go unhandled.
    gz.catch(() => {});
    return { chunk, gz };
  };
  const lane = async () => {
    // Each lane's next chunk is fetched while its worker reads the struts of this one, so the worker
    // does not wait for the store between chunks (issue 23: that was 4-9 % of the pass under load).
    for (let next = fetch(left.shift()); next !== undefined; ) {
      await deps.turn();
      if (deps.stopped()) throw new DetectionStopped();
      const { chunk, gz } = next;
      const frames = { gz: await gz };
      next = fetch(left.shift());
      keepStentOf(record, stent, chunk, await detectOn(deps.pool, geometry, frames, null, 'stent'));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return stent;
}

function keepStentOf(record: RecordRow, stent: StentFrameReading[], chunk: number, result: ChunkDetection): void {
  const { first, count } = chunkFrames(chunk, record.bmodeFrameCount);
  if (result.stent.length !== count) throw new Error(`chunk ${chunk} read struts on ${result.stent.length} frames, expected ${count}`);
  result.stent.forEach((reading, k) => (stent[first + k] = reading));
}

/** One chunk's job on the contour workers, or inline (yielding to the event loop after it) without them. */
async function detectOn(
  pool: ContourWorkerPool | null,
  geometry: { frameWidth: number; frameHeight: number; pixelSpacingMm: number },
  frames: FetchedFrames,
  carry: BorderCarry | null,
  read: ChunkReading,
  lastFrames?: number,
): Promise<ChunkDetection> {
  const job = { ...geometry, carry, read, ...(lastFrames === undefined ? {} : { lastFrames }) };
  if (pool) return pool.detect({ ...job, ...frames });
  const result = detectChunk(job, 'raw' in frames ? frames.raw : await gunzip(frames.gz));
  await new Promise((resolve) => setImmediate(resolve));
  return result;
}

/** The tasks pass by pass (chunk p of every run), as CoarseToFineSchedule hands them out when the lanes keep pace. */
export function fetchOrder(runs: readonly { first: number; end: number }[]): DetectionTask[] {
  const order: DetectionTask[] = [];
  const longest = Math.max(0, ...runs.map((run) => run.end - run.first));
  for (let offset = 0; offset < longest; offset++) {
    runs.forEach((run, index) => {
      if (run.first + offset < run.end) order.push({ run: index, chunk: run.first + offset, warmUp: offset === 0 && run.first > 0 });
    });
  }
  return order;
}

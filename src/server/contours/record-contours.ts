/**
 * A record's automatic lumen and vessel contours: detected once, by a durable job (any server's), from the
 * record's stored B-mode chunks (made first if a demo record has not got them yet), then kept in the blob
 * store as gzip JSON beside the frames, under the record's imaging version and the detector's version,
 * with a small progress file beside it while the detection runs. Later requests read the stored result.
 *
 * The frames are split into one contiguous run per worker; each run is detected chunk by chunk in
 * frame order, each frame continuing from the previous frame's borders and pixels (the first frame
 * of a run starts afresh). Without workers the same runs go inline, yielding to the event loop between chunks.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { buildRecordContours, type SliceDetection } from '../../domain/contours/api.ts';
import type { BorderCarry, BorderSequenceDetection } from '../../domain/contours/detect-sequence.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import { imagingKey, type RecordImaging } from '../imaging/record-imaging.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { createContourWorkerPool, type ContourWorkerPool } from './contour-worker-pool.ts';
import { detectChunk } from './detect-chunk.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * Names the detector's behaviour in the storage key and the ETag: change it whenever detection
 * changes. 2 (issue 23): a frame the detector cannot read is stored without a border; contours
 * stored under 1 carry edge-of-image borders there, so they are detected again rather than served.
 * 3 (issue 23): "no border" is decided by whether the frame could be read (frame-readability.ts),
 * not by a confidence cut that also hid good borders; contours under 2 are detected again.
 */
export const CONTOUR_ALGORITHM_VERSION = 'lumen-vessel-3';

/** Storage key of a record's contours: `{tenant}/{record}/{imaging version}/contours/{algorithm}.json.gz`. */
export function contoursKey(record: RecordRow): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.json.gz`);
}

export type ContoursState = { ready: true; gz: Buffer } | { ready: false; done: number; total: number };

/** What the detecting server writes beside the result while it works, so that any replica can answer a poll. */
type Progress = { done: number; total: number; at: string } | { failed: { unavailable: boolean; message: string }; at: string };

/** A progress file older than this belongs to a detection whose server is gone (the queue retries it, or a poll asks again). */
const PROGRESS_STALE_MS = 2 * 60_000;
const PROGRESS_WRITE_MS = 500;

export type ContoursJobData = { tenantId: string; recordId: string; imagingVersion: string };

function progressKey(record: RecordRow): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.progress.json`);
}

class ContourJobCancelled extends Error {}

/** The record's frames cannot have automatic borders (too small a field of view): a 422, not a failure of ours. */
export class ContoursUnavailableError extends Error {}

/**
 * Detection runs as a durable job (contours-detect) on whichever server takes it; the state of
 * a record's contours is read from the store, so any server answers the same.
 */
export class RecordContourService {
  private readonly store: BlobStore;
  private readonly imaging: RecordImaging;
  private readonly workers: number;
  private readonly log: FastifyBaseLogger;
  private readonly jobs: Pick<JobQueue, 'send'>;
  private readonly running = new Set<Promise<unknown>>();
  private pool: ContourWorkerPool | null = null;
  private closed = false;

  /** `workers` threads detect (made on first use); 0 detects on the main thread. */
  constructor(deps: { store: BlobStore; imaging: RecordImaging; workers: number; log: FastifyBaseLogger; jobs: Pick<JobQueue, 'send'> }) {
    this.store = deps.store;
    this.imaging = deps.imaging;
    this.workers = deps.workers;
    this.log = deps.log;
    this.jobs = deps.jobs;
  }

  /**
   * The stored contours (gzip JSON of RecordContours), or the progress of their detection, which
   * this call queues if nothing is stored or running (a clinician waits: the latest asked first). A failed detection is reported (thrown) once, and the next call tries again.
   */
  async state(record: RecordRow): Promise<ContoursState> {
    const stored = await this.store.get(contoursKey(record));
    if (stored) return { ready: true, gz: stored };
    const progress = await this.readProgress(record);
    if (progress && 'failed' in progress) {
      await this.store.deletePrefix(progressKey(record));
      if (progress.failed.unavailable) throw new ContoursUnavailableError(progress.failed.message);
      throw new Error(progress.failed.message);
    }
    const data: ContoursJobData = { tenantId: record.tenantId, recordId: record.id, imagingVersion: record.imagingVersion };
    // The record asked for last goes first; each poll of a page still open raises it again.
    await this.jobs.send('contours-detect', data, { key: contoursKey(record), priority: { askedAt: new Date() } });
    return { ready: false, done: progress?.done ?? 0, total: record.bmodeFrameCount };
  }

  /**
   * The contours-detect job: detects and stores the record's contours, writing progress on the way.
   * Run again after a crash it starts over and stores the same result. A record without usable
   * borders, or a failure with no retry left, is written down for the next poll to report.
   */
  async detect(record: RecordRow, lastAttempt: boolean): Promise<void> {
    const key = contoursKey(record);
    if (await this.store.get(key)) return;
    const work = this.detectAndStore(record, key);
    this.running.add(work);
    try {
      await work;
    } catch (err) {
      // Closing stops the workers under a running job: the job is retried later, here or elsewhere.
      if (err instanceof ContourJobCancelled || this.closed) throw new ContourJobCancelled('detection stopped with its server');
      const message = err instanceof Error ? err.message : String(err);
      // The detector's verdict on the geometry survives the worker thread only as its message.
      if (/field of view is too small/.test(message)) {
        const acrossMm = (Math.min(record.frameWidth, record.frameHeight) * record.pixelSpacingMm).toFixed(1);
        await this.writeProgress(record, { failed: { unavailable: true, message: `The frames cover ${acrossMm} mm across: too little for automatic lumen and vessel borders.` }, at: new Date().toISOString() });
        return;
      }
      this.log.error({ err, recordId: record.id, tenant: record.tenantId, lastAttempt }, 'lumen and vessel contour detection failed');
      if (!lastAttempt) throw err;
      await this.writeProgress(record, { failed: { unavailable: false, message }, at: new Date().toISOString() });
    } finally {
      this.running.delete(work);
    }
  }

  /** Stops running detections (at their next chunk; their jobs are retried later) and the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
    await this.pool?.close();
  }

  private async detectAndStore(record: RecordRow, key: string): Promise<void> {
    const total = record.bmodeFrameCount;
    let lastWrite = 0;
    const onProgress = async (done: number) => {
      if (performance.now() - lastWrite < PROGRESS_WRITE_MS && done < total) return;
      lastWrite = performance.now();
      await this.writeProgress(record, { done, total, at: new Date().toISOString() });
    };
    await onProgress(0);
    const detections = await this.detectRecord(record, onProgress);
    const body = buildRecordContours({
      version: record.imagingVersion,
      pixelSpacingMm: record.pixelSpacingMm,
      framesPerMm: record.frameRateHz / record.pullbackSpeedMmPerS,
      detections,
    });
    await this.store.put(key, await gzip(JSON.stringify(body), { level: 6 }));
    await this.store.deletePrefix(progressKey(record));
    this.log.info({ recordId: record.id, frames: total }, 'lumen and vessel contours detected');
  }

  private async readProgress(record: RecordRow): Promise<Progress | null> {
    const bytes = await this.store.get(progressKey(record));
    if (!bytes) return null;
    try {
      const progress = JSON.parse(bytes.toString('utf8')) as Progress;
      // A failure is reported however old; a count that stopped moving is a detection that died.
      if (!('failed' in progress) && Date.now() - Date.parse(progress.at) > PROGRESS_STALE_MS) return null;
      return progress;
    } catch {
      return null;
    }
  }

  private writeProgress(record: RecordRow, progress: Progress): Promise<void> {
    return this.store.put(progressKey(record), Buffer.from(JSON.stringify(progress)));
  }

  private async detectRecord(record: RecordRow, onProgress: (done: number) => Promise<void>): Promise<SliceDetection[]> {
    let done = 0;
    const counted = async (count: number) => {
      done += count;
      await onProgress(done);
    };
    const chunks = chunkCount(record.bmodeFrameCount);
    const detections = new Array<SliceDetection>(record.bmodeFrameCount);
    const pool = this.workers > 0 ? (this.pool ??= createContourWorkerPool(this.workers)) : null;
    const lanes = Math.max(1, Math.min(chunks, pool?.size ?? 1));
    const runs = Array.from({ length: lanes }, (_, lane) => ({
      first: Math.floor((lane * chunks) / lanes),
      end: Math.floor(((lane + 1) * chunks) / lanes),
    }));
    await Promise.all(runs.map((run) => this.detectRun(record, counted, pool, run.first, run.end, detections)));
    return detections;
  }

  /** Chunks first..end-1 in order; the next chunk is fetched while the current one is detected. */
  private async detectRun(
    record: RecordRow,
    counted: (count: number) => Promise<void>,
    pool: ContourWorkerPool | null,
    first: number,
    end: number,
    detections: SliceDetection[],
  ): Promise<void> {
    const fetch = (index: number) => {
      const pending = this.imaging.chunk(record, 'bmode', index);
      pending.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      return pending;
    };
    let carry: BorderCarry | null = null;
    let next = first < end ? fetch(first) : null;
    for (let index = first; index < end; index++) {
      if (this.closed) throw new ContourJobCancelled();
      const gz: Buffer = await next!;
      next = index + 1 < end ? fetch(index + 1) : null;
      const geometry = { frameWidth: record.frameWidth, frameHeight: record.frameHeight, pixelSpacingMm: record.pixelSpacingMm, carry };
      let result: BorderSequenceDetection;
      if (pool) {
        result = await pool.detect({ ...geometry, gz });
      } else {
        result = detectChunk(geometry, await gunzip(gz));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const { first: firstFrame, count } = chunkFrames(index, record.bmodeFrameCount);
      if (result.detections.length !== count) throw new Error(`chunk ${index} held ${result.detections.length} frames, expected ${count}`);
      result.detections.forEach((detection, k) => (detections[firstFrame + k] = detection));
      carry = result.carry;
      await counted(count);
    }
  }
}

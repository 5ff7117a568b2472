/**
 * A record's automatic lumen and vessel contours: detected once in the background from the record's stored
 * B-mode chunks (made first if a demo record has not got them yet), then kept in the blob store as
 * gzip JSON beside the frames, under the record's imaging version and the detector's version. Later
 * requests read the stored result.
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
import type { BlobStore } from '../storage/blob-store.ts';
import { createContourWorkerPool, type ContourWorkerPool } from './contour-worker-pool.ts';
import { detectChunk } from './detect-chunk.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Names the detector's behaviour in the storage key: change it whenever detection changes. */
export const CONTOUR_ALGORITHM_VERSION = 'lumen-vessel-1';

/** Storage key of a record's contours: `{tenant}/{record}/{imaging version}/contours/{algorithm}.json.gz`. */
export function contoursKey(record: RecordRow): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.json.gz`);
}

export type ContoursState = { ready: true; gz: Buffer } | { ready: false; done: number; total: number };

interface Job {
  done: number;
  readonly total: number;
  error: Error | null;
  readonly finished: Promise<void>;
}

class ContourJobCancelled extends Error {}

/** The record's frames cannot have automatic borders (too small a field of view): a 422, not a failure of ours. */
export class ContoursUnavailableError extends Error {}

export class RecordContourService {
  private readonly store: BlobStore;
  private readonly imaging: RecordImaging;
  private readonly workers: number;
  private readonly log: FastifyBaseLogger;
  private readonly jobs = new Map<string, Job>();
  private pool: ContourWorkerPool | null = null;
  private closed = false;

  /** `workers` threads detect (made on first use); 0 detects on the main thread. */
  constructor(store: BlobStore, imaging: RecordImaging, workers: number, log: FastifyBaseLogger) {
    this.store = store;
    this.imaging = imaging;
    this.workers = workers;
    this.log = log;
  }

  /**
   * The stored contours (gzip JSON of RecordContours), or the progress of their detection, which
   * this call starts if nothing is stored or running. A failed detection is reported (thrown) once,
   * and the next call tries again.
   */
  async state(record: RecordRow): Promise<ContoursState> {
    const key = contoursKey(record);
    const stored = await this.store.get(key);
    if (stored) return { ready: true, gz: stored };
    let job = this.jobs.get(key);
    if (job?.error) {
      this.jobs.delete(key);
      throw job.error;
    }
    job ??= this.start(record, key);
    return { ready: false, done: job.done, total: job.total };
  }

  /** Stops running detections (at their next chunk) and the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.jobs.values()].map((job) => job.finished));
    await this.pool?.close();
  }

  private start(record: RecordRow, key: string): Job {
    const total = record.bmodeFrameCount;
    const job: Job = {
      done: 0,
      total,
      error: null,
      finished: Promise.resolve()
        .then(() => this.detectRecord(record, job))
        .then(async (detections) => {
          const body = buildRecordContours({
            version: record.imagingVersion,
            pixelSpacingMm: record.pixelSpacingMm,
            framesPerMm: record.frameRateHz / record.pullbackSpeedMmPerS,
            detections,
          });
          await this.store.put(key, await gzip(JSON.stringify(body), { level: 6 }));
          this.jobs.delete(key);
          this.log.info({ recordId: record.id, frames: total }, 'lumen and vessel contours detected');
        })
        .catch((err: unknown) => {
          // Closing stops the workers under a running job: that is a cancellation, not a failure.
          if (err instanceof ContourJobCancelled || this.closed) {
            this.jobs.delete(key);
            return;
          }
          const message = err instanceof Error ? err.message : String(err);
          // The detector's verdict on the geometry survives the worker thread only as its message.
          if (/field of view is too small/.test(message)) {
            const acrossMm = (Math.min(record.frameWidth, record.frameHeight) * record.pixelSpacingMm).toFixed(1);
            job.error = new ContoursUnavailableError(`The frames cover ${acrossMm} mm across: too little for automatic lumen and vessel borders.`);
            return;
          }
          this.log.error({ err, recordId: record.id, tenant: record.tenantId }, 'lumen and vessel contour detection failed');
          job.error = err instanceof Error ? err : new Error(String(err));
        }),
    };
    this.jobs.set(key, job);
    return job;
  }

  private async detectRecord(record: RecordRow, job: Job): Promise<SliceDetection[]> {
    const chunks = chunkCount(record.bmodeFrameCount);
    const detections = new Array<SliceDetection>(record.bmodeFrameCount);
    const pool = this.workers > 0 ? (this.pool ??= createContourWorkerPool(this.workers)) : null;
    const lanes = Math.max(1, Math.min(chunks, pool?.size ?? 1));
    const runs = Array.from({ length: lanes }, (_, lane) => ({
      first: Math.floor((lane * chunks) / lanes),
      end: Math.floor(((lane + 1) * chunks) / lanes),
    }));
    await Promise.all(runs.map((run) => this.detectRun(record, job, pool, run.first, run.end, detections)));
    return detections;
  }

  /** Chunks first..end-1 in order; the next chunk is fetched while the current one is detected. */
  private async detectRun(
    record: RecordRow,
    job: Job,
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
      job.done += count;
    }
  }
}

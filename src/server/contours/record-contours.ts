/**
 * A record's automatic lumen and vessel contours: detected once, by a durable job (any server's), from the
 * record's stored B-mode chunks (made first if a demo record has not got them yet), then kept in the blob
 * store as gzip JSON beside the frames, under the record's imaging version and the detector's version,
 * with a small progress file beside it while the detection runs. Later requests read the stored result.
 *
 * Each frame continues from the previous frame's borders and pixels: the record is cut into runs of
 * SEGMENT_CHUNKS chunks, each detected in frame order (one that starts mid-record first detects the
 * last WARM_UP_FRAMES frames before it, so that its first frame too continues from a previous one),
 * on every worker (record-detection.ts). The runs are taken coarse to fine (detection-order.ts):
 * every run's first chunk across the whole pullback, then every run's second, and so on. Once the
 * first pass is done, provisional contours (the lumen areas so far and the MLA among them,
 * provisional-contours.ts) are written beside the progress and refreshed as frames come in, so a
 * first open shows a provisional plot and MLA within seconds, labelled as such (issue 23); the final
 * contours are those of detecting the runs one after another, whatever the order. They are stored
 * as soon as every border is in, before any stent strut is read (every chunk's struts are read after every border), marked
 * `stentPending` (a small marker file beside them says so without unzipping them); the stent is
 * added when its struts are read. A detection stopped in between (a restart) is resumed by the
 * next poll's job, which reads the stent alone from the stored chunks (resumeStent).
 *
 * Borders are made at ingest, as commercial consoles do (issue 23): once a record's frames are all
 * stored (a demo record pre-generated, an import committed) an idle detection (contours-precompute,
 * precompute()) runs, so that a first open finds the MLA ready. It never delays a clinician: it takes
 * its next chunk only after a quiet spell with no detection someone asked for and no page's or opened
 * record's generation on the frame workers, and when someone asks for the record it is working on,
 * it is raised and goes on at full pace instead of starting over.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { buildRecordContours, type RecordContours, type SliceDetection } from '../../domain/contours/api.ts';
import { buildProvisionalContours } from '../../domain/contours/provisional-contours.ts';
import { detectStent } from '../../domain/stent/stent-analysis.ts';
import { stentResults } from '../../domain/stent/stent-results.ts';
import type { RecordContoursWithStent } from '../../domain/stent/stored-stent.ts';
import type { RecordRow } from '../db/records.ts';
import { imagingKey, type ImagingKeyParts, type RecordImaging } from '../imaging/record-imaging.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { createContourWorkerPool, type ContourWorkerPool } from './contour-worker-pool.ts';
import type { CoarseToFineSchedule } from './detection-order.ts';
import { DetectionStopped, detectRecord, readRecordStruts } from './record-detection.ts';
import { stentPending, storeBordersFirst, storedBorders, storedContours, storeWithStent, type StentLaterKeys } from './stent-later.ts';

const gzip = promisify(zlib.gzip);

/**
 * Names the detector's behaviour in the storage key and the ETag: change it whenever detection
 * changes. 2 (issue 23): a frame the detector cannot read is stored without a border; contours
 * stored under 1 carry edge-of-image borders there, so they are detected again rather than served.
 * 3 (issue 23): "no border" is decided by whether the frame could be read (frame-readability.ts),
 * not by a confidence cut that also hid good borders; contours under 2 are detected again.
 * 4 (issue 23): a frame without a temporal neighbour whose blood is nearly black (20 MHz) is read
 * on absolute gray levels and texture (speckle-features.ts isDarkBlood): the lumen no longer takes
 * a moderately dark plaque next to a bright adventitia; contours under 3 are detected again.
 * 5 (issue 23): frames with pixels finer than 0.015 mm (the demo records' 0.01 mm) are sampled
 * 0.015 mm apart along the rays, as every other frame: a third fewer samples, and borders that
 * differ slightly (closer to the truth); contours under 4 are detected again.
 * 6 (issue 23, speed): the border searches run coarse to fine (coarse-to-fine-search.ts), which
 * places a few borders differently; contours under 5 are detected again.
 * 7 (issue 28): the stent is read with the borders and stored with them (`stent`, the wire form of
 * domain/stent/stent-results.ts); contours under 6 have none, so they are detected again and the
 * PACS report and the SR can carry the stent.
 */
export const CONTOUR_ALGORITHM_VERSION = 'lumen-vessel-7';

/** Storage key of a record's contours: `{tenant}/{record}/{imaging version}/contours/{algorithm}.json.gz`. */
export function contoursKey(record: ImagingKeyParts): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.json.gz`);
}

/** Queues the idle detection of a record whose B-mode frames are all stored (see precompute): one job per record's contours. */
export async function schedulePrecompute(jobs: Pick<JobQueue, 'send'>, record: ImagingKeyParts): Promise<void> {
  const data: ContoursJobData = { tenantId: record.tenantId, recordId: record.id, imagingVersion: record.imagingVersion };
  await jobs.send('contours-precompute', data, { key: contoursKey(record), priority: 'idle' });
}

/** `stentPending`: the final contours are stored, their stent is still being read (they carry `stentPending: true`). */
export type ContoursState = { ready: true; gz: Buffer; stentPending: boolean } | { ready: false; done: number; total: number; provisionalFrames: number };

/** What the detecting server writes beside the result while it works, so that any replica can answer a poll. */
type Progress = { done: number; total: number; provisionalFrames?: number; at: string } | { failed: { unavailable: boolean; message: string }; at: string };

/** A progress file older than this belongs to a detection whose server is gone (the queue retries it, or a poll asks again). */
const PROGRESS_STALE_MS = 2 * 60_000;
/**
 * 64 frames a run (about 1 mm of a 0.5 mm/s pullback at 30 frames/s): the first pass of the
 * coarse-to-fine order (detection-order.ts) samples one chunk in four along the whole pullback, and
 * a run's two warm-up frames (rendered alone on a demo record) cost about 3 % of its detection.
 */
const SEGMENT_CHUNKS = 4;
const PROGRESS_WRITE_MS = 500;
/** Provisional contours are written again at most this often, once the first pass is done (and at every pass). */
const PROVISIONAL_WRITE_MS = 2000;
/** Idle detection takes its next chunk only after this long without work someone waits for (as idle generation does). */
const IDLE_QUIET_MS = 1000;
const IDLE_POLL_MS = 200;

export type ContoursJobData = { tenantId: string; recordId: string; imagingVersion: string };

function progressKey(record: RecordRow): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.progress.json`);
}

/** The final contours and the marker present while they wait for their stent (stent-later.ts). */
function stentLaterKeys(record: ImagingKeyParts): StentLaterKeys {
  return { contours: contoursKey(record), stentPending: imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.stent-pending`) };
}

/** The provisional contours (domain/contours/provisional-contours.ts) of a detection under way, gzip JSON. */
function provisionalKey(record: RecordRow): string {
  return imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.provisional.json.gz`);
}

class ContourJobCancelled extends Error {}

/** A detection running here; `idle` (it pauses for others) until someone asks for its record. */
interface DetectionEntry {
  work: Promise<void>;
  idle: boolean;
}

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
  private readonly runChunks: number;
  private readonly log: FastifyBaseLogger;
  private readonly jobs: Pick<JobQueue, 'send'>;
  private readonly running = new Set<Promise<unknown>>();
  /** Detections running here, by contours key. */
  private readonly detections = new Map<string, DetectionEntry>();
  /** Detections someone asked for, running here: idle detection pauses while there are any. */
  private asked = 0;
  private idleQuietMs = IDLE_QUIET_MS;
  private pool: ContourWorkerPool | null = null;
  private closed = false;

  /** `workers` threads detect (made on first use); 0 detects on the main thread. `runChunks`: see SEGMENT_CHUNKS (tests shorten it). */
  constructor(deps: {
    store: BlobStore;
    imaging: RecordImaging;
    workers: number;
    log: FastifyBaseLogger;
    jobs: Pick<JobQueue, 'send'>;
    runChunks?: number;
    /** See IDLE_QUIET_MS (tests shorten it). */
    idleQuietMs?: number;
  }) {
    this.idleQuietMs = deps.idleQuietMs ?? IDLE_QUIET_MS;
    this.store = deps.store;
    this.imaging = deps.imaging;
    this.workers = deps.workers;
    this.runChunks = deps.runChunks ?? SEGMENT_CHUNKS;
    this.log = deps.log;
    this.jobs = deps.jobs;
  }

  /**
   * The stored contours (gzip JSON of RecordContours), or the progress of their detection, which
   * this call queues if nothing is stored or running (a clinician waits: the latest asked first). A failed detection is reported (thrown) once, and the next call tries again.
   */
  async state(record: RecordRow): Promise<ContoursState> {
    const stored = await this.store.get(contoursKey(record));
    if (stored) {
      const pending = await stentPending(this.store, stentLaterKeys(record));
      // The stent is read by the detection job: queued again here in case it stopped with its server
      // (a job running or waiting for its retry is only raised).
      if (pending) await this.askDetection(record);
      return { ready: true, gz: stored, stentPending: pending };
    }
    const progress = await this.readProgress(record);
    if (progress && 'failed' in progress) {
      await this.store.deletePrefix(progressKey(record));
      if (progress.failed.unavailable) throw new ContoursUnavailableError(progress.failed.message);
      throw new Error(progress.failed.message);
    }
    await this.askDetection(record);
    return { ready: false, done: progress?.done ?? 0, total: record.bmodeFrameCount, provisionalFrames: progress?.provisionalFrames ?? 0 };
  }

  /** Queues the record's detection for a clinician who waits: the record asked for last goes first; each poll of a page still open raises it again. */
  private async askDetection(record: RecordRow): Promise<void> {
    const data: ContoursJobData = { tenantId: record.tenantId, recordId: record.id, imagingVersion: record.imagingVersion };
    await this.jobs.send('contours-detect', data, { key: contoursKey(record), priority: { askedAt: new Date() } });
  }

  /**
   * The provisional contours of the record's detection under way (gzip JSON of ProvisionalContours),
   * or null: none published yet, or the final contours are stored (they replace them).
   */
  async provisional(record: RecordRow): Promise<Buffer | null> {
    if (await this.store.get(contoursKey(record))) return null;
    return this.store.get(provisionalKey(record));
  }

  /**
   * The contours-precompute job (schedulePrecompute), queued once pre-generation or an import has
   * stored a record's frames: detect() at idle priority, pausing whenever someone waits for other work.
   */
  precompute(record: RecordRow, lastAttempt: boolean): Promise<void> {
    return this.detect(record, lastAttempt, 'idle');
  }

  /**
   * The contours-detect job: detects and stores the record's contours, writing progress on the way.
   * Run again after a crash it starts over and stores the same result. A record without usable
   * borders, or a failure with no retry left, is written down for the next poll to report. A
   * detection of the record already running here (an idle one) is joined, and raised unless `idle`.
   */
  async detect(record: RecordRow, lastAttempt: boolean, priority: 'asked' | 'idle' = 'asked'): Promise<void> {
    const key = contoursKey(record);
    if (priority === 'asked') this.asked++;
    try {
      const joined = this.detections.get(key);
      if (joined) {
        if (priority === 'asked') joined.idle = false;
        return await joined.work.catch((err: unknown) => {
          // The other detection reports its own failure; this job only fails, to be retried.
          throw new Error(`the detection this one joined failed: ${err instanceof Error ? err.message : String(err)}`);
        });
      }
      // Registered before anything is awaited, so that a request a moment later joins this one.
      const entry: DetectionEntry = { work: Promise.resolve(), idle: priority === 'idle' };
      entry.work = this.detectOnce(record, key, lastAttempt, entry);
      this.detections.set(key, entry);
      await entry.work;
    } finally {
      if (priority === 'asked') this.asked--;
    }
  }

  private async detectOnce(record: RecordRow, key: string, lastAttempt: boolean, entry: DetectionEntry): Promise<void> {
    try {
      const stored = await this.store.get(key);
      if (stored && !(await stentPending(this.store, stentLaterKeys(record)))) return;
      // Final contours stored without their stent: a detection stopped while reading it.
      const work = stored ? this.resumeStent(record, stored, entry) : this.detectAndStore(record, key, entry);
      this.running.add(work);
      try {
        await work;
      } catch (err) {
        // A failed detection's provisional figures must not outlive it.
        await this.store.deletePrefix(provisionalKey(record)).catch(() => undefined);
        // Closing stops the workers under a running job: the job is retried later, here or elsewhere.
        if (err instanceof ContourJobCancelled || err instanceof DetectionStopped || this.closed) throw new ContourJobCancelled('detection stopped with its server');
        if (await stentPending(this.store, stentLaterKeys(record))) {
          // The borders are stored and served: only the stent failed. Retried; after the last try the
          // contours go on without one, as those stored before the server read stents (the review reads it on request).
          this.log.error({ err, recordId: record.id, tenant: record.tenantId, lastAttempt }, 'stent reading failed');
          if (!lastAttempt) throw err;
          await this.storeStent(record, await storedBorders((await this.store.get(key))!), undefined);
          return;
        }
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
    } finally {
      this.detections.delete(key);
    }
  }

  /** Returns when an idle detection may take its next chunk: at once once raised, else after a quiet spell. */
  private async idleTurn(entry: DetectionEntry): Promise<void> {
    while (entry.idle && !(this.asked === 0 && this.imaging.quietForMs() >= this.idleQuietMs)) {
      if (this.closed) throw new ContourJobCancelled();
      await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    }
  }

  /** Stops running detections (at their next chunk; their jobs are retried later) and the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
    await this.pool?.close();
  }

  private async detectAndStore(record: RecordRow, key: string, entry: DetectionEntry): Promise<void> {
    const total = record.bmodeFrameCount;
    const framesPerMm = record.frameRateHz / record.pullbackSpeedMmPerS;
    let lastWrite = 0;
    let provisionalFrames = 0;
    const onProgress = async (done: number) => {
      if (performance.now() - lastWrite < PROGRESS_WRITE_MS && done < total) return;
      lastWrite = performance.now();
      await this.writeProgress(record, { done, total, provisionalFrames, at: new Date().toISOString() });
    };
    // Provisional contours once the whole pullback is sampled (the first pass), then every few seconds and at every pass.
    let published = { at: 0, passes: 0 };
    const publish = async (detections: readonly (SliceDetection | undefined)[], schedule: CoarseToFineSchedule) => {
      const passes = schedule.completedPasses();
      if (passes === 0 || schedule.done() || (passes === published.passes && performance.now() - published.at < PROVISIONAL_WRITE_MS)) return;
      published = { at: performance.now(), passes };
      const body = buildProvisionalContours({ version: record.imagingVersion, framesPerMm, detections });
      await this.store.put(provisionalKey(record), await gzip(JSON.stringify(body), { level: 6 }));
      provisionalFrames = body.detectedFrames;
      lastWrite = 0; // the progress tells the pages at once
    };
    await onProgress(0);
    const started = performance.now();
    let bordersSeconds: number | null = null;
    const timing = { waitingForFramesMs: 0 };
    // The final contours, stored as soon as every border is in (issue 23), before the stent.
    let final: RecordContours | null = null;
    const { detections, stent } = await detectRecord(record, {
      imaging: this.imaging,
      pool: this.workers > 0 ? (this.pool ??= createContourWorkerPool(this.workers)) : null,
      runChunks: this.runChunks,
      turn: () => this.idleTurn(entry),
      // A clinician waits: the frames detection needs are made beside the page's (its first pass's before them), before any background work.
      idle: () => entry.idle,
      stopped: () => this.closed,
      afterChunk: async (sofar, done, schedule) => {
        await publish(sofar, schedule);
        await onProgress(done);
      },
      timing,
      bordersDone: async (all) => {
        final = buildRecordContours({ version: record.imagingVersion, pixelSpacingMm: record.pixelSpacingMm, framesPerMm, detections: all });
        await storeBordersFirst(this.store, stentLaterKeys(record), final);
        await this.store.deletePrefix(progressKey(record));
        await this.store.deletePrefix(provisionalKey(record));
        bordersSeconds = seconds(performance.now() - started);
      },
    });
    final ??= buildRecordContours({ version: record.imagingVersion, pixelSpacingMm: record.pixelSpacingMm, framesPerMm, detections });
    // Issue 28: the stent from every frame's struts, once all are in (its segment and borders read neighbouring frames).
    await this.storeStent(record, final, stentResults(detectStent(stent, framesPerMm)));
    // Where a record's wait went: detection itself, or frames not generated yet (summed over the workers).
    this.log.info(
      { recordId: record.id, frames: total, bordersSeconds, seconds: seconds(performance.now() - started), waitingForFramesSeconds: seconds(timing.waitingForFramesMs) },
      'lumen and vessel contours detected',
    );
  }

  /** The stent of final contours stored without it (their detection stopped with its server): every frame's struts read again. */
  private async resumeStent(record: RecordRow, stored: Buffer, entry: DetectionEntry): Promise<void> {
    const { contours, stent } = await storedContours(stored);
    // Stopped between storing the contours with their stent and removing the marker: only the marker is left to go.
    if (stent !== undefined) return this.storeStent(record, contours, stent);
    const started = performance.now();
    const readings = await readRecordStruts(record, {
      imaging: this.imaging,
      pool: this.workers > 0 ? (this.pool ??= createContourWorkerPool(this.workers)) : null,
      turn: () => this.idleTurn(entry),
      idle: () => entry.idle,
      stopped: () => this.closed,
    });
    const framesPerMm = record.frameRateHz / record.pullbackSpeedMmPerS;
    await this.storeStent(record, contours, stentResults(detectStent(readings, framesPerMm)));
    this.log.info({ recordId: record.id, frames: record.bmodeFrameCount, seconds: seconds(performance.now() - started) }, 'stent of stored contours read again');
  }

  /** The final contours with their stent (undefined: its reading failed for good), and nothing of the detection under way left. */
  private async storeStent(record: RecordRow, contours: RecordContours, stent: RecordContoursWithStent['stent']): Promise<void> {
    await storeWithStent(this.store, stentLaterKeys(record), contours, stent);
    await this.store.deletePrefix(progressKey(record));
    await this.store.deletePrefix(provisionalKey(record));
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
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;


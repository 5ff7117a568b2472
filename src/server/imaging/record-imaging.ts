import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { chunkCount, chunkFrames, FRAMES_PER_CHUNK, type ImageSeriesName } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { FrameWorkerPool } from './frame-worker-pool.ts';
import { makeChunk, renderFrames } from './chunk-rendering.ts';
import { chunkKey, FRAME_PACK_HEADERS, framePackKey, GRAY8_CHUNK_HEADERS, imagingKey, MADE_CHUNK_GZIP, storedChunkOf, type StoredChunk } from './imaging-keys.ts';
import { GenerationQueue, GenerationQueueClosedError, type GenerationPriority, type RunOptions } from './generation-queue.ts';
import { modelOptionsOf } from './record-model.ts';
import { demoPreviewPng } from './demo-preview.ts';
import { firstOpenChunksToMake } from './first-open-chunks.ts';
import { completeMarkerKey, higherPriority, imagingJobData, imagingJobKey, type ChunkGeneration, type Generation, type RecordJob } from './imaging-job.ts';
import { seriesGeometry, wholeStoredChunk } from './stored-chunk-shape.ts';
import { NO_TIMELINE, type ImagingTimeline } from './imaging-timeline.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Missing or damaged stored imaging that cannot be regenerated: a server fault, logged with the record. */
export class MissingImagingError extends Error {
  readonly statusCode = 500;
}

export { pullbackModelOf } from './record-model.ts';
export { imagingJobData, imagingJobKey, type ImagingJobData } from './imaging-job.ts';
export { chunkKey, FRAME_PACK_HEADERS, framePackKey, GRAY8_CHUNK_HEADERS, imagingKey, type ImagingKeyParts, type StoredChunk } from './imaging-keys.ts';

/** HEADs one batch of frame locations sends the store at once while a demo record is being made. */
const HEADS_AT_ONCE = 16;

/** Idle generation waits this long after the last other work (see GenerationQueueOptions). */
const IDLE_QUIET_MS = 1000;

/**
 * A record's images. Demo records are generated on first request (in worker threads when a
 * pool is given) and kept in the store; imported records are read from it. Each frame chunk is
 * stored twice: gzip of its gray (what the server's own readers use, and what records made before
 * frame packs send) and, for records whose chunkFormat is 'frame-pack', the frame pack the page
 * is sent, exactly as it is sent.
 */
export class RecordImaging {
  private readonly store: BlobStore;
  private readonly pool: FrameWorkerPool | null;
  private readonly log: FastifyBaseLogger;
  private readonly queue: GenerationQueue;
  private readonly jobs: Pick<JobQueue, 'send'> | null;
  private readonly inflight = new Map<string, Generation<unknown>>();
  /** The raw frames of demo chunks being made, from their rendering until they are stored (bmodeChunkForDetection). */
  private readonly renderedChunks = new Map<string, Promise<Uint8Array>>();
  private readonly recordJobs = new Map<string, RecordJob>();
  /** Complete markers seen in the store: a version's imaging never changes once complete. */
  private readonly completeImaging = new Set<string>();
  private readonly timeline: ImagingTimeline;
  private closed = false;

  /**
   * With `jobs`, a record's whole-pullback generation is a durable job (imaging-generate, run by
   * generateAll on whichever server takes it); without, it runs here.
   */
  constructor(
    store: BlobStore,
    pool: FrameWorkerPool | null,
    log: FastifyBaseLogger,
    options: { idleQuietMs?: number; jobs?: Pick<JobQueue, 'send'>; timeline?: ImagingTimeline } = {},
  ) {
    this.store = store;
    this.timeline = options.timeline ?? NO_TIMELINE;
    this.pool = pool;
    this.log = log;
    this.jobs = options.jobs ?? null;
    this.queue = new GenerationQueue({ lanes: pool?.size ?? 1, idleQuietMs: options.idleQuietMs ?? IDLE_QUIET_MS });
  }

  /**
   * Chunk `index` of a series: gzip of its frames' raw bytes. A demo chunk not made yet is made at
   * `priority`: the page's requests say urgent or demand; other callers (lumen detection, a
   * record's background generation) are background work.
   */
  async chunk(record: RecordRow, series: ImageSeriesName, index: number, priority: GenerationPriority = 'background'): Promise<Buffer> {
    const frames = chunkFrames(index, seriesGeometry(record, series).count);
    const stored = await this.whole(record, series, index, 'gzip');
    if (stored) return stored;
    if (record.imagingSource !== 'demo') {
      this.log.error({ recordId: record.id, tenant: record.tenantId, series, chunk: index }, 'frame chunk missing from storage');
      throw new MissingImagingError(
        `Frames ${frames.first + 1}-${frames.first + frames.count} of this record are missing or damaged in storage (record ${record.id}).`,
      );
    }
    return this.generated(record, series, index, priority).gzipped;
  }

  /**
   * B-mode chunk `index` for border detection: a demo chunk being made (or made now, at
   * `priority`) as its raw frames the moment they are rendered, so that detection waits neither
   * for its pack encoding nor for gzip and storage, nor gunzips it (issue 23: a first open's
   * provisional MLA); a stored chunk as stored (the contour worker unpacks it).
   */
  async bmodeChunkForDetection(record: RecordRow, index: number, priority: GenerationPriority): Promise<{ gz: Buffer } | { raw: Uint8Array }> {
    const key = chunkKey(record, 'bmode', index);
    this.timeline('detection-asked', { series: 'bmode', chunk: index, priority });
    if (record.imagingSource === 'demo' && !this.inflight.has(key)) {
      const stored = await this.whole(record, 'bmode', index, 'gzip');
      if (stored) return { gz: stored };
      // Its storage is the page's concern (it asks for the chunk itself): the generation logs a failure there.
      this.generated(record, 'bmode', index, priority);
    }
    const rendered = this.renderedChunks.get(key);
    if (!rendered) return { gz: await this.chunk(record, 'bmode', index, priority) };
    this.inflight.get(key)?.raise(priority);
    return { raw: await rendered };
  }

  /**
   * Chunk `index` of a series as a frame pack, for records whose chunkFormat is 'frame-pack': the
   * imported file's frames as it encoded them, or JPEG-LS of the gray (demo records). A demo pack
   * not made yet, or damaged, is made (with its gzip chunk) at `priority`.
   */
  async framePack(record: RecordRow, series: ImageSeriesName, index: number, priority: GenerationPriority = 'background'): Promise<Buffer> {
    const stored = await this.whole(record, series, index, 'pack');
    if (stored) return stored;
    if (record.imagingSource !== 'demo') {
      const frames = chunkFrames(index, seriesGeometry(record, series).count);
      this.log.error({ recordId: record.id, tenant: record.tenantId, series, chunk: index }, 'frame pack missing from storage');
      throw new MissingImagingError(
        `Frames ${frames.first + 1}-${frames.first + frames.count} of this record are missing or damaged in storage (record ${record.id}).`,
      );
    }
    const pack = await this.generated(record, series, index, priority).pack;
    if (!pack) throw new MissingImagingError(`Record ${record.id} sends gzip chunks, not frame packs.`);
    return pack;
  }

  private whole(record: RecordRow, series: ImageSeriesName, index: number, kind: 'gzip' | 'pack'): Promise<Buffer | null> {
    return wholeStoredChunk(this.store, this.log, record, series, index, kind);
  }

  /**
   * A demo chunk (both copies) in the store, made now at `priority` if it is not: what a signed URL
   * may point at and what the complete marker promises. A generation under way is waited for until
   * it is stored, not just made.
   */
  private async madeAndStored(record: RecordRow, series: ImageSeriesName, index: number, priority: GenerationPriority): Promise<void> {
    if (record.imagingSource !== 'demo') return void (await (record.chunkFormat === 'frame-pack' ? this.framePack(record, series, index) : this.chunk(record, series, index)));
    if (!this.inflight.has(chunkKey(record, series, index))) {
      if (await this.whole(record, series, index, record.chunkFormat === 'frame-pack' ? 'pack' : 'gzip')) return;
    }
    await this.generated(record, series, index, priority).promise;
  }

  /**
   * B-mode frames start..end-1 (within one chunk), raw: from the stored chunk when it is there (or
   * being made), else, on a demo record, rendered alone at `priority` and not stored. A detection
   * run that starts mid-record warms up on the two frames before it (record-contours.ts): making
   * their whole chunk first would double a first open's generation before its first borders.
   */
  async bmodeFrames(record: RecordRow, start: number, end: number, priority: GenerationPriority): Promise<Uint8Array> {
    const index = Math.floor(start / FRAMES_PER_CHUNK);
    const chunk = chunkFrames(index, record.bmodeFrameCount);
    if (!(start >= 0 && end > start && end <= chunk.first + chunk.count)) throw new RangeError(`frames ${start}..${end} are not inside one chunk`);
    const frameBytes = record.frameWidth * record.frameHeight;
    const key = chunkKey(record, 'bmode', index);
    this.timeline('detection-asked', { series: 'bmode', chunk: index, priority, frames: end - start });
    const rendered = this.renderedChunks.get(key);
    if (rendered) return (await rendered).subarray((start - chunk.first) * frameBytes, (end - chunk.first) * frameBytes);
    if (record.imagingSource !== 'demo' || this.inflight.has(key) || (await this.store.get(key))) {
      const raw = await gunzip(await this.chunk(record, 'bmode', index, priority));
      return raw.subarray((start - chunk.first) * frameBytes, (end - chunk.first) * frameBytes);
    }
    return this.queue.run(priority, () => renderFrames(this.pool, modelOptionsOf(record), start, end)).result;
  }

  /** Makes and stores a demo chunk (and its pack when the record sends packs): one generation however many ask. */
  private generated(record: RecordRow, series: ImageSeriesName, index: number, priority: GenerationPriority, options: RunOptions = {}): ChunkGeneration {
    const { count, rows, columns } = seriesGeometry(record, series);
    const range = chunkFrames(index, count);
    const encode = record.chunkFormat === 'frame-pack';
    const angio = series === 'angio' ? { frameCount: record.angioFrameCount, sizePx: record.angioWidth } : undefined;
    const key = chunkKey(record, series, index);
    return this.once(key, priority, options, (): ChunkGeneration => {
      const where = { series, chunk: index };
      this.timeline('asked', { ...where, priority });
      let rendered!: (raw: Uint8Array) => void;
      const raw = new Promise<Uint8Array>((resolve) => (rendered = resolve));
      const noteRendered = (frames: Uint8Array) => {
        this.timeline('rendered', where);
        rendered(frames);
      };
      // Rendering and encoding are one task, so the lane is not given to another chunk between them and the page's
      // pack waits no longer than when one worker job did both; the raw frames are handed on in between.
      const making = this.queue.run(priority, async (): Promise<{ frames: Uint8Array; pack: Buffer | null }> => {
        this.timeline('render-start', where);
        const pack = await makeChunk(this.pool, modelOptionsOf(record), { start: range.first, end: range.first + range.count, rows, columns, angio }, encode, noteRendered);
        this.timeline('encoded', where);
        return { frames: await raw, pack };
      }, options);
      // Failed or dropped before its frames were rendered: whoever waits for them is told the same (if anyone does).
      const rawFrames = Promise.race([raw, making.result.then(({ frames }) => frames)]);
      rawFrames.catch(() => undefined);
      this.renderedChunks.set(key, rawFrames);
      const pack = making.result.then((made) => made.pack);
      const gzipped = making.result.then(({ frames }) => gzip(frames, MADE_CHUNK_GZIP));
      // Each is some caller's answer, or nobody's (a first open's chunk the page never asks for).
      pack.catch(() => undefined);
      gzipped.catch(() => undefined);
      const stored = Promise.all([gzipped, pack])
        .then(async ([gz, made]) => {
          try {
            // The gzip chunk first: a stored pack means its chunk is stored too.
            await this.store.put(key, gz, GRAY8_CHUNK_HEADERS);
            if (made) await this.store.put(framePackKey(record, series, index), made, FRAME_PACK_HEADERS);
          } catch (err) {
            // The page has its bytes already; nothing is kept of this generation, so the next request makes it again.
            if (!this.closed) this.log.error({ err, recordId: record.id, tenant: record.tenantId, series, chunk: index }, 'storing a frame chunk failed');
            throw err;
          }
          this.timeline('stored', where);
        })
        .finally(() => this.renderedChunks.delete(key));
      return { promise: stored, gzipped, pack, raise: making.raise };
    });
  }

  /**
   * Chunk `index` of a series, known to be in the store, for a browser to fetch from there: an
   * imported record's chunks are all stored before its row exists; a demo record's are once its
   * complete marker is (remembered here), else this one is looked for without reading it (a HEAD,
   * where the store has one) and made now if missing (as chunk() does).
   */
  async storedChunk(record: RecordRow, series: ImageSeriesName, index: number, priority: GenerationPriority): Promise<StoredChunk> {
    const [stored] = await this.storedChunksIfMade(record, series, index, 1);
    if (stored) return stored;
    await this.madeAndStored(record, series, index, priority);
    return storedChunkOf(record, series, index);
  }

  /**
   * Chunks from..from+count-1 of a series as storedChunk() finds them, null for each one not made
   * yet, without making any: a batch of locations lists those as not ready rather than waiting.
   */
  async storedChunksIfMade(record: RecordRow, series: ImageSeriesName, from: number, count: number): Promise<(StoredChunk | null)[]> {
    const wanted = Array.from({ length: count }, (_, i) => storedChunkOf(record, series, from + i));
    if (record.imagingSource !== 'demo') return wanted;
    const marker = completeMarkerKey(record);
    if (this.completeImaging.has(marker)) return wanted;
    if (await this.store.get(marker)) {
      this.completeImaging.add(marker);
      return wanted;
    }
    // Reading a chunk here (chunk() checks what it reads) would pass every byte through this replica:
    // looked for without reading (a HEAD), a few at a time.
    const found: (StoredChunk | null)[] = [];
    for (let i = 0; i < wanted.length; i += HEADS_AT_ONCE) {
      const group = wanted.slice(i, i + HEADS_AT_ONCE);
      found.push(...(await Promise.all(group.map(async (stored) => (this.store.has && (await this.store.has(stored.key)) ? stored : null)))));
    }
    return found;
  }

  /**
   * Starts making a record's imaging in the background: every B-mode chunk, then the angiography
   * run. Chunks the page asks for meanwhile go first (on the server that answers them).
   */
  prepare(record: RecordRow): void {
    this.makeFirstOpenChunks(record).catch((err: unknown) => this.log.error({ err, recordId: record.id }, 'making the first chunks failed'));
    // The job logs its own failures; only the look at the store (and the queueing) is this one's.
    this.schedule(record, 'background').catch((err: unknown) => this.log.error({ err, recordId: record.id }, 'background imaging failed'));
  }

  /**
   * A demo record's chunks that Play waits for (first-open-chunks.ts), queued at once on every
   * frame worker when they are not stored, rather than one by one as the page gets to ask for
   * them: the page's requests join these generations. Until the last chunk Play waits for is made,
   * no other page or background chunk starts (GenerationQueue, forPlay); the angio run's first
   * chunk, queued after them, is then the first to start.
   */
  private async makeFirstOpenChunks(record: RecordRow): Promise<void> {
    if (record.imagingSource !== 'demo') return;
    const marker = completeMarkerKey(record);
    if (this.completeImaging.has(marker)) return;
    const { complete, chunks } = await firstOpenChunksToMake(record, this.store, marker);
    if (complete) return void this.completeImaging.add(marker);
    chunks.forEach((chunk) => {
      if (this.closed) return;
      this.generated(record, chunk.series, chunk.index, chunk.priority, { forPlay: chunk.forPlay }).pack.catch((err: unknown) => {
        if (!this.closed && !(err instanceof GenerationQueueClosedError)) this.log.error({ err, recordId: record.id, series: chunk.series, chunk: chunk.index }, 'making a frame chunk failed');
      });
    });
  }

  /**
   * Has a demo record's whole imaging made at `priority` unless it is all stored: by a queued job
   * when there is a queue (a job already waiting is raised), else here. Resolves once it is queued.
   */
  async schedule(record: RecordRow, priority: GenerationPriority): Promise<void> {
    if (record.imagingSource !== 'demo') return;
    if (await this.store.get(completeMarkerKey(record))) return;
    if (!this.jobs) return void this.recordJob(record, priority);
    // Running here already (at idle, say): raised at once; elsewhere or waiting: the queue raises it.
    if (this.recordJobs.has(completeMarkerKey(record))) this.recordJob(record, priority);
    await this.jobs.send('imaging-generate', imagingJobData(record, priority), { key: imagingJobKey(record), priority });
  }

  /**
   * Makes all of a demo record's imaging at `priority` (at once when it is all stored already);
   * resolves when it is done. Rejects with GenerationQueueClosedError once close() is called.
   */
  async generateAll(record: RecordRow, priority: GenerationPriority): Promise<void> {
    if (record.imagingSource !== 'demo') return;
    if (await this.store.get(completeMarkerKey(record))) return;
    await this.recordJob(record, priority).done;
  }

  /** How long the frame workers have had no page's or opened record's work (0 while they have some): see GenerationQueue.quietForMs. */
  quietForMs(): number {
    return this.queue.quietForMs();
  }

  /** Stops generating: waiting work is dropped (its callers see GenerationQueueClosedError). */
  close(): void {
    this.closed = true;
    this.queue.close();
  }

  /** A half-size PNG of the middle frame of a series. */
  async preview(record: RecordRow, series: ImageSeriesName): Promise<Buffer> {
    const key = imagingKey(record, `preview-${series}.png`);
    const stored = await this.store.get(key);
    if (stored) return stored;
    if (record.imagingSource !== 'demo') throw new MissingImagingError(`The ${series} preview of record ${record.id} is missing from storage.`);
    return this.once(key, 'demand', {}, () => ({ promise: this.makePreview(record, series, key), raise: () => {} })).promise;
  }

  private async makePreview(record: RecordRow, series: ImageSeriesName, key: string): Promise<Buffer> {
    const png = demoPreviewPng(record, series);
    await this.store.put(key, png);
    return png;
  }

  /** The record's running job, raised to `priority` if that is higher, or a new one. */
  private recordJob(record: RecordRow, priority: GenerationPriority): RecordJob {
    const key = completeMarkerKey(record);
    const running = this.recordJobs.get(key);
    if (running) {
      running.priority = higherPriority(running.priority, priority);
      if (running.currentKey) this.inflight.get(running.currentKey)?.raise(running.priority);
      return running;
    }
    const job: RecordJob = {
      priority,
      currentKey: null,
      done: Promise.resolve().then(async () => {
        const chunkOf = (series: ImageSeriesName, index: number) => {
          job.currentKey = chunkKey(record, series, index);
          return this.madeAndStored(record, series, index, job.priority);
        };
        for (let index = 0; index < chunkCount(record.bmodeFrameCount); index++) await chunkOf('bmode', index);
        for (let index = 0; index < chunkCount(record.angioFrameCount); index++) await chunkOf('angio', index);
        await this.store.put(key, Buffer.from(new Date().toISOString()));
      }),
    };
    this.recordJobs.set(key, job);
    job.done
      .catch((err: unknown) => {
        // Closing stops the workers under a running chunk: that is a cancellation, not a failure.
        if (!this.closed && !(err instanceof GenerationQueueClosedError)) this.log.error({ err, recordId: record.id }, 'imaging generation failed');
      })
      .finally(() => this.recordJobs.delete(key));
    return job;
  }

  /**
   * Concurrent requests for the same missing file share one generation, at the highest priority
   * asked, until its `promise` settles (a failed one is forgotten: the next request makes it again).
   */
  private once<G extends Generation<unknown>>(key: string, priority: GenerationPriority, options: RunOptions, make: () => G): G {
    const pending = this.inflight.get(key) as G | undefined;
    if (pending) {
      pending.raise(priority, options);
      return pending;
    }
    const made = make();
    const generation = { ...made, promise: made.promise.finally(() => this.inflight.delete(key)) };
    // Its callers see a failure; unwatched (a page answered before the store was), it is logged where it happens.
    generation.promise.catch(() => undefined);
    this.inflight.set(key, generation);
    return generation;
  }
}

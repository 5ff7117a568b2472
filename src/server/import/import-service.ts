/**
 * DICOM imports (issue 8). `start` reads the uploaded files' headers (header workers), plans the
 * upload (import-plan.ts) and registers its imports, one per record it makes or fills; each
 * import's frames are then decoded by a durable job (import-decode, import-job.ts) on whichever
 * server takes it (decode workers), stored as the record's gzip chunks and frame packs with its previews, and the
 * patient, record and audit row appear in ONE transaction that also marks the import 'done'
 * (import-commit.ts). A server that stops mid-import leaves its job to be retried, here after a
 * restart or on another replica; a decoding failure, or a failure with no retry left, marks it
 * 'failed' and removes what it stored and its uploaded files. On start-up (and every minute)
 * imports with neither a live server nor a job left are rolled back the same way.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import { importErrorMessage, type ImportBatch, type ImportErrorCode, type ImportSummary } from '../../domain/imports.ts';
import type { Db } from '../db/client.ts';
import {
  type ImportRow,
  claimRollBack,
  createImports,
  findImport,
  findImportById,
  finishRollBack,
  listImports,
  processingImportIds,
  toImportSummary,
  unfinishedImports,
  updateImportProgress,
} from '../db/imports.ts';
import { chunkKey, FRAME_PACK_HEADERS, framePackKey, GRAY8_CHUNK_HEADERS, imagingKey } from '../imaging/record-imaging.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { FrameDecoder } from './decode-pool.ts';
import type { DecodedFrames } from './decode-range.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';
import { lastWritten, previewPng } from './import-files.ts';
import { ImportRejection, rejectFile } from '../../domain/import-rejection.ts';
import { FrameDecodeError } from '../dicom/frame-decode.ts';
import type { HeaderReader } from './header-reader.ts';
import { commitImport, ImportAborted, type RunningPlan } from './import-commit.ts';
import { failureOf } from './import-failure.ts';
import { fetchStagedFiles, importJobData, planOfJob, stageUploadedFiles, type ImportJobData } from './import-job.ts';
import type { JobQueue, JobRun } from '../jobs/job-queue.ts';
import { schedulePrecompute } from '../contours/record-contours.ts';
import { planUpload, type ReadFile } from './import-plan.ts';
import type { ImportForm } from './patient-choice.ts';
import { stagingPrefix, type ImportActor } from './record-plan.ts';
import type { UploadedFile } from './upload.ts';

const gzip = promisify(zlib.gzip);

/** An import whose heartbeat is older than this has lost its process (PostgreSQL: replicas share the table). */
export const IMPORT_STALE_MS = 2 * 60_000;
const HEARTBEAT_MS = 10_000;
const PROGRESS_WRITE_MS = 500;
/** Uploaded files nobody claims (an upload cut off by a crash) are removed after this. */
const ORPHAN_UPLOAD_MS = 30 * 60_000;
const LIST_LIMIT = 50;
/** Imports one server decodes at once (a whole study registers many); the others wait in the queue. */
export const IMPORTS_AT_ONCE = 2;
/** Headers read at once (each is read by a header worker when there are any). */
const HEADERS_AT_ONCE = 4;

type Job = { aborted: boolean };
/** Stopped with its server: the job is retried later (here after a restart, or on another replica). */
class StoppedWithServer extends Error {}

export type ImportServiceOptions = {
  db: Db;
  /** PGlite is one process by construction (a lock on the data directory): every unfinished import at start-up is an orphan. */
  databaseKind: 'pglite' | 'postgres';
  store: BlobStore;
  decoder: FrameDecoder;
  headers: HeaderReader;
  log: FastifyBaseLogger;
  /** Where uploads are streamed to (inside DATA_DIR). */
  tempRoot: string;
  jobs: Pick<JobQueue, 'send' | 'pending'>;
};

export class ImportService {
  readonly tempRoot: string;
  private readonly db: Db;
  private readonly databaseKind: 'pglite' | 'postgres';
  private readonly store: BlobStore;
  private readonly decoder: FrameDecoder;
  private readonly headers: HeaderReader;
  private readonly log: FastifyBaseLogger;
  /** Imports this process is decoding now. */
  private readonly running = new Map<string, Job>();
  private readonly queue: Pick<JobQueue, 'send' | 'pending'>;
  /** Upload directories still being written by this process. */
  private readonly uploading = new Set<string>();
  private closed = false;

  constructor(options: ImportServiceOptions) {
    this.db = options.db;
    this.databaseKind = options.databaseKind;
    this.store = options.store;
    this.decoder = options.decoder;
    this.headers = options.headers;
    this.log = options.log;
    this.tempRoot = options.tempRoot;
    this.queue = options.jobs;
  }

  /**
   * A fresh upload id (also the id of its first import) and the directory its files go to; call
   * `release` when the request is over.
   */
  newUpload(): { uploadId: string; dir: string; release: () => void } {
    const uploadId = randomUUID();
    this.uploading.add(uploadId);
    return { uploadId, dir: path.join(this.tempRoot, uploadId), release: () => this.uploading.delete(uploadId) };
  }

  async list(tenantId: string): Promise<ImportSummary[]> {
    return (await listImports(this.db, tenantId, LIST_LIMIT)).map(toImportSummary);
  }

  async get(tenantId: string, importId: string): Promise<ImportSummary | undefined> {
    const row = await findImport(this.db, tenantId, importId);
    return row ? toImportSummary(row) : undefined;
  }

  /**
   * Reads the uploaded files, plans the upload and registers its imports, then decodes them in the
   * background. Throws an ImportRejection (nothing registered) when the upload is refused; the
   * caller then removes the upload directory.
   */
  async start(actor: ImportActor, upload: { uploadId: string; dir: string }, files: UploadedFile[], form: ImportForm): Promise<ImportBatch> {
    if (this.closed) throw new ImportRejection('interrupted', 'The server is shutting down: send the files again in a moment.');
    const read = await this.readHeaders(files);
    const { plans, skipped } = await planUpload(this.db, actor, { ...upload, tempRoot: this.tempRoot }, read, form);
    const ids = plans.map((p) => p.row.id!).filter((id) => id !== upload.uploadId);
    for (const id of ids) this.uploading.add(id);
    try {
      for (const plan of plans) {
        if (plan.moves.length > 0) await fs.mkdir(plan.row.tempDir, { recursive: true });
        for (const move of plan.moves) await fs.rename(move.from, move.to);
      }
      const created = await createImports(this.db, plans.map(({ row, seriesUids }) => ({ row, seriesUids })));
      if ('conflict' in created) {
        if (created.conflict === 'duplicate_series') {
          const file = plans.flatMap((p) => [p.bmode, p.angio]).find((f) => f?.seriesInstanceUid === created.seriesInstanceUid)!;
          throw rejectFile('duplicate_series', file.fileName, `its series (${file.seriesInstanceUid}) has been imported meanwhile.`);
        }
        throw new ImportRejection('conflicting_files', 'Another import is filling the same record of this study at the moment: wait for it to finish, then send the files again.');
      }
      await this.queueDecoding(created.map((row, k) => ({ ...plans[k]!, row })));
      return { imports: created.map(toImportSummary), skipped };
    } catch (error) {
      // The upload directory is the caller's to remove; the imports' own directories are ours.
      await Promise.all(plans.filter((p) => p.moves.length > 0).map((p) => fs.rm(p.row.tempDir, { recursive: true, force: true })));
      throw error;
    } finally {
      for (const id of ids) this.uploading.delete(id);
    }
  }

  /** With PostgreSQL another replica may decode the files: they are staged in the bucket first. */
  private get stagesUploads(): boolean {
    return this.databaseKind === 'postgres';
  }

  /**
   * Stages each registered import's files (with PostgreSQL) and queues its decoding. Should either
   * fail, the imports are rolled back (their files too) before the error goes on: nothing is left
   * registered that nobody could decode.
   */
  private async queueDecoding(plans: RunningPlan[]): Promise<void> {
    try {
      if (this.stagesUploads) for (const plan of plans) await stageUploadedFiles(this.store, plan);
      for (const plan of plans) await this.queue.send('import-decode', importJobData(plan), { key: plan.row.id, priority: 'demand' });
    } catch (error) {
      for (const plan of plans) {
        await this.rollBack(plan.row.id, 'interrupted', importErrorMessage('interrupted')).catch((err: unknown) => this.log.error({ err, importId: plan.row.id }, 'import roll-back failed'));
      }
      throw error;
    }
  }

  /**
   * The import-decode job. An import no longer 'processing' (committed, or rolled back meanwhile)
   * is left alone: a job that runs twice never imports twice. Throws only to have the job retried.
   */
  async decode(run: JobRun<ImportJobData>): Promise<void> {
    const row = await findImportById(this.db, run.data.importId);
    if (!row || row.status !== 'processing') return;
    if (this.closed) throw new StoppedWithServer('the server is stopping');
    const job: Job = { aborted: false };
    this.running.set(row.id, job);
    try {
      await this.run(planOfJob(run.data, row, this.tempRoot), job, run.lastAttempt);
    } finally {
      this.running.delete(row.id);
    }
  }

  /** Every uploaded file's header, or why it cannot be imported (a few read at once). */
  private async readHeaders(files: UploadedFile[]): Promise<ReadFile[]> {
    const read: ReadFile[] = new Array(files.length);
    let next = 0;
    const reader = async () => {
      while (next < files.length) {
        const index = next++;
        const file = files[index]!;
        try {
          read[index] = await this.headers.read(file.path, file.fileName);
        } catch (error) {
          if (!(error instanceof ImportRejection)) throw error;
          read[index] = error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(HEADERS_AT_ONCE, files.length) }, reader));
    return read;
  }

  /**
   * Rolls back imports nobody will finish: no server decoding them (a stale heartbeat) and no job
   * left to retry them (its retries spent, or lost). Then removes unclaimed uploads. At start-up,
   * then every minute.
   */
  async recover(atStartUp: boolean): Promise<number> {
    // At start-up on PGlite no other process can be decoding; otherwise only a stale heartbeat says so.
    const before = atStartUp && this.databaseKind === 'pglite' ? null : new Date(Date.now() - IMPORT_STALE_MS);
    const orphans: ImportRow[] = [];
    for (const row of await unfinishedImports(this.db, before)) {
      if (this.running.has(row.id)) continue;
      // A roll-back half done is finished; a 'processing' import with a job waiting is not an orphan.
      if (row.status === 'processing' && (await this.queue.pending('import-decode', row.id))) continue;
      orphans.push(row);
    }
    for (const row of orphans) {
      await this.rollBack(row.id, 'interrupted', importErrorMessage('interrupted'));
      this.log.warn({ importId: row.id, tenant: row.tenantId }, 'unfinished import rolled back');
    }
    await this.removeUnclaimedUploads(atStartUp && this.databaseKind === 'pglite');
    return orphans.length;
  }

  /**
   * Stops the running imports at their next chunk. Nothing is rolled back: their jobs are retried,
   * here after a restart or on another replica. (The queue waits for them to end.)
   */
  close(): void {
    this.closed = true;
    for (const job of this.running.values()) job.aborted = true;
  }

  private async removeUnclaimedUploads(all: boolean): Promise<void> {
    let entries: string[];
    try {
      entries = await fs.readdir(this.tempRoot);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const live = await processingImportIds(this.db, entries);
    for (const entry of entries) {
      if (live.has(entry) || this.running.has(entry) || this.uploading.has(entry)) continue;
      const full = path.join(this.tempRoot, entry);
      // An upload still streaming in has no import row yet: leave entries written to lately alone.
      if (!all && Date.now() - (await lastWritten(full)) < ORPHAN_UPLOAD_MS) continue;
      await fs.rm(full, { recursive: true, force: true });
    }
  }

  private async run(plan: RunningPlan, job: Job, lastAttempt: boolean): Promise<void> {
    const importId = plan.row.id;
    let framesDone = 0;
    let lastWrite = 0;
    let stillOurs = true;
    const writeProgress = async (force: boolean) => {
      if (!force && performance.now() - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = performance.now();
      stillOurs = await updateImportProgress(this.db, importId, framesDone);
      if (!stillOurs) job.aborted = true;
    };
    const heartbeat = setInterval(() => {
      writeProgress(true).catch((err: unknown) => this.log.warn({ err, importId }, 'import heartbeat not written'));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      if (job.aborted || this.closed) throw new ImportAborted();
      await fetchStagedFiles(this.store, plan, this.stagesUploads);
      if (plan.bmode) {
        const file = plan.bmode;
        const middle = await this.decodeSeries(plan, file, 'bmode', job, async (count) => {
          framesDone += count;
          await writeProgress(false);
        });
        await this.store.put(imagingKey(plan.target, 'preview-bmode.png'), previewPng(middle, file));
      }
      if (plan.angio) {
        const file = plan.angio;
        const middle = await this.decodeSeries(plan, file, 'angio', job, async (count) => {
          framesDone += count;
          await writeProgress(false);
        });
        await this.store.put(imagingKey(plan.target, 'preview-angio.png'), previewPng(middle, file));
      }
      if (job.aborted) throw new ImportAborted();
      // Decoded: the uploaded files are of no more use, and an import 'done' has left nothing behind.
      await fs.rm(plan.row.tempDir, { recursive: true, force: true });
      await commitImport(this.db, plan, framesDone);
      clearInterval(heartbeat);
      // Kept until the commit, so that a retry after a failed commit can fetch them again.
      if (this.stagesUploads) {
        await this.store.deletePrefix(stagingPrefix(plan.actor.tenantId, importId)).catch((err: unknown) => this.log.warn({ err, importId }, 'staged upload not removed'));
      }
      // The frames are stored: the borders are made now, at idle, rather than when the record is first
      // opened. Not for other ultrasound: it is never analysed (issue 26).
      if (plan.bmode?.ultrasound?.kind === 'ivus') await schedulePrecompute(this.queue, plan.target).catch((err: unknown) => this.log.warn({ err, importId }, 'idle border detection not queued'));
      this.log.info({ importId, tenant: plan.actor.tenantId, recordId: plan.target.id, frames: framesDone }, 'import done');
    } catch (error) {
      clearInterval(heartbeat);
      // Stopped with this server while the import is still ours: its job is retried, nothing is undone.
      if (this.closed && stillOurs && error instanceof ImportAborted) throw new StoppedWithServer(`import ${importId} stopped with its server`);
      const verdict = error instanceof ImportAborted || error instanceof FrameDecodeError || error instanceof ImportRejection;
      if (!verdict) {
        this.log.error({ err: error, importId, lastAttempt }, 'import failed');
        // Not a verdict on the files (a store or database that did not answer): tried again while retries remain.
        if (!lastAttempt) throw error;
      }
      const { code, message } = failureOf(error, stillOurs);
      await this.rollBack(importId, code, message).catch((err: unknown) => this.log.error({ err, importId }, 'import roll-back failed'));
    }
  }

  /** Decodes one series chunk by chunk into the store; returns its middle frame (for the preview). */
  private async decodeSeries(
    plan: RunningPlan,
    file: DicomFile,
    series: 'bmode' | 'angio',
    job: Job,
    onFrames: (count: number) => Promise<void>,
  ): Promise<Uint8Array> {
    const { rows, columns } = file.format;
    const frameBytes = rows * columns;
    const middleIndex = Math.floor(file.frameCount / 2);
    let middle: Uint8Array | null = null;
    const chunks = chunkCount(file.frameCount);
    const window = Math.max(2, this.decoder.parallelism * 2);
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < chunks && !stopped) {
        if (job.aborted || this.closed) throw new ImportAborted();
        const index = next++;
        const { first, count } = chunkFrames(index, file.frameCount);
        let decoded: DecodedFrames;
        try {
          decoded = await this.decoder.decode({ filePath: file.filePath, format: file.format, firstFrame: first, frames: file.frames.slice(first, first + count), gzip: true, pack: true });
        } catch (error) {
          if (error instanceof FrameDecodeError) throw new FrameDecodeError(error.code, `${file.fileName}: ${error.message}`);
          throw error;
        }
        if (job.aborted || this.closed) throw new ImportAborted();
        await this.store.put(chunkKey(plan.target, series, index), decoded.gzipped ?? (await gzip(decoded.pixels, { level: 1 })), GRAY8_CHUNK_HEADERS);
        if (decoded.pack) await this.store.put(framePackKey(plan.target, series, index), decoded.pack, FRAME_PACK_HEADERS);
        // The middle frame (for the preview) is copied out: the chunk's decoded bytes are not kept.
        const offset = middleIndex - first;
        if (offset >= 0 && offset < count) middle = decoded.pixels.slice(offset * frameBytes, (offset + 1) * frameBytes);
        await onFrames(count);
      }
    };
    // A few chunks in flight keep every decode worker busy; the first failure stops the others.
    const guarded = () =>
      worker().catch((error: unknown) => {
        stopped = true;
        throw error;
      });
    const results = await Promise.allSettled(Array.from({ length: Math.min(window, chunks) }, guarded));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return middle ?? new Uint8Array(frameBytes);
  }

  /**
   * Claims the import for roll-back, removes what it stored and its uploaded files, then marks it
   * 'failed' (its series free again). An import already 'failed' by someone else is cleaned again
   * (this process may have stored chunks after that); a 'done' one is left alone.
   */
  private async rollBack(importId: string, code: ImportErrorCode, message: string): Promise<void> {
    const claimed = await claimRollBack(this.db, importId, { code, message });
    const row = claimed ?? (await findImportById(this.db, importId));
    if (!row || row.status === 'done') return;
    for (const prefix of row.storagePrefixes) await this.store.deletePrefix(prefix);
    await fs.rm(row.tempDir, { recursive: true, force: true });
    if (claimed) await finishRollBack(this.db, importId);
  }
}

/**
 * What each durable job does, on whichever server takes it. A job names its record by tenant, id
 * and imaging version: a record gone or re-imported since it was queued leaves nothing to do.
 */
import type { FastifyBaseLogger } from 'fastify';
import { schedulePrecompute, type ContoursJobData, type RecordContourService } from './contours/record-contours.ts';
import type { Db } from './db/client.ts';
import { findRecord, type RecordRow } from './db/records.ts';
import { GenerationQueueClosedError } from './imaging/generation-queue.ts';
import type { ImagingJobData, RecordImaging } from './imaging/record-imaging.ts';
import type { ImportJobData } from './import/import-job.ts';
import { IMPORTS_AT_ONCE, type ImportService } from './import/import-service.ts';
import type { JobQueue } from './jobs/job-queue.ts';

/**
 * Whole-pullback generations running at once: two, so that a record a clinician opens starts while
 * an idle one runs (the frame workers then serve its chunks first: generation-queue.ts).
 */
const GENERATIONS_AT_ONCE = 2;

/** Two, so that a record opened now starts while a long detection runs (they share the worker threads). */
const DETECTIONS_AT_ONCE = 2;

/**
 * Idle detections (borders made at ingest) one at a time, in a queue of their own: they never hold
 * a slot a clinician's detection needs, and pause while one runs (record-contours.ts).
 */
const PRECOMPUTES_AT_ONCE = 1;

type Deps = { db: Db; imaging: RecordImaging; contours: RecordContourService; imports: ImportService; log: FastifyBaseLogger; jobs: Pick<JobQueue, 'send'> };

async function currentRecord(db: Db, data: { tenantId: string; recordId: string; imagingVersion: string }): Promise<RecordRow | null> {
  const record = await findRecord(db, data.tenantId, data.recordId);
  return record && record.imagingVersion === data.imagingVersion ? record : null;
}

export async function registerJobWorkers(jobs: Pick<JobQueue, 'work'>, deps: Deps): Promise<void> {
  await jobs.work<ImportJobData>('import-decode', IMPORTS_AT_ONCE, (run) => deps.imports.decode(run));

  await jobs.work<ContoursJobData>('contours-detect', DETECTIONS_AT_ONCE, async (run) => {
    const record = await currentRecord(deps.db, run.data);
    if (record?.imagingKind === 'ivus') await deps.contours.detect(record, run.lastAttempt);
  });

  await jobs.work<ContoursJobData>('contours-precompute', PRECOMPUTES_AT_ONCE, async (run) => {
    const record = await currentRecord(deps.db, run.data);
    // Other ultrasound is never analysed (issue 26), whoever queued it.
    // Other ultrasound is never analysed (issue 26), whoever queued it.
    if (record?.imagingKind === 'ivus') await deps.contours.precompute(record, run.lastAttempt);
  });

  await jobs.work<ImagingJobData>('imaging-generate', GENERATIONS_AT_ONCE, async (run) => {
    const record = await currentRecord(deps.db, run.data);
    if (!record) return;
    try {
      await deps.imaging.generateAll(record, run.data.priority);
    } catch (error) {
      // Stopped with its server: retried later, here or elsewhere (chunks already stored are kept).
      if (error instanceof GenerationQueueClosedError) throw new Error(`imaging of record ${record.id} stopped with its server`, { cause: error });
      throw error;
    }
    // Its frames are all stored: the borders are made now, at idle, rather than when it is first opened.
    await schedulePrecompute(deps.jobs, record);
  });
}

import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { ImportSummary } from '../../domain/imports.ts';
import type { Db } from './client.ts';
import { importSeries, imports, records } from './schema.ts';

export type ImportRow = typeof imports.$inferSelect;
export type NewImport = typeof imports.$inferInsert;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toImportSummary(row: ImportRow): ImportSummary {
  return {
    importId: row.id,
    // A roll-back shows as 'failed' only once nothing of the import is left.
    status: row.status === 'rolling_back' ? 'processing' : row.status,
    fileNames: row.fileNames,
    framesDone: row.framesDone,
    framesTotal: row.framesTotal,
    error: row.status === 'failed' && row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? row.errorCode } : null,
    warnings: row.warnings,
    patientId: row.patientId,
    recordId: row.recordId,
    source: row.source,
    sourceName: row.sourceName,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

/** Why the imports of an upload could not be registered. */
export type CreateImportConflict = { conflict: 'duplicate_series'; seriesInstanceUid: string } | { conflict: 'record_taken' };

/** The series of this tenant that are already imported (or being imported), of those given. */
export async function importedSeries(db: Db, tenantId: string, seriesUids: string[]): Promise<string[]> {
  if (seriesUids.length === 0) return [];
  const rows = await db
    .select({ uid: importSeries.seriesInstanceUid })
    .from(importSeries)
    .where(and(eq(importSeries.tenantId, tenantId), inArray(importSeries.seriesInstanceUid, seriesUids)));
  return rows.map((r) => r.uid);
}

function uniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * Registers the imports of one upload in 'processing' with their series, all in one transaction.
 * A series imported by someone at the same moment, or a record's pullback or angiography slot
 * taken meanwhile (the unique indexes on bmode_record_id and angio_record_id), is a conflict, not a 500.
 */
export async function createImports(db: Db, entries: { row: NewImport; seriesUids: string[] }[]): Promise<ImportRow[] | CreateImportConflict> {
  try {
    return await db.transaction(async (tx) => {
      const created: ImportRow[] = [];
      for (const { row, seriesUids } of entries) {
        const [inserted] = await tx.insert(imports).values(row).returning();
        const series = await tx
          .insert(importSeries)
          .values(seriesUids.map((seriesInstanceUid) => ({ tenantId: row.tenantId, seriesInstanceUid, importId: inserted!.id })))
          .onConflictDoNothing()
          .returning({ uid: importSeries.seriesInstanceUid });
        if (series.length !== seriesUids.length) throw new SeriesTaken(seriesUids.find((uid) => !series.some((r) => r.uid === uid))!);
        created.push(inserted!);
      }
      return created;
    });
  } catch (error) {
    if (error instanceof SeriesTaken) return { conflict: 'duplicate_series', seriesInstanceUid: error.uid };
    // Series are inserted with "on conflict do nothing": a unique violation is a record slot.
    if (uniqueViolation(error)) return { conflict: 'record_taken' };
    throw error;
  }
}

class SeriesTaken extends Error {
  readonly uid: string;
  constructor(uid: string) {
    super(`series ${uid} is taken`);
    this.uid = uid;
  }
}

export async function findImport(db: Db, tenantId: string, importId: string): Promise<ImportRow | undefined> {
  if (!UUID.test(importId)) return undefined;
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), eq(imports.id, importId)));
  return row;
}

export async function listImports(db: Db, tenantId: string, limit: number): Promise<ImportRow[]> {
  return db.select().from(imports).where(eq(imports.tenantId, tenantId)).orderBy(desc(imports.createdAt), desc(imports.id)).limit(limit);
}

/** Progress of a running import; false when it is no longer 'processing' (rolled back elsewhere). */
export async function updateImportProgress(db: Db, importId: string, framesDone: number): Promise<boolean> {
  const rows = await db
    .update(imports)
    .set({ framesDone, heartbeatAt: new Date() })
    .where(and(eq(imports.id, importId), eq(imports.status, 'processing')))
    .returning({ id: imports.id });
  return rows.length > 0;
}

/** Marks 'processing' as 'done' inside the import's final transaction; false when it was rolled back meanwhile. */
export async function markImportDone(
  tx: Pick<Db, 'update'>,
  importId: string,
  result: { patientId: string; recordId: string; framesDone: number },
): Promise<boolean> {
  const rows = await tx
    .update(imports)
    .set({ status: 'done', patientId: result.patientId, recordId: result.recordId, framesDone: result.framesDone, finishedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(imports.id, importId), eq(imports.status, 'processing')))
    .returning({ id: imports.id });
  return rows.length > 0;
}

/**
 * Claims a failed import for roll-back: 'processing' becomes 'rolling_back' with its error (a
 * roll-back already under way keeps its first error). Returns the row when it is now this
 * caller's to clean up, undefined when the import is 'done' or already 'failed'. Claiming first
 * means an import can never be both committed and cleaned up.
 */
export async function claimRollBack(db: Db, importId: string, error: { code: string; message: string }): Promise<ImportRow | undefined> {
  const [row] = await db
    .update(imports)
    .set({
      status: 'rolling_back',
      errorCode: sql`coalesce(${imports.errorCode}, ${error.code})`,
      errorMessage: sql`coalesce(${imports.errorMessage}, ${error.message})`,
      heartbeatAt: new Date(),
    })
    .where(and(eq(imports.id, importId), inArray(imports.status, ['processing', 'rolling_back'])))
    .returning();
  return row;
}

/** Ends a roll-back once its imaging and files are removed: 'failed', and its series free to be sent again. */
export async function finishRollBack(db: Db, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(imports)
      .set({ status: 'failed', finishedAt: new Date(), angioRecordId: null, bmodeRecordId: null })
      .where(and(eq(imports.id, importId), eq(imports.status, 'rolling_back')));
    await tx.delete(importSeries).where(eq(importSeries.importId, importId));
  });
}

export async function findImportById(db: Db, importId: string): Promise<ImportRow | undefined> {
  const [row] = await db.select().from(imports).where(eq(imports.id, importId));
  return row;
}

/** Imports still processing (or rolling back) whose heartbeat is older than `before` (all of them when null). */
export async function unfinishedImports(db: Db, before: Date | null): Promise<ImportRow[]> {
  const unfinished = inArray(imports.status, ['processing', 'rolling_back']);
  return db
    .select()
    .from(imports)
    .where(before ? and(unfinished, lt(imports.heartbeatAt, before)) : unfinished);
}

/** Ids of the imports still processing (or rolling back), of those given. */
export async function processingImportIds(db: Db, ids: string[]): Promise<Set<string>> {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return new Set();
  const rows = await db
    .select({ id: imports.id })
    .from(imports)
    .where(and(inArray(imports.id, valid), inArray(imports.status, ['processing', 'rolling_back'])));
  return new Set(rows.map((r) => r.id));
}

/** A record a finished import of the study made, with what it still lacks and who is filling it. */
export type StudyRecord = {
  id: string;
  patientId: string;
  imagingVersion: string;
  acquiredAt: Date;
  assumed: string[];
  bmodeFrameCount: number;
  angioFrameCount: number;
  /** A running or finished import brings (or brought) its pullback / angiography run. */
  bmodeTaken: boolean;
  angioTaken: boolean;
};

export type StudyState = {
  records: StudyRecord[];
  /** A running import is making a record of the study from a pullback without an angiography run. */
  pullbackInProgress: boolean;
  /** A running import is making an angiography-only record of the study. */
  runInProgress: boolean;
};

/** The records of these studies and the imports still making records of them, by Study Instance UID. */
export async function studyStates(db: Db, tenantId: string, studyUids: string[]): Promise<Map<string, StudyState>> {
  const states = new Map<string, StudyState>(studyUids.map((uid) => [uid, { records: [], pullbackInProgress: false, runInProgress: false }]));
  if (studyUids.length === 0) return states;
  const rows = await db
    .select({
      study: imports.studyInstanceUid,
      status: imports.status,
      recordId: imports.recordId,
      createsRecord: imports.createsRecord,
      bmodeRecordId: imports.bmodeRecordId,
      angioRecordId: imports.angioRecordId,
    })
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), inArray(imports.studyInstanceUid, studyUids), inArray(imports.status, ['processing', 'done'])));
  const studyOf = new Map<string, string>();
  for (const row of rows) {
    const state = states.get(row.study)!;
    if (row.status === 'done' && row.createsRecord && row.recordId) studyOf.set(row.recordId, row.study);
    if (row.status !== 'processing' || !row.createsRecord) continue;
    // A record made without an angiography run is made from a pullback.
    if (!row.angioRecordId) state.pullbackInProgress = true;
    if (!row.bmodeRecordId && row.angioRecordId) state.runInProgress = true;
  }
  if (studyOf.size === 0) return states;
  // A slot is taken by any import that is not 'failed' (the unique indexes hold the same rule).
  const taken = (column: string) => sql<boolean>`exists (select 1 from ${imports} i where i.${sql.raw(column)} = ${records.id} and i.status <> 'failed')`;
  const found = await db
    .select({
      id: records.id,
      patientId: records.patientId,
      imagingVersion: records.imagingVersion,
      acquiredAt: records.acquiredAt,
      assumed: records.assumed,
      bmodeFrameCount: records.bmodeFrameCount,
      angioFrameCount: records.angioFrameCount,
      bmodeTaken: taken('bmode_record_id'),
      angioTaken: taken('angio_record_id'),
    })
    .from(records)
    .where(and(eq(records.tenantId, tenantId), inArray(records.id, [...studyOf.keys()])))
    .orderBy(desc(records.acquiredAt), desc(records.createdAt));
  for (const record of found) states.get(studyOf.get(record.id)!)!.records.push(record);
  return states;
}

/**
 * A pushed study (DICOM C-STORE) the import refused before registering anything: nobody is there
 * to read a 4xx, so the refusal is kept as a failed import, shown in the recent imports with its reason.
 */
export async function recordRefusedImport(
  db: Db,
  refusal: { tenantId: string; fileNames: string[]; code: string; message: string; source: 'dimse'; sourceName: string },
): Promise<ImportRow> {
  const [row] = await db
    .insert(imports)
    .values({
      tenantId: refusal.tenantId,
      status: 'failed',
      fileNames: refusal.fileNames,
      framesTotal: 0,
      errorCode: refusal.code,
      errorMessage: refusal.message,
      studyInstanceUid: '',
      targetRecordId: randomUUID(),
      createsRecord: false,
      tempDir: '',
      source: refusal.source,
      sourceName: refusal.sourceName,
      finishedAt: new Date(),
    })
    .returning();
  return row!;
}

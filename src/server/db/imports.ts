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
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

/** Why a new import could not be registered. */
export type CreateImportConflict = { conflict: 'duplicate_series'; seriesInstanceUid: string } | { conflict: 'angio_taken' };

/** The series of this tenant that are already imported (or being imported), of those given. */
export async function importedSeries(db: Db, tenantId: string, seriesUids: string[]): Promise<string[]> {
  if (seriesUids.length === 0) return [];
  const rows = await db
    .select({ uid: importSeries.seriesInstanceUid })
    .from(importSeries)
    .where(and(eq(importSeries.tenantId, tenantId), inArray(importSeries.seriesInstanceUid, seriesUids)));
  return rows.map((r) => r.uid);
}

function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/**
 * Registers an import in 'processing' with its series, in one transaction. A series imported by
 * someone at the same moment, or an angiography slot taken meanwhile, is a conflict, not a 500.
 */
export async function createImport(db: Db, row: NewImport, seriesUids: string[]): Promise<ImportRow | CreateImportConflict> {
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx.insert(imports).values(row).returning();
      const inserted = await tx
        .insert(importSeries)
        .values(seriesUids.map((seriesInstanceUid) => ({ tenantId: row.tenantId, seriesInstanceUid, importId: created!.id })))
        .onConflictDoNothing()
        .returning({ uid: importSeries.seriesInstanceUid });
      if (inserted.length !== seriesUids.length) {
        const taken = seriesUids.find((uid) => !inserted.some((r) => r.uid === uid))!;
        throw new SeriesTaken(taken);
      }
      return created!;
    });
  } catch (error) {
    if (error instanceof SeriesTaken) return { conflict: 'duplicate_series', seriesInstanceUid: error.uid };
    const constraint = uniqueViolation(error);
    if (constraint !== null && constraint.includes('angio')) return { conflict: 'angio_taken' };
    if (constraint !== null && row.angioRecordId) return { conflict: 'angio_taken' };
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
      .set({ status: 'failed', finishedAt: new Date(), angioRecordId: null })
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

/**
 * Where an angiography run of a study goes: the newest record a finished import of this study
 * created that has no angiography frames yet and that no running import is adding them to. Also
 * says whether the study has records at all, whether one is only busy (another import is adding
 * its angiography run), and whether an import of the study is still running (its record does not
 * exist yet).
 */
export async function studyRecordForAngio(
  db: Db,
  tenantId: string,
  studyInstanceUid: string,
): Promise<{
  record: { id: string; patientId: string; imagingVersion: string } | null;
  studyHasRecords: boolean;
  angioBeingAdded: boolean;
  studyInProgress: boolean;
}> {
  const rows = await db
    .select({ status: imports.status, recordId: imports.recordId, createsRecord: imports.createsRecord })
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), eq(imports.studyInstanceUid, studyInstanceUid), inArray(imports.status, ['processing', 'done'])));
  const studyInProgress = rows.some((r) => r.status === 'processing' && r.createsRecord);
  const recordIds = rows.filter((r) => r.status === 'done' && r.createsRecord && r.recordId).map((r) => r.recordId!);
  if (recordIds.length === 0) return { record: null, studyHasRecords: false, angioBeingAdded: false, studyInProgress };
  const candidates = await db
    .select({
      id: records.id,
      patientId: records.patientId,
      imagingVersion: records.imagingVersion,
      // An import still adding angiography to a record holds it.
      busy: sql<boolean>`exists (select 1 from ${imports} i where i.angio_record_id = ${records.id} and i.status <> 'failed')`,
    })
    .from(records)
    .where(and(eq(records.tenantId, tenantId), inArray(records.id, recordIds), eq(records.angioFrameCount, 0)))
    .orderBy(desc(records.acquiredAt), desc(records.createdAt));
  const free = candidates.find((c) => !c.busy);
  return {
    record: free ? { id: free.id, patientId: free.patientId, imagingVersion: free.imagingVersion } : null,
    studyHasRecords: true,
    angioBeingAdded: !free && candidates.length > 0,
    studyInProgress,
  };
}

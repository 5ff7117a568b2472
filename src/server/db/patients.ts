import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PatientListQuery, PatientPage, PatientSummary } from '../../domain/patients.ts';
import { ACQUISITION_FACTS, type AcquisitionFact, type RecordSummary } from '../../domain/records.ts';
import type { Db } from './client.ts';
import { previewPath } from './records.ts';
import { patients, records } from './schema.ts';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Per-patient record count and newest acquisition, for one tenant. */
function recordStats(db: Db, tenantId: string) {
  return db
    .select({
      patientId: records.patientId,
      recordCount: sql<number>`count(*)::int`.as('record_count'),
      latestRecordAt: sql<Date | null>`max(${records.acquiredAt})`.as('latest_record_at'),
    })
    .from(records)
    .where(eq(records.tenantId, tenantId))
    .groupBy(records.patientId)
    .as('stats');
}

function summarySelection(stats: ReturnType<typeof recordStats>) {
  return {
    patientId: patients.patientId,
    name: patients.name,
    birthDate: patients.birthDate,
    sex: patients.sex,
    recordCount: sql<number>`coalesce(${stats.recordCount}, 0)::int`,
    latestRecordAt: stats.latestRecordAt,
  };
}

function toSummary(row: {
  patientId: string;
  name: string;
  birthDate: string | null;
  sex: PatientSummary['sex'];
  recordCount: number;
  latestRecordAt: Date | string | null;
}): PatientSummary {
  return {
    patientId: row.patientId,
    name: row.name,
    birthDate: row.birthDate,
    sex: row.sex,
    recordCount: Number(row.recordCount),
    latestRecordDate: row.latestRecordAt ? new Date(row.latestRecordAt).toISOString() : null,
  };
}

export async function listPatients(db: Db, tenantId: string, query: PatientListQuery): Promise<PatientPage> {
  const stats = recordStats(db, tenantId);
  const conditions: SQL[] = [eq(patients.tenantId, tenantId)];
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    conditions.push(sql`(${patients.patientId} ilike ${pattern} or ${patients.name} ilike ${pattern})`);
  }
  const where = and(...conditions);
  const sortColumn = {
    patientId: sql`${patients.patientId}`,
    name: sql`${patients.name}`,
    birthDate: sql`${patients.birthDate}`,
    sex: sql`${patients.sex}`,
    recordCount: sql`coalesce(${stats.recordCount}, 0)`,
    latestRecordDate: sql`${stats.latestRecordAt}`,
  }[query.sort];
  const direction = query.order === 'asc' ? sql`asc nulls last` : sql`desc nulls last`;
  const [rows, [count]] = await Promise.all([
    db
      .select(summarySelection(stats))
      .from(patients)
      .leftJoin(stats, eq(stats.patientId, patients.patientId))
      .where(where)
      .orderBy(sql`${sortColumn} ${direction}`, asc(patients.patientId))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(patients).where(where),
  ]);
  return { items: rows.map(toSummary), total: Number(count?.total ?? 0), page: query.page, pageSize: query.pageSize };
}

export async function findPatient(db: Db, tenantId: string, patientId: string): Promise<PatientSummary | undefined> {
  const stats = recordStats(db, tenantId);
  const [row] = await db
    .select(summarySelection(stats))
    .from(patients)
    .leftJoin(stats, eq(stats.patientId, patients.patientId))
    .where(and(eq(patients.tenantId, tenantId), eq(patients.patientId, patientId)));
  return row ? toSummary(row) : undefined;
}

export async function listPatientRecords(db: Db, tenantId: string, patientId: string): Promise<RecordSummary[]> {
  const rows = await db
    .select()
    .from(records)
    .where(and(eq(records.tenantId, tenantId), eq(records.patientId, patientId)))
    .orderBy(desc(records.acquiredAt));
  return rows.map((r) => ({
    recordId: r.id,
    patientId: r.patientId,
    acquiredAt: r.acquiredAt.toISOString(),
    modality: r.modality,
    bmodeFrameCount: r.bmodeFrameCount,
    angioFrameCount: r.angioFrameCount,
    frameWidth: r.frameWidth,
    frameHeight: r.frameHeight,
    pixelSpacingMm: r.pixelSpacingMm,
    frameRateHz: r.frameRateHz,
    pullbackSpeedMmPerS: r.pullbackSpeedMmPerS,
    assumed: r.assumed.filter((fact): fact is AcquisitionFact => (ACQUISITION_FACTS as readonly string[]).includes(fact)),
    studyInstanceUid: r.pullbackInstance ? r.studyInstanceUid : null,
    angioPreview: r.angioFrameCount > 0 ? previewPath(r, 'angio') : null,
    bmodePreview: r.bmodeFrameCount > 0 ? previewPath(r, 'bmode') : null,
    annotation: r.annotationStatus
      ? {
          status: r.annotationStatus,
          savedBy: r.annotationSavedBy,
          savedAt: r.annotationSavedAt ? r.annotationSavedAt.toISOString() : null,
        }
      : null,
  }));
}

export type PatientIdentityRow = { patientId: string; name: string; birthDate: string | null };

/** Name and birth date of those of the given patients that exist in the tenant, by patient id. */
export async function patientIdentities(db: Pick<Db, 'select'>, tenantId: string, patientIds: string[]): Promise<Map<string, PatientIdentityRow>> {
  if (patientIds.length === 0) return new Map();
  const rows = await db
    .select({ patientId: patients.patientId, name: patients.name, birthDate: patients.birthDate })
    .from(patients)
    .where(and(eq(patients.tenantId, tenantId), inArray(patients.patientId, patientIds)));
  return new Map(rows.map((row) => [row.patientId, row]));
}

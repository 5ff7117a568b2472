import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PatientListQuery, PatientPage, PatientSummary } from '../../domain/patients.ts';
import { searchWords } from '../../domain/search-text.ts';
import { ACQUISITION_FACTS, type AcquisitionFact, type RecordSummary } from '../../domain/records.ts';
import type { Db } from './client.ts';
import { previewPath } from './records.ts';
import { patients, records } from './schema.ts';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const summarySelection = {
  patientId: patients.patientId,
  name: patients.name,
  birthDate: patients.birthDate,
  sex: patients.sex,
  recordCount: patients.recordCount,
  latestRecordAt: patients.latestRecordDate,
};

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

/**
 * The list's order: the column (nulls last), then patient id ascending. Each of these matches one
 * index of `patients` exactly (schema.ts), so a page is read from the index and stops at LIMIT;
 * the record count and newest record are kept on the patient row by triggers (migration 0007).
 */
function listOrder(query: PatientListQuery): SQL[] {
  // Unique and never null: its own order, which the primary key gives in either direction.
  if (query.sort === 'patientId') return [query.order === 'asc' ? asc(patients.patientId) : desc(patients.patientId)];
  const column = {
    name: patients.name,
    birthDate: patients.birthDate,
    sex: patients.sex,
    recordCount: patients.recordCount,
    latestRecordDate: patients.latestRecordDate,
  }[query.sort];
  const direction = query.order === 'asc' ? sql`asc nulls last` : sql`desc nulls last`;
  return [sql`${column} ${direction}`, asc(patients.patientId)];
}

/**
 * The patients the list shows: the tenant's, where every word of the search (searchWords: accents
 * stripped, any order) occurs in the patient ID or the folded name, in `table` (patients or an alias).
 * Both sides pass through the database's one lower(), so they agree whatever its character type.
 */
function listFilter(table: Record<'tenantId' | 'patientIdLower' | 'nameSearch', AnyPgColumn>, tenantId: string, search: string): SQL {
  const conditions: SQL[] = [eq(table.tenantId, tenantId)];
  for (const word of searchWords(search)) {
    const pattern = `%${escapeLike(word)}%`;
    conditions.push(sql`(${table.patientIdLower} like lower(${pattern}) or ${table.nameSearch} like lower(${pattern}))`);
  }
  return and(...conditions)!;
}

export async function listPatients(db: Db, tenantId: string, query: PatientListQuery): Promise<PatientPage> {
  const order = listOrder(query);
  const offset = (query.page - 1) * query.pageSize;
  // The page's keys first, then its rows: skipping `offset` entries reads only the sort's index
  // (an index-only scan where the table is vacuumed), not `offset` table rows.
  const keys = db
    .select({ tenantId: patients.tenantId, patientId: patients.patientId })
    .from(patients)
    .where(listFilter(patients, tenantId, query.search))
    .orderBy(...order)
    .limit(query.pageSize)
    .offset(offset)
    .as('page_keys');
  // The total in the same statement (computed once, as an init plan): one round trip, not two.
  // Without a search it is an index-only scan of patients_tenant_idx.
  const counted = alias(patients, 'counted');
  const total = sql<number>`(select count(*)::int from ${patients} as ${sql.identifier('counted')} where ${listFilter(counted, tenantId, query.search)})`;
  const rows = await db
    .select({ ...summarySelection, total })
    .from(keys)
    .innerJoin(patients, and(eq(patients.tenantId, keys.tenantId), eq(patients.patientId, keys.patientId)))
    .orderBy(...order);
  // Past the last page there is no row to carry the total.
  const count =
    rows.length > 0 ? rows[0]!.total : (await db.select({ total: sql<number>`count(*)::int` }).from(patients).where(listFilter(patients, tenantId, query.search)))[0]!.total;
  return { items: rows.map(toSummary), total: Number(count), page: query.page, pageSize: query.pageSize };
}

export async function findPatient(db: Db, tenantId: string, patientId: string): Promise<PatientSummary | undefined> {
  const [row] = await db
    .select(summarySelection)
    .from(patients)
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
    seriesDescription: r.seriesDescription,
    imagingKind: r.imagingKind,
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

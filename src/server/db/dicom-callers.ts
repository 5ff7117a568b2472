/**
 * The calling AE titles each tenant's DICOM receiver accepts (schema: dicomCallers). Every lookup is
 * within one tenant: another tenant's id or AE title names nothing.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { DicomCaller, DicomCallerFields } from '../../domain/dicom-callers.ts';
import type { Db } from './client.ts';
import { dicomCallers } from './schema.ts';

export type DicomCallerRow = typeof dicomCallers.$inferSelect;

/** Thrown when the AE title is registered in the tenant already. */
export class DuplicateAeTitleError extends Error {}

export function toDicomCaller(row: DicomCallerRow): DicomCaller {
  return {
    id: row.id,
    aeTitle: row.aeTitle,
    description: row.description,
    networks: row.networks,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listDicomCallers(db: Db, tenantId: string): Promise<DicomCallerRow[]> {
  return db.select().from(dicomCallers).where(eq(dicomCallers.tenantId, tenantId)).orderBy(asc(dicomCallers.aeTitle));
}

/** The registration of a calling AE title in a tenant, if any (what the receiver asks at association). */
export async function findDicomCallerByAeTitle(db: Db, tenantId: string, aeTitle: string): Promise<DicomCallerRow | undefined> {
  const [row] = await db
    .select()
    .from(dicomCallers)
    .where(and(eq(dicomCallers.tenantId, tenantId), eq(dicomCallers.aeTitle, aeTitle)));
  return row;
}

/** Any other text names no caller (and would make PostgreSQL refuse the query). */
const isCallerId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function findDicomCaller(db: Db, tenantId: string, id: string): Promise<DicomCallerRow | undefined> {
  if (!isCallerId(id)) return undefined;
  const [row] = await db
    .select()
    .from(dicomCallers)
    .where(and(eq(dicomCallers.tenantId, tenantId), eq(dicomCallers.id, id)));
  return row;
}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505');

export async function insertDicomCaller(db: Db, tenantId: string, fields: DicomCallerFields): Promise<DicomCallerRow> {
  try {
    const [row] = await db.insert(dicomCallers).values({ tenantId, ...fields }).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateAeTitleError(fields.aeTitle);
    throw error;
  }
}

export async function updateDicomCaller(db: Db, tenantId: string, id: string, fields: DicomCallerFields): Promise<DicomCallerRow | undefined> {
  if (!isCallerId(id)) return undefined;
  try {
    const [row] = await db
      .update(dicomCallers)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(dicomCallers.tenantId, tenantId), eq(dicomCallers.id, id)))
      .returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateAeTitleError(fields.aeTitle);
    throw error;
  }
}

export async function deleteDicomCaller(db: Db, tenantId: string, id: string): Promise<DicomCallerRow | undefined> {
  if (!isCallerId(id)) return undefined;
  const [row] = await db
    .delete(dicomCallers)
    .where(and(eq(dicomCallers.tenantId, tenantId), eq(dicomCallers.id, id)))
    .returning();
  return row;
}

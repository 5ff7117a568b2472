import { and, eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { records } from './schema.ts';

export type RecordRow = typeof records.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isRecordId(value: string): boolean {
  return UUID.test(value);
}

/** A record of the tenant; another tenant's record is simply not found. */
export async function findRecord(db: Db, tenantId: string, recordId: string): Promise<RecordRow | undefined> {
  if (!isRecordId(recordId)) return undefined;
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.tenantId, tenantId), eq(records.id, recordId)));
  return row;
}

/** The API path (relative to /api/{tenant}/) of a record's preview image. */
export function previewPath(record: Pick<RecordRow, 'id' | 'imagingVersion'>, series: 'bmode' | 'angio'): string {
  return `records/${record.id}/previews/${series}?v=${encodeURIComponent(record.imagingVersion)}`;
}

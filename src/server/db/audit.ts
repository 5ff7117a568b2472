import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from './client.ts';
import { auditLog, type AuditAction } from './schema.ts';

export type AuditEntry = {
  tenantId: string;
  action: AuditAction;
  actorId?: string | null;
  actorEmail?: string | null;
  targetType?: 'user' | 'record' | 'patient' | 'session' | 'pacs-connection' | 'dicom-caller' | null;
  targetId?: string | null;
  details?: Record<string, unknown> | null;
};

export type AuditRow = typeof auditLog.$inferSelect;

/**
 * Appends one row to the tenant's audit trail. Pass a transaction as `db` when the audited change
 * and its audit row must land together (or not at all).
 */
export async function appendAudit(db: Pick<Db, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    tenantId: entry.tenantId,
    action: entry.action,
    actorId: entry.actorId ?? null,
    actorEmail: entry.actorEmail ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
  });
}

/** Newest first; `before` is the id of the last row of the previous page (keyset paging). */
export async function listAudit(
  db: Db,
  tenantId: string,
  { limit, before }: { limit: number; before?: number },
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(before === undefined ? eq(auditLog.tenantId, tenantId) : and(eq(auditLog.tenantId, tenantId), lt(auditLog.id, before)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

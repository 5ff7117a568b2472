import type { FastifyInstance } from 'fastify';
import { AuditQuerySchema, type AuditEntry, type AuditPage } from '../../domain/users.ts';
import { listAudit, type AuditRow } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { requireAdmin } from './require-admin.ts';
import { parseOrThrow } from './validation.ts';

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details && typeof row.details === 'object' && !Array.isArray(row.details) ? (row.details as Record<string, unknown>) : null,
  };
}

/** The tenant's audit trail for administrators, newest first, in keyset pages. */
export async function auditRoutes(app: FastifyInstance, deps: { db: Db }): Promise<void> {
  app.addHook('preHandler', requireAdmin);

  app.get('/api/:tenant/audit', async (request): Promise<AuditPage> => {
    const { before, limit } = parseOrThrow(AuditQuerySchema, request.query);
    // One row more than asked says whether an older page exists.
    const rows = await listAudit(deps.db, request.principal!.tenantId, { before, limit: limit + 1 });
    const items = rows.slice(0, limit).map(toEntry);
    return { items, nextBefore: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
  });
}

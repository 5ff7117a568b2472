/** The append-only audit trail's table and the actions it records. */
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-out',
  'sign-in-failed',
  'sign-in-throttled',
  'sign-in-lock-cleared',
  'user-created',
  'user-updated',
  'role-changed',
  'account-disabled',
  'account-enabled',
  'password-reset',
  'record-viewed',
  'annotations-saved',
  'record-imported',
  'pacs-connection-added',
  'pacs-connection-changed',
  'pacs-connection-removed',
  'record-sent-to-pacs',
  'dicom-caller-added',
  'dicom-caller-changed',
  'dicom-caller-removed',
  /** One DICOM association at the receiver, accepted or rejected (details: who called, from where, the outcome, the instances). */
  'dicom-association',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Append-only audit trail: rows are inserted, never updated or deleted by the application. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    /** Who acted: a user id, or null for an anonymous attempt (a failed sign-in). */
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    targetType: text('target_type', { enum: ['user', 'record', 'patient', 'session', 'pacs-connection', 'dicom-caller'] }),
    targetId: text('target_id'),
    details: jsonb('details'),
  },
  (t) => [index('audit_log_tenant_at_idx').on(t.tenantId, t.id)],
);

import { LOCALE } from '../../../domain/constants.ts';
import type { AuditEntry } from '../../../domain/users.ts';

const DATE_TIME = new Intl.DateTimeFormat(LOCALE, {
  month: '2-digit',
  day: '2-digit',
  year: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** mm/dd/yy, hh:mm AM (spec locale en-US); '' for an unreadable value. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : DATE_TIME.format(date);
}

const ACTION_LABELS: Record<string, string> = {
  'sign-in': 'Signed in',
  'sign-out': 'Signed out',
  'sign-in-failed': 'Sign-in failed',
  'sign-in-throttled': 'Sign-in locked',
  'sign-in-lock-cleared': 'Sign-in lock cleared',
  'user-created': 'User created',
  'user-updated': 'User updated',
  'role-changed': 'Role changed',
  'account-disabled': 'Account disabled',
  'account-enabled': 'Account enabled',
  'password-reset': 'Password reset',
  'record-viewed': 'Record viewed',
  'annotations-saved': 'Annotations saved',
  'record-imported': 'Record imported',
  'pacs-connection-added': 'PACS connection added',
  'pacs-connection-changed': 'PACS connection changed',
  'pacs-connection-removed': 'PACS connection removed',
  'record-sent-to-pacs': 'Report sent to PACS',
  'dicom-caller-added': 'DICOM sender registered',
  'dicom-caller-changed': 'DICOM sender changed',
  'dicom-caller-removed': 'DICOM sender removed',
  'dicom-association': 'DICOM association',
};

/** A readable name for an audit action; an action added later shows as it is stored. */
export function auditActionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** What the entry was about: the account's email when the entry names one, else the id. */
export function auditTarget(entry: AuditEntry): string {
  if (entry.targetType === 'session') return '';
  const connection = entry.targetType === 'pacs-connection' ? text(entry.details?.name) : null;
  if (connection) return `PACS ${connection}`;
  const sender = entry.targetType === 'dicom-caller' ? text(entry.details?.aeTitle) : null;
  if (sender) return `DICOM sender ${sender}`;
  // Who called which of the receiver's AE titles.
  if (entry.action === 'dicom-association') return `${text(entry.details?.callingAeTitle) ?? '?'} → ${text(entry.details?.calledAeTitle) ?? '?'}`;
  const email = text(entry.details?.email);
  if (email) return email;
  if (!entry.targetId) return '';
  return entry.targetType ? `${entry.targetType} ${entry.targetId}` : entry.targetId;
}

/** The entry's particulars in a few words. */
export function auditDetails(entry: AuditEntry): string {
  const details = entry.details ?? {};
  switch (entry.action) {
    case 'role-changed':
      return `${text(details.group) ?? 'Admins'} ${details.change === 'revoked' ? 'revoked' : 'granted'}`;
    case 'sign-in-failed':
      return text(details.reason) ?? '';
    case 'sign-in-throttled':
      return `after repeated failures from ${text(details.address) ?? 'an unknown address'}; retry in ${typeof details.retryAfterSeconds === 'number' ? details.retryAfterSeconds : '?'} s`;
    case 'password-reset':
      return text(details.method) ?? '';
    case 'dicom-association': {
      const instances = typeof details.instances === 'number' ? details.instances : 0;
      const reason = text(details.reason);
      return `${text(details.outcome) ?? '?'} from ${text(details.remoteAddress) ?? 'an unknown address'}${reason ? ` (${reason})` : ''}, ${instances} ${instances === 1 ? 'instance' : 'instances'}`;
    }
    case 'user-created':
      return text(details.initialPassword) ? `Initial password ${text(details.initialPassword)}` : '';
    default:
      return Object.entries(details)
        .filter(([key, value]) => key !== 'email' && (typeof value === 'string' || typeof value === 'number'))
        .map(([key, value]) => `${key}: ${String(value)}`)
        .join(', ');
  }
}

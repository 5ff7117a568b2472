import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '../../../../src/domain/users.ts';
import { UsersPage } from '../../../../src/web/features/users/users-page.tsx';
import { renderApp } from '../../render.tsx';
import { usersServer } from '../users-fixture.ts';

/** Newest first, as the server answers: ids 60 down to 1. */
const ENTRIES: AuditEntry[] = Array.from({ length: 60 }, (_, i) => {
  const id = 60 - i;
  return {
    id,
    at: new Date(Date.UTC(2026, 2, 5, 12, 0) - i * 60_000).toISOString(),
    action: id === 60 ? 'role-changed' : id === 59 ? 'sign-in-failed' : 'sign-in',
    actorId: id === 59 ? null : 'u1',
    actorEmail: id === 59 ? 'Someone@Demo.test' : 'admin@demo.test',
    targetType: id === 60 ? 'user' : 'session',
    targetId: id === 60 ? 'u2' : null,
    details:
      id === 60
        ? { email: 'clinician@demo.test', group: 'Admins', change: 'granted' }
        : id === 59
          ? { reason: 'wrong password' }
          : null,
  };
});

const auditRows = () => screen.queryAllByTestId('audit-row');
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

async function openAuditTab(audit = ENTRIES) {
  const user = userEvent.setup();
  const server = usersServer({ audit });
  renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
  await user.click(screen.getByRole('tab', { name: 'Audit trail' }));
  return { user, server };
}

describe('audit trail tab', () => {
  it('lists entries newest first with time, action, actor, target and details', async () => {
    await openAuditTab();
    await waitFor(() => expect(auditRows()).toHaveLength(50));
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Time', 'Action', 'Actor', 'Target', 'Details']);
    const [granted, failed, signedIn] = auditRows().map(cells);
    expect(granted!.slice(1)).toEqual(['Role changed', 'admin@demo.test', 'clinician@demo.test', 'Admins granted']);
    expect(granted![0]).toMatch(/^03\/05\/26, \d\d:\d\d [AP]M$/);
    expect(failed!.slice(1)).toEqual(['Sign-in failed', 'Someone@Demo.test', '', 'wrong password']);
    expect(signedIn!.slice(1)).toEqual(['Signed in', 'admin@demo.test', '', '']);
  });

  it('pages to older entries with the server’s cursor and back to newer ones', async () => {
    const { user, server } = await openAuditTab();
    await waitFor(() => expect(auditRows()).toHaveLength(50));
    const newer = screen.getByRole('button', { name: 'Newer' }) as HTMLButtonElement;
    expect(newer.disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(auditRows()).toHaveLength(10));
    expect(screen.getByTestId('audit-page').textContent).toBe('Page 2');
    expect((screen.getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
    expect(server.requests().filter((r) => r.call.includes('/audit')).map((r) => r.call)).toEqual([
      'GET /api/demo/audit?limit=50',
      'GET /api/demo/audit?before=11&limit=50',
    ]);

    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(auditRows()).toHaveLength(50));
    expect(cells(auditRows()[0]!)[1]).toBe('Role changed');
    expect(screen.getByTestId('audit-page').textContent).toBe('Page 1');
  });

  it('shows who called the DICOM receiver, from where, and what became of it', async () => {
    const at = '2026-03-05T12:00:00.000Z';
    const dicom = (id: number, details: Record<string, unknown>): AuditEntry => ({ id, at, action: 'dicom-association', actorId: null, actorEmail: null, targetType: null, targetId: null, details });
    await openAuditTab([
      dicom(2, { callingAeTitle: 'STRANGER', calledAeTitle: 'IVUSREVIEW', remoteAddress: '10.9.9.9', outcome: 'rejected', reason: 'calling AE title not registered', instances: 0 }),
      dicom(1, { callingAeTitle: 'CATHLAB1', calledAeTitle: 'IVUSREVIEW', remoteAddress: '10.1.2.3', outcome: 'released', reason: '', instances: 1 }),
    ]);
    await waitFor(() => expect(auditRows()).toHaveLength(2));
    const [rejected, released] = auditRows().map(cells);
    expect(rejected!.slice(1)).toEqual(['DICOM association', '—', 'STRANGER → IVUSREVIEW', 'rejected from 10.9.9.9 (calling AE title not registered), 0 instances']);
    expect(released!.slice(1)).toEqual(['DICOM association', '—', 'CATHLAB1 → IVUSREVIEW', 'released from 10.1.2.3, 1 instance']);
  });

  it('says when the trail is empty', async () => {
    await openAuditTab([]);
    expect(await screen.findByText('No entries yet')).toBeTruthy();
  });

  it('shows a failure with Retry', async () => {
    const user = userEvent.setup();
    const server = usersServer({ audit: ENTRIES });
    let failures = 1;
    server.override((url) =>
      url.pathname.endsWith('/audit') && failures-- > 0
        ? Response.json({ error: 'forbidden', message: 'Only administrators can manage users and read the audit trail.' }, { status: 403 })
        : undefined,
    );
    renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
    await user.click(screen.getByRole('tab', { name: 'Audit trail' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Only administrators can manage users and read the audit trail.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(auditRows()).toHaveLength(50));
  });
});

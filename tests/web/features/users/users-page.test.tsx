import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UsersPage } from '../../../../src/web/features/users/users-page.tsx';
import { renderApp } from '../../render.tsx';
import { ADMIN, CLINICIAN, usersServer } from '../users-fixture.ts';

const rows = () => screen.queryAllByTestId('user-row');
const rowOf = (email: string) => rows().find((row) => within(row).queryByText(email)) as HTMLElement;
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

function renderUsers(server = usersServer()) {
  renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
  return server;
}

async function chooseAction(user: ReturnType<typeof userEvent.setup>, email: string, action: string) {
  await user.click(within(rowOf(email)).getByRole('button', { name: action }));
}

describe('users screen', () => {
  it('tells a non-administrator they are not permitted, without asking the server', () => {
    const server = usersServer();
    renderApp(<UsersPage isAdmin={false} />, { api: server.client, path: '/users' });
    expect(screen.getByRole('alert').textContent).toContain('Not permitted');
    expect(screen.queryByRole('table')).toBeNull();
    expect(server.requests()).toEqual([]);
  });

  it("lists the tenant's users with email, name, groups, status and last sign-in", async () => {
    renderUsers();
    expect(screen.getAllByTestId('user-skeleton-row').length).toBeGreaterThan(0);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Email',
      'Name',
      'Groups',
      'Status',
      'Last sign-in',
      'Actions',
    ]);
    const [admin, clinician] = rows().map(cells);
    expect(admin!.slice(0, 4)).toEqual(['admin@demo.test (you)', 'Dr. Alex Admin', 'Admins', 'Enabled']);
    expect(admin![4]).toMatch(/^03\/05\/26, \d\d:\d\d [AP]M$/);
    expect(clinician!.slice(0, 5)).toEqual(['clinician@demo.test', 'Dr. Casey Clinician', '—', 'Enabled', 'Never']);
    expect(screen.getByTestId('users-total').textContent).toBe('2 users');
  });

  it('searches by email or name once typing pauses, and says when nothing matches', async () => {
    const user = userEvent.setup();
    const server = renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'casey');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]!.textContent).toContain('clinician@demo.test');
    expect(server.requests().map((r) => r.call)).toEqual([
      'GET /api/demo/users?offset=0&limit=25',
      'GET /api/demo/users?search=casey&offset=0&limit=25',
    ]);

    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zzz');
    expect(await screen.findByText('No users match “zzz”')).toBeTruthy();
  });

  it('shows a failure with Retry, which loads the list', async () => {
    const user = userEvent.setup();
    const server = usersServer();
    let failures = 1;
    server.override(() => (failures-- > 0 ? Response.json({ error: 'internal_error', message: 'The database is not reachable.' }, { status: 503 }) : undefined));
    renderUsers(server);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The users could not be loaded');
    expect(alert.textContent).toContain('The database is not reachable.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('makes a user an administrator at once, with a toast, and shows the new group', async () => {
    const user = userEvent.setup();
    const server = renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await chooseAction(user, 'clinician@demo.test', 'Make admin');
    expect(await screen.findByText('clinician@demo.test is now an administrator.')).toBeTruthy();
    expect(server.requests().find((r) => r.call.startsWith('PATCH'))).toEqual({
      call: 'PATCH /api/demo/users/22222222-2222-4222-8222-222222222222',
      body: { admin: true },
    });
    await waitFor(() => expect(cells(rowOf('clinician@demo.test'))[2]).toBe('Admins'));
  });

  it('asks before disabling an account and changes nothing when the question is declined', async () => {
    const user = userEvent.setup();
    const server = renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(2));

    await chooseAction(user, 'clinician@demo.test', 'Disable');
    const question = await screen.findByRole('alertdialog', { name: 'Disable this account?' });
    expect(question.textContent).toContain('clinician@demo.test will not be able to sign in');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.requests().some((r) => r.call.startsWith('PATCH'))).toBe(false);

    await chooseAction(user, 'clinician@demo.test', 'Disable');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disable account' }));
    expect(await screen.findByText('clinician@demo.test is disabled.')).toBeTruthy();
    expect(server.requests().filter((r) => r.call.startsWith('PATCH')).map((r) => r.body)).toEqual([{ disabled: true }]);
    await waitFor(() => expect(cells(rowOf('clinician@demo.test'))[3]).toBe('Disabled'));

    await chooseAction(user, 'clinician@demo.test', 'Enable');
    expect(await screen.findByText('clinician@demo.test can sign in again.')).toBeTruthy();
    await waitFor(() => expect(cells(rowOf('clinician@demo.test'))[3]).toBe('Enabled'));
  });

  it("asks before revoking administrator rights and shows the server's refusal in a toast", async () => {
    const user = userEvent.setup();
    const server = renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(2));
    server.override((_url, init) =>
      init?.method === 'PATCH'
        ? Response.json(
            { error: 'conflict', message: 'The organisation needs at least one enabled administrator: make someone else an administrator first.' },
            { status: 409 },
          )
        : undefined,
    );
    await chooseAction(user, 'admin@demo.test', 'Remove admin');
    const question = await screen.findByRole('alertdialog', { name: 'Remove administrator rights?' });
    await user.click(within(question).getByRole('button', { name: 'Remove rights' }));
    const toast = await screen.findByText(/needs at least one enabled administrator/);
    expect(toast.closest('[data-testid="toast"]')?.textContent).toContain('Not changed');
    expect(cells(rowOf('admin@demo.test'))[2]).toBe('Admins');
  });

  it('does not offer disabling your own account', async () => {
    const user = userEvent.setup();
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const disable = within(rowOf('admin@demo.test')).getByRole('button', { name: 'Disable' }) as HTMLButtonElement;
    expect(disable.disabled).toBe(true);
    expect(disable.title).toBe('You cannot disable your own account');
    await user.click(disable);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows a locked account and clears its lock in one click, with a toast', async () => {
    const user = userEvent.setup();
    const locked = { ...CLINICIAN, signInLock: { until: '2026-03-05T11:00:00Z', accountWide: true, clients: 1 } };
    const server = renderUsers(usersServer({ users: [ADMIN, locked] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    const badge = within(rowOf('clinician@demo.test')).getByTestId('user-lock');
    expect(badge.textContent).toBe('Locked');
    expect(badge.getAttribute('aria-label')).toMatch(/^Sign-in locked for new browsers and 1 address or browser until 03\/05\/26/);
    expect(within(rowOf('admin@demo.test')).queryByRole('button', { name: 'Clear lock' })).toBeNull();

    await chooseAction(user, 'clinician@demo.test', 'Clear lock');
    expect(await screen.findByText('clinician@demo.test can sign in again from anywhere.')).toBeTruthy();
    expect(server.requests().find((r) => r.call.startsWith('DELETE'))).toMatchObject({
      call: 'DELETE /api/demo/users/22222222-2222-4222-8222-222222222222/sign-in-lock',
    });
    await waitFor(() => expect(within(rowOf('clinician@demo.test')).queryByTestId('user-lock')).toBeNull());
  });
});

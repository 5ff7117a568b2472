import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UsersPage } from '../../../../src/web/features/users/users-page.tsx';
import { renderApp } from '../../render.tsx';
import { usersServer } from '../users-fixture.ts';

const rows = () => screen.queryAllByTestId('user-row');

async function openCreateDialog() {
  const user = userEvent.setup();
  const server = usersServer();
  renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
  await waitFor(() => expect(rows()).toHaveLength(2));
  await user.click(screen.getByRole('button', { name: 'Create user' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create user' });
  return { user, server, dialog };
}

const posts = (server: ReturnType<typeof usersServer>) => server.requests().filter((r) => r.call.startsWith('POST'));

describe('create user', () => {
  it('creates an account with a one-time link, shown once with a copy button', async () => {
    const { user, server, dialog } = await openCreateDialog();
    await user.type(within(dialog).getByLabelText(/Email/), 'new.person@demo.test');
    await user.type(within(dialog).getByLabelText(/Name/), 'New Person');
    // A one-time link is the default: no password is asked for.
    expect(within(dialog).queryByLabelText(/Password/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));

    const shown = await screen.findByRole('dialog', { name: 'Account created' });
    expect(shown.textContent).toContain('This link is shown only once');
    const link = within(shown).getByTestId('one-time-link') as HTMLInputElement;
    expect(link.value).toBe('http://demo.localhost:8080/idp/set-password?token=one-time-token-1');
    expect(posts(server)).toEqual([{ call: 'POST /api/demo/users', body: { email: 'new.person@demo.test', name: 'New Person' } }]);

    await user.click(within(shown).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(link.value);
    expect(within(shown).getByRole('button', { name: 'Copied' })).toBeTruthy();

    expect(await screen.findByText('new.person@demo.test can set a password with the one-time link.')).toBeTruthy();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Gone for good: nothing on the page shows it any more, and the list has the new account.
    expect(document.body.textContent).not.toContain('one-time-token-1');
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('creates an account with a password, checked as the server checks it', async () => {
    const { user, server, dialog } = await openCreateDialog();
    await user.type(within(dialog).getByLabelText(/Email/), 'pat@demo.test');
    await user.type(within(dialog).getByLabelText(/Name/), 'Pat');
    await user.click(within(dialog).getByText('Set a password now'));
    await user.type(within(dialog).getByLabelText(/Password/), 'too-short');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('Password must be at least 12 characters')).toBeTruthy();
    expect(posts(server)).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Password/), '-and-now-long-enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(server)).toEqual([
      { call: 'POST /api/demo/users', body: { email: 'pat@demo.test', name: 'Pat', password: 'too-short-and-now-long-enough' } },
    ]);
    expect(await screen.findByText('pat@demo.test can sign in now.')).toBeTruthy();
  });

  it('says what is wrong with the email and name before asking the server', async () => {
    const { user, server, dialog } = await openCreateDialog();
    await user.type(within(dialog).getByLabelText(/Email/), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('Email must be an email address')).toBeTruthy();
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(posts(server)).toEqual([]);
  });

  it('shows the server’s answer for an email that already has an account', async () => {
    const { user, dialog } = await openCreateDialog();
    await user.type(within(dialog).getByLabelText(/Email/), 'clinician@demo.test');
    await user.type(within(dialog).getByLabelText(/Name/), 'Copy Cat');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('An account with the email clinician@demo.test already exists.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create user' })).toBeTruthy();
  });
});

describe('reset password', () => {
  it('makes a new one-time link, or sets a password', async () => {
    const user = userEvent.setup();
    const server = usersServer();
    renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const clinicianRow = rows()[1]!;

    await user.click(within(clinicianRow).getByRole('button', { name: 'Reset password' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    expect(dialog.textContent).toContain('clinician@demo.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const shown = await screen.findByRole('dialog', { name: 'New set-password link' });
    expect((within(shown).getByTestId('one-time-link') as HTMLInputElement).value).toContain('token=one-time-token-1');
    expect(await screen.findByText('A new one-time link for clinician@demo.test is ready.')).toBeTruthy();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(clinicianRow).getByRole('button', { name: 'Reset password' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    await user.click(within(dialog).getByText('Set a password now'));
    await user.type(within(dialog).getByLabelText(/Password/), 'a-brand-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('The password of clinician@demo.test is changed.')).toBeTruthy();
    expect(server.requests().filter((r) => r.call.includes('password-reset'))).toEqual([
      { call: 'POST /api/demo/users/22222222-2222-4222-8222-222222222222/password-reset', body: {} },
      { call: 'POST /api/demo/users/22222222-2222-4222-8222-222222222222/password-reset', body: { password: 'a-brand-new-password' } },
    ]);
  });
});

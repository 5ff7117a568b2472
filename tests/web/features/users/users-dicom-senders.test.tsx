/**
 * The admin's PACS tab, DICOM senders (issue 24): the registered calling AE titles with their
 * addresses, what a console is configured with, registering one (checked as the server checks it),
 * a duplicate shown at the field, removal only once confirmed, and the empty and error states.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UsersPage } from '../../../../src/web/features/users/users-page.tsx';
import { renderApp } from '../../render.tsx';
import { CATHLAB, pacsServer } from '../pacs-fixture.ts';

const senders = () => within(screen.getByTestId('dicom-senders'));
const rows = () => screen.queryAllByTestId('dicom-caller-row');

async function openPacsTab(server = pacsServer()) {
  const user = userEvent.setup();
  renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
  await user.click(screen.getByRole('tab', { name: 'PACS' }));
  await screen.findByTestId('dicom-senders');
  return { user, server };
}

describe('DICOM senders (administrators)', () => {
  it('lists the registered senders and says what a console pushes to', async () => {
    await openPacsTab();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(screen.getByTestId('dicom-callers-table')).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Calling AE title',
      'Description',
      'Allowed addresses',
      'Actions',
    ]);
    expect(within(rows()[0]!).getAllByRole('cell').map((cell) => cell.textContent).slice(0, 3)).toEqual(['CATHLAB1', 'Cath lab 1 console', '10.1.2.0/24']);
    expect(senders().getByText(/Consoles push to port/).textContent).toBe('Consoles push to port 11112, called AE title IVUSREVIEW.');
    expect(screen.getByTestId('dicom-callers-total').textContent).toBe('1 sender');
  });

  it('says nothing can push until a sender is registered, and when the server runs no receiver', async () => {
    await openPacsTab(pacsServer({ callers: [], receiver: null }));
    expect((await senders().findByTestId('empty-state')).textContent).toContain('No DICOM sender registered');
    expect(senders().getByText(/runs no DICOM receiver/)).toBeTruthy();
  });

  it('shows a load failure with a retry', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) => (path === 'pacs/dicom-callers' ? Response.json({ error: 'internal_error', message: 'Something went wrong on our side.' }, { status: 500 }) : undefined));
    const { user } = await openPacsTab(server);
    expect(await senders().findByText('The DICOM senders could not be loaded')).toBeTruthy();
    server.override(null);
    await user.click(senders().getByRole('button', { name: /retry/i }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('registers a sender, checking the AE title as the server does first, from the keyboard', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, init, path) =>
      path === 'pacs/dicom-callers' && init?.method === 'POST' ? Response.json({ ...CATHLAB, id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb2', aeTitle: 'ANGIO2', networks: [] }, { status: 201 }) : undefined,
    );
    await user.click(senders().getByRole('button', { name: 'Register sender' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Register DICOM sender' }));
    await user.type(dialog.getByLabelText(/Calling AE title/), 'ANGIO\\2');
    await user.keyboard('{Enter}');
    expect(dialog.getByText(/without backslash/)).toBeTruthy();
    expect(server.changes()).toEqual([]);

    await user.clear(dialog.getByLabelText(/Calling AE title/));
    await user.type(dialog.getByLabelText(/Calling AE title/), 'ANGIO2');
    await user.type(dialog.getByLabelText(/Description/), 'Angio suite');
    await user.type(dialog.getByLabelText(/Allowed addresses/), '10.1.3.4, 10.1.4.0/24');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.changes()).toEqual([{ call: 'POST /api/demo/pacs/dicom-callers', body: { aeTitle: 'ANGIO2', description: 'Angio suite', networks: ['10.1.3.4', '10.1.4.0/24'] } }]),
    );
    expect(await screen.findByText('ANGIO2 can push studies now.')).toBeTruthy();
  });

  it('shows a duplicate AE title and a network the server refuses at their fields', async () => {
    const { user, server } = await openPacsTab();
    await waitFor(() => expect(rows()).toHaveLength(1));
    let answer = Response.json({ error: 'duplicate_ae_title', message: 'The calling AE title "CATHLAB1" is registered already.' }, { status: 409 });
    server.override((_url, init) => (init?.method === 'PUT' ? answer : undefined));
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Edit CATHLAB1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit CATHLAB1' }));
    expect((dialog.getByLabelText(/Allowed addresses/) as HTMLInputElement).value).toBe('10.1.2.0/24');
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByText('The calling AE title "CATHLAB1" is registered already.')).toBeTruthy();

    answer = Response.json({ error: 'bad_request', message: 'networks: "10.1.2.0/33" is not an address or network (e.g. 10.1.2.3, 10.1.2.0/24 or fd00::/8).' }, { status: 400 });
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByText(/"10.1.2.0\/33" is not an address or network/)).toBeTruthy();
  });

  it('removes a sender only once confirmed', async () => {
    const { user, server } = await openPacsTab();
    await waitFor(() => expect(rows()).toHaveLength(1));
    server.override((_url, init) => (init?.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove CATHLAB1' }));
    const question = await screen.findByRole('alertdialog', { name: 'Remove CATHLAB1?' });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.changes()).toEqual([]);

    await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove CATHLAB1' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove CATHLAB1?' })).getByRole('button', { name: 'Remove sender' }));
    await waitFor(() => expect(server.changes()).toEqual([{ call: `DELETE /api/demo/pacs/dicom-callers/${CATHLAB.id}`, body: undefined }]));
    expect(await screen.findByText('CATHLAB1 can no longer push studies.')).toBeTruthy();
  });
});

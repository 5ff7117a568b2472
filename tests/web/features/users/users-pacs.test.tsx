import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UsersPage } from '../../../../src/web/features/users/users-page.tsx';
import { renderApp } from '../../render.tsx';
import { ARCHIVE, ORTHANC, pacsServer, problem } from '../pacs-fixture.ts';

const rows = () => screen.queryAllByTestId('pacs-row');
const rowOf = (name: string) => rows().find((row) => within(row).queryByText(name)) as HTMLElement;

async function openPacsTab(server = pacsServer()) {
  const user = userEvent.setup();
  renderApp(<UsersPage isAdmin currentEmail="admin@demo.test" />, { api: server.client, path: '/users' });
  await user.click(screen.getByRole('tab', { name: 'PACS' }));
  await waitFor(() => expect(rows().length).toBeGreaterThan(0));
  return { user, server };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, button: HTMLElement, title: string) {
  await user.click(button);
  return within(await screen.findByRole('dialog', { name: title }));
}

const ok = (studiesFound: number, milliseconds: number) => Response.json({ ok: true, studiesFound, milliseconds });

describe('PACS connections (administrators)', () => {
  it('lists the connections with their addresses and authentication, never a credential', async () => {
    await openPacsTab();
    expect(within(screen.getByTestId('pacs-table')).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Addresses', 'Authentication', 'Test', 'Actions']);
    const [orthanc, archive] = rows().map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(orthanc!.slice(0, 4)).toEqual(['Orthanc', 'http://orthanc.example:8042/dicom-web', 'Basic (user name and password)credentials stored', 'Not tested']);
    // Only the address that differs from the QIDO-RS one is named.
    expect(archive!.slice(0, 3)).toEqual(['Archive', 'https://archive.example/qidoWADO-RS: https://archive.example/wado', 'None']);
    expect(screen.getByTestId('pacs-total').textContent).toBe('2 connections');
  });

  it('says what to do when there is no connection yet', async () => {
    const user = userEvent.setup();
    const server = pacsServer({ connections: [] });
    renderApp(<UsersPage isAdmin />, { api: server.client, path: '/users' });
    await user.click(screen.getByRole('tab', { name: 'PACS' }));
    expect((await screen.findByTestId('empty-state')).textContent).toContain('No PACS connection yet');
  });

  it('adds a connection, checking the form as the server does first', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, init, path) => (path === 'pacs/connections' && init?.method === 'POST' ? Response.json({ ...ARCHIVE, id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3', name: 'Cath lab' }, { status: 201 }) : undefined));
    const dialog = await openDialog(user, screen.getByRole('button', { name: 'Add connection' }), 'Add PACS connection');

    await user.type(dialog.getByLabelText(/QIDO-RS base URL/), 'pacs.example/dicom-web');
    await user.click(dialog.getByText('Basic (user name and password)'));
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));
    expect(dialog.getByText('Enter a name.')).toBeTruthy();
    expect(dialog.getByText(/^Enter an http:\/\/ or https:\/\/ address without credentials/)).toBeTruthy();
    expect(dialog.getByText('Enter the user name.')).toBeTruthy();
    expect(dialog.getByText('Enter the password.')).toBeTruthy();
    expect(server.changes()).toEqual([]);

    await user.type(dialog.getByLabelText(/^Name/), 'Cath lab');
    await user.clear(dialog.getByLabelText(/QIDO-RS base URL/));
    await user.type(dialog.getByLabelText(/QIDO-RS base URL/), 'https://pacs.example/dicom-web');
    await user.click(dialog.getByRole('button', { name: /Separate WADO-RS \/ STOW-RS addresses/ }));
    await user.type(dialog.getByLabelText(/STOW-RS base URL/), 'https://pacs.example/stow');
    await user.type(dialog.getByLabelText(/User name/), 'reader');
    await user.type(dialog.getByLabelText(/Password/), 's3cret');
    await user.click(dialog.getByRole('button', { name: 'Add connection' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The empty WADO-RS address is left out: the server uses the QIDO-RS one.
    expect(server.changes()).toEqual([
      {
        call: 'POST /api/demo/pacs/connections',
        body: { name: 'Cath lab', qidoUrl: 'https://pacs.example/dicom-web', stowUrl: 'https://pacs.example/stow', auth: { kind: 'basic', username: 'reader', password: 's3cret' } },
      },
    ]);
    expect(await screen.findByText('Cath lab can be searched from Upload → From PACS.')).toBeTruthy();
  });

  it('changes a connection keeping the stored password when its field is left empty', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, init) => (init?.method === 'PUT' ? Response.json(ORTHANC) : undefined));
    const dialog = await openDialog(user, within(rowOf('Orthanc')).getByRole('button', { name: 'Edit' }), 'Edit Orthanc');
    expect((dialog.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Orthanc');
    const password = dialog.getByLabelText(/Password/) as HTMLInputElement;
    expect(password.value).toBe('');
    expect(dialog.getByText('Leave empty to keep the stored one.')).toBeTruthy();

    await user.type(dialog.getByLabelText(/User name/), 'reader');
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.changes()).toEqual([
      {
        call: `PUT /api/demo/pacs/connections/${ORTHANC.id}`,
        body: { name: 'Orthanc', qidoUrl: ORTHANC.qidoUrl, auth: { kind: 'basic', username: 'reader' } },
      },
    ]);
  });

  it('asks for a token when the kind of authentication changes: the stored secret is of another kind', async () => {
    const { user, server } = await openPacsTab();
    const dialog = await openDialog(user, within(rowOf('Orthanc')).getByRole('button', { name: 'Edit' }), 'Edit Orthanc');
    await user.click(dialog.getByText('Bearer token'));
    expect(dialog.queryByText('Leave empty to keep the stored one.')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(dialog.getByText('Enter the token.')).toBeTruthy();
    expect(server.changes()).toEqual([]);
  });

  it('tests the form before saving, and shows the PACS problem when the test fails', async () => {
    const { user, server } = await openPacsTab();
    let answer = ok(12, 85.4);
    server.override((_url, init, path) => (path === 'pacs/connections/test' ? answer : undefined));
    const dialog = await openDialog(user, screen.getByRole('button', { name: 'Add connection' }), 'Add PACS connection');
    await user.type(dialog.getByLabelText(/^Name/), 'Cath lab');
    await user.type(dialog.getByLabelText(/QIDO-RS base URL/), 'https://pacs.example/dicom-web');
    await user.click(dialog.getByText('Bearer token'));
    await user.type(dialog.getByLabelText(/Token/), 'tok-1');
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));

    await waitFor(() => expect(dialog.getByTestId('pacs-test-result').textContent).toBe('Connected: 12 studies visible, in 85 ms'));
    expect(server.changes()).toEqual([
      { call: 'POST /api/demo/pacs/connections/test', body: { name: 'Cath lab', qidoUrl: 'https://pacs.example/dicom-web', auth: { kind: 'bearer', token: 'tok-1' } } },
    ]);

    answer = problem('pacs_credentials_refused', 'The PACS refused the credentials: HTTP 401 from https://pacs.example/dicom-web/studies');
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(dialog.getByTestId('pacs-test-result').textContent).toBe('The PACS refused the credentials: HTTP 401 from https://pacs.example/dicom-web/studies'));
    expect(dialog.getByTestId('pacs-test-result').getAttribute('data-status')).toBe('failed');
    // Testing saves nothing.
    expect(rows()).toHaveLength(2);
  });

  it('tests the saved connection when the password is left empty', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, _init, path) => (path.endsWith('/test') ? ok(3, 40) : undefined));
    const dialog = await openDialog(user, within(rowOf('Orthanc')).getByRole('button', { name: 'Edit' }), 'Edit Orthanc');
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(dialog.getByTestId('pacs-test-result').textContent).toBe('Connected: 3 studies visible, in 40 ms'));
    expect(server.changes()).toEqual([{ call: `POST /api/demo/pacs/connections/${ORTHANC.id}/test`, body: undefined }]);
    expect(dialog.getByText('Tested the saved connection with its stored credentials.')).toBeTruthy();
  });

  it("shows the server's refusals at the fields they name", async () => {
    const { user, server } = await openPacsTab();
    let answer: Response | undefined;
    server.override((_url, init) => (init?.method === 'PUT' ? answer : undefined));
    const dialog = await openDialog(user, within(rowOf('Archive')).getByRole('button', { name: 'Edit' }), 'Edit Archive');
    await user.clear(dialog.getByLabelText(/^Name/));
    await user.type(dialog.getByLabelText(/^Name/), 'Orthanc');

    answer = Response.json({ error: 'duplicate_name', message: 'A PACS connection named "Orthanc" exists already.' }, { status: 409 });
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByText('A PACS connection named "Orthanc" exists already.')).toBeTruthy();
    expect(dialog.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');

    answer = Response.json({ error: 'validation_error', message: 'wadoUrl: an address the server may call; something else went wrong' }, { status: 400 });
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByText('Enter an address the server may call.')).toBeTruthy();
    expect(dialog.getByRole('alert').textContent).toContain('something else went wrong');
    expect(screen.getByRole('dialog', { name: 'Edit Archive' })).toBeTruthy();
  });

  it('tests a connection from its row and shows the outcome there', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, _init, path) =>
      path === `pacs/connections/${ORTHANC.id}/test` ? ok(100, 120) : path === `pacs/connections/${ARCHIVE.id}/test` ? problem('pacs_unreachable', 'The PACS did not answer: connection refused') : undefined,
    );
    await user.click(within(rowOf('Orthanc')).getByRole('button', { name: 'Test connection' }));
    await user.click(within(rowOf('Archive')).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(rowOf('Orthanc')).getByTestId('pacs-row-test').textContent).toBe('Connected: 100 or more studies visible, in 120 ms'));
    await waitFor(() => expect(within(rowOf('Archive')).getByTestId('pacs-row-test').textContent).toBe('The PACS did not answer: connection refused'));
  });

  it('removes a connection only once confirmed', async () => {
    const { user, server } = await openPacsTab();
    server.override((_url, init) => (init?.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    await user.click(within(rowOf('Archive')).getByRole('button', { name: 'Remove' }));
    const question = await screen.findByRole('alertdialog', { name: 'Remove this PACS connection?' });
    expect(question.textContent).toContain('Users will no longer import from Archive');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.changes()).toEqual([]);

    await user.click(within(rowOf('Archive')).getByRole('button', { name: 'Remove' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove this PACS connection?' })).getByRole('button', { name: 'Remove connection' }));
    await waitFor(() => expect(server.changes()).toEqual([{ call: `DELETE /api/demo/pacs/connections/${ARCHIVE.id}`, body: undefined }]));
    expect(await screen.findByText('Archive is removed.')).toBeTruthy();
  });
});

import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { NO_STUDY_REASON, SendToPacsButton } from '../../../../src/web/review/pacs/send-to-pacs-button.tsx';
import { renderApp } from '../../render.tsx';
import { ARCHIVE, pacsServer, problem } from '../../features/pacs-fixture.ts';

const RECORD_ID = '5d1f3a9e-2b4c-4d6e-8f10-0a1b2c3d4e5f';
const SENT = {
  studyInstanceUid: '1.2.840.1',
  stored: [
    { kind: 'sr', sopInstanceUid: '1.2.840.1.90.1' },
    { kind: 'pdf', sopInstanceUid: '1.2.840.1.90.2' },
  ],
  annotationVersion: 2,
};

/** A review whose annotations are saved as version 2. */
function savedStore() {
  const store = new AnnotationStore();
  store.load({ version: 2, manifest: emptyManifest(), savedBy: 'dana@demo.test', savedAt: '2026-03-12T10:00:00.000Z' });
  return store;
}

function renderButton({ server = pacsServer(), store = savedStore(), studyInstanceUid = '1.2.840.1' as string | null } = {}) {
  const user = userEvent.setup();
  renderApp(<SendToPacsButton recordId={RECORD_ID} studyInstanceUid={studyInstanceUid} annotations={store} />, { api: server.client, path: '/' });
  return { user, server, store };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Send to PACS' }));
  return within(await screen.findByRole('dialog', { name: 'Send to PACS' }));
}

const sends = (server: ReturnType<typeof pacsServer>) => server.changes().filter(({ call }) => call.endsWith('/pacs-send'));

describe('Send to PACS', () => {
  it('is disabled, saying why, for a record without a DICOM study', async () => {
    const { user, server } = renderButton({ studyInstanceUid: null });
    const button = screen.getByRole('button', { name: 'Send to PACS' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button).toHaveProperty('tabIndex', 0);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(NO_STUDY_REASON);
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests()).toEqual([]);
  });

  it('sends the chosen connection and says where the report went', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) => (path.endsWith('/pacs-send') ? Response.json(SENT) : undefined));
    const { user } = renderButton({ server });
    const dialog = await openDialog(user);
    expect((await dialog.findByRole('combobox', { name: 'PACS' })).textContent).toBe('OrthancArchive');
    expect(dialog.getByText(/hold the lumen and vessel analysis and the saved annotations \(version 2\)/)).toBeTruthy();

    await user.selectOptions(dialog.getByRole('combobox', { name: 'PACS' }), 'Archive');
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent to Archive')).toBeTruthy();
    expect(screen.getByText('Measurement report and PDF stored in the study (annotations v2).')).toBeTruthy();
    expect(sends(server)).toEqual([{ call: `POST /api/demo/records/${RECORD_ID}/pacs-send`, body: { connectionId: ARCHIVE.id } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says gating is on and asks the server for the gated figures, sending no figure of its own (issue 28)', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) => (path.endsWith('/pacs-send') ? Response.json(SENT) : undefined));
    const user = userEvent.setup();
    renderApp(<SendToPacsButton recordId={RECORD_ID} studyInstanceUid="1.2.840.1" annotations={savedStore()} gating={() => true} />, { api: server.client, path: '/' });
    const dialog = await openDialog(user);
    expect(await dialog.findByText(/Gating is on: they add the figures on end-diastolic frames, gated by the server/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent to Orthanc')).toBeTruthy();
    expect(sends(server)).toEqual([{ call: `POST /api/demo/records/${RECORD_ID}/pacs-send`, body: { connectionId: expect.any(String), gating: true } }]);
  });

  it('shows the PACS problem in the dialog and lets the user try again', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) =>
      path.endsWith('/pacs-send') ? problem('pacs_store_refused', 'The PACS refused to store the report: HTTP 409 (the study is locked)') : undefined,
    );
    const { user } = renderButton({ server });
    const dialog = await openDialog(user);
    await user.click(await dialog.findByRole('button', { name: 'Send' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('The PACS refused to store the report: HTTP 409 (the study is locked)');
    expect(screen.getByRole('dialog', { name: 'Send to PACS' })).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks to save first while the review has unsaved changes', async () => {
    const store = savedStore();
    const { user, server } = renderButton({ store });
    const changed = emptyManifest();
    act(() => store.commit(changed));
    const dialog = await openDialog(user);
    expect((await dialog.findByTestId('save-first')).textContent).toBe('Save first: only saved annotations are sent.');
    const send = dialog.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await user.click(send);
    expect(sends(server)).toEqual([]);

    // Saved meanwhile (Save on the toolbar): the dialog follows.
    act(() => store.markSaved(changed, 3, 'dana@demo.test', '2026-03-12T11:00:00.000Z'));
    await waitFor(() => expect(dialog.queryByTestId('save-first')).toBeNull());
    expect(send.disabled).toBe(false);
  });

  it('says that an administrator adds a connection when there is none', async () => {
    const { user } = renderButton({ server: pacsServer({ connections: [] }) });
    const dialog = await openDialog(user);
    expect((await dialog.findByTestId('no-pacs-connection')).textContent).toContain('An administrator adds one on Users → PACS');
    expect(dialog.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { useState, useSyncExternalStore } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { useAnnotationSession, useConfirmLeave, useSaveState } from '../../../../src/web/review/annotations/annotation-session.tsx';
import { draftStore, type DraftOwner } from '../../../../src/web/review/annotations/draft-store.ts';
import { AnnotationDraftOffer, ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { writePatientContext, writeRecordContext } from '../../../../src/web/session/context-store.ts';
import { fakeIdToken } from '../../fake-token.ts';
import { fakeApi, renderApp, startFakeAuth } from '../../render.tsx';
import { ONE_RECORD_PATIENT } from '../../review-fixture.ts';

const dana: DraftOwner = { issuer: 'http://demo.localhost/idp', subject: 'dana' };
const SAVED_AT = '2026-11-01T00:00:00Z';

/** Draws a ruler (as the tool would commit it), asks to leave as the toolbar does, and shows what is there. */
function LeaveProbe() {
  const session = useAnnotationSession()!;
  const confirmLeave = useConfirmLeave();
  const [left, setLeft] = useState<string>('not asked');
  const { dirty } = useSaveState(session);
  const snapshot = useSyncExternalStore(session.store.subscribe, session.store.getSnapshot);
  const draw = () => session.store.commit(addAnnotation(snapshot.manifest, newRuler(snapshot.manifest, 1, { x: 0, y: 0 }, { x: 40, y: 0 })));
  return (
    <>
      <button onClick={draw}>Draw</button>
      <button onClick={() => void confirmLeave().then((leave) => setLeft(String(leave)))}>Leave</button>
      <output data-testid="probe" data-ready={snapshot.status === 'ready'} data-dirty={dirty} data-rulers={snapshot.manifest.ruler.length} data-left={left} />
    </>
  );
}

const posts: string[] = [];

async function openRecord(recordId: string) {
  const { client } = fakeApi((url, init) => {
    if (url.pathname === `/api/demo/records/${recordId}/annotations`) {
      return Response.json({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: SAVED_AT });
    }
    if (url.pathname === '/api/demo/records' && init?.method === 'POST') {
      posts.push(url.search);
      return Response.json({ version: 3, savedBy: 'dana@demo.test', savedAt: SAVED_AT, annotationStatus: 'saved' });
    }
    return Response.json({ error: 'not_found', message: 'Not found.' }, { status: 404 });
  });
  const auth = await startFakeAuth({
    user: { profile: { email: 'dana@demo.test', name: 'Dana' }, access_token: 'a', id_token: fakeIdToken({ iss: dana.issuer, sub: dana.subject, email: 'dana@demo.test' }), token_type: 'Bearer' },
  });
  renderApp(
    <ReviewSessionProvider patientId="P-7" recordId={recordId}>
      <AnnotationDraftOffer />
      <LeaveProbe />
    </ReviewSessionProvider>,
    { auth, api: client },
  );
  await waitFor(() => expect(probe().dataset.ready).toBe('true'));
}

const probe = () => screen.getByTestId('probe');

/** The record and its patient in the tab's context, as when opened from the records page (Save needs both). */
function inContext(recordId: string) {
  const record = { ...ONE_RECORD_PATIENT.records[0]!, recordId, annotations: `records/${recordId}/annotations` };
  writePatientContext({ patient: { ...ONE_RECORD_PATIENT.patient, sex: 'M', records: [record] } });
  writeRecordContext({ patientId: 'P-7', record });
}

async function drawAndAsk(): Promise<HTMLElement> {
  await userEvent.click(screen.getByRole('button', { name: 'Draw' }));
  expect(probe().dataset.dirty).toBe('true');
  await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
  return screen.findByRole('alertdialog', { name: 'Save your annotation changes?' });
}

afterEach(() => {
  posts.splice(0);
  sessionStorage.clear();
});

describe('leaving a review with unsaved edits', () => {
  it('asks nothing when nothing is unsaved', async () => {
    await openRecord('R-clean');
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(probe().dataset.left).toBe('true'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks Save / Discard / Stay with Stay focused; Escape stays with the edits, Discard drops them and their draft', async () => {
    await openRecord('R-discard-leave');
    let dialog = await drawAndAsk();
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(expect.arrayContaining(['Save', 'Discard', 'Stay']));
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay' })));
    // The draft is being kept meanwhile.
    await waitFor(async () => expect(await draftStore.loadDraft(dana, 'R-discard-leave')).not.toBeNull());

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(probe().dataset.left).toBe('false'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(probe().dataset).toMatchObject({ dirty: 'true', rulers: '1' });

    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(probe().dataset.left).toBe('true'));
    expect(probe().dataset).toMatchObject({ dirty: 'false', rulers: '0' });
    expect(await draftStore.loadDraft(dana, 'R-discard-leave')).toBeNull();
    expect(posts).toEqual([]);
  });

  it('Save stores the edits as the next version and then leaves', async () => {
    inContext('R-save-leave');
    await openRecord('R-save-leave');
    const dialog = await drawAndAsk();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(probe().dataset.left).toBe('true'));
    expect(posts).toHaveLength(1);
    expect(probe().dataset).toMatchObject({ dirty: 'false', rulers: '1' });
  });

  it('a Save that stores nothing stays, with the edits', async () => {
    // Not opened from its patient's records: the save is refused in the browser, with a toast.
    await openRecord('R-save-refused');
    const dialog = await drawAndAsk();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(probe().dataset.left).toBe('false'));
    expect(await screen.findByText('Not saved')).toBeTruthy();
    expect(probe().dataset).toMatchObject({ dirty: 'true', rulers: '1' });
    expect(posts).toEqual([]);
  });
});

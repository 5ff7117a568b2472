import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { useSyncExternalStore } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { useAnnotationSession, useSaveState } from '../../../../src/web/review/annotations/annotation-session.tsx';
import { AnnotationDraftOffer, ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { draftStore, type DraftOwner } from '../../../../src/web/review/annotations/draft-store.ts';
import { fakeIdToken } from '../../fake-token.ts';
import { fakeApi, renderApp, startFakeAuth } from '../../render.tsx';

const ISSUER = 'http://demo.localhost/idp';
const dana: DraftOwner = { issuer: ISSUER, subject: 'dana' };
const eli: DraftOwner = { issuer: ISSUER, subject: 'eli' };

function userOf(owner: DraftOwner, email: string) {
  return {
    profile: { email, name: email },
    access_token: 'access-token',
    id_token: fakeIdToken({ iss: owner.issuer, sub: owner.subject, email }),
    token_type: 'Bearer',
  };
}

function withRuler(x: number) {
  const empty = emptyManifest();
  return addAnnotation(empty, newRuler(empty, 7, { x: 0, y: 0 }, { x, y: 0 }));
}

/** What the Save button reads, and the rulers shown. */
function SaveStateProbe() {
  const session = useAnnotationSession();
  const { ready, dirty } = useSaveState(session);
  const store = session!.store;
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return <output data-testid="probe" data-ready={ready} data-dirty={dirty} data-rulers={snapshot.manifest.ruler.length} data-version={snapshot.version} />;
}

async function openRecord(recordId: string, owner: DraftOwner = dana) {
  const { client } = fakeApi((url) =>
    url.pathname === `/api/demo/records/${recordId}/annotations`
      ? Response.json({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' })
      : Response.json({ error: 'not_found', message: 'Not found.' }, { status: 404 }),
  );
  const auth = await startFakeAuth({ user: userOf(owner, `${owner.subject}@demo.test`) });
  renderApp(
    <ReviewSessionProvider patientId="P-7" recordId={recordId}>
      <AnnotationDraftOffer />
      <SaveStateProbe />
    </ReviewSessionProvider>,
    { auth, api: client },
  );
  await waitFor(() => expect(screen.getByTestId('probe').dataset.ready).toBe('true'));
}

async function seedDraft(owner: DraftOwner, recordId: string) {
  await draftStore.saveDraft(owner, { recordId, patientId: 'P-7', baseVersion: 2, manifest: withRuler(40), updatedAt: Date.now() - 60_000 });
}

describe('the unsaved-annotations prompt', () => {
  it('offers a kept draft; Restore makes it unsaved edits', async () => {
    await seedDraft(dana, 'R-restore');
    await openRecord('R-restore');
    const prompt = await screen.findByRole('region', { name: 'Unsaved annotations' });
    expect(prompt.textContent).toMatch(/You have unsaved annotations from .+ on this record \(based on version 2\)\./);
    expect(screen.getByTestId('probe').dataset.dirty).toBe('false');

    await userEvent.click(within(prompt).getByRole('button', { name: 'Restore' }));
    expect(screen.queryByRole('region', { name: 'Unsaved annotations' })).toBeNull();
    const probe = screen.getByTestId('probe');
    expect(probe.dataset.dirty).toBe('true');
    expect(probe.dataset.rulers).toBe('1');
    expect(probe.dataset.version).toBe('2');
    // Still kept until it is saved.
    expect(await draftStore.loadDraft(dana, 'R-restore')).not.toBeNull();
  });

  it('is reached with the keyboard before the review', async () => {
    await seedDraft(dana, 'R-keys');
    await openRecord('R-keys');
    const prompt = await screen.findByRole('region', { name: 'Unsaved annotations' });
    // It takes no focus by itself.
    expect(prompt.contains(document.activeElement)).toBe(false);
    await userEvent.tab();
    expect(document.activeElement).toBe(within(prompt).getByRole('button', { name: 'Restore' }));
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('probe').dataset.dirty).toBe('true');
  });

  it('Discard deletes the draft', async () => {
    await seedDraft(dana, 'R-discard');
    await openRecord('R-discard');
    const prompt = await screen.findByRole('region', { name: 'Unsaved annotations' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('region', { name: 'Unsaved annotations' })).toBeNull();
    expect(screen.getByTestId('probe').dataset.dirty).toBe('false');
    expect(await draftStore.loadDraft(dana, 'R-discard')).toBeNull();
  });

  it('never shows another user’s draft', async () => {
    await seedDraft(eli, 'R-other');
    await openRecord('R-other', dana);
    await draftStore.settled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Unsaved annotations' })).toBeNull();
    expect(await draftStore.loadDraft(eli, 'R-other')).not.toBeNull();
  });
});

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { otherTabText } from '../../../../src/web/review/annotations/draft-prompt.tsx';
import { createDraftStore } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { NOW, RECORD, freshDatabaseName, owner, ruler, stoppedAfterEach } from './draft-fixture.ts';

/**
 * Two tabs of one browser with the same user's same record open share one kept draft: each is told
 * of the other's unsaved edits, and of the draft holding the other's edits instead of its own.
 */

const stops = stoppedAfterEach();
afterEach(() => localStorage.clear());

let channels = 0;

/** Tabs of one browser: one IndexedDB database and one BroadcastChannel name, of their own per test. */
function browser() {
  const name = freshDatabaseName('tabs');
  const channelName = `draft-tabs-test-${++channels}`;
  const reader = createDraftStore({ name, now: () => NOW });
  const tab = (patientId = 'P-7', recordId = RECORD, tabOwner = owner) => {
    const drafts = createDraftStore({ name, now: () => NOW });
    const store = new AnnotationStore();
    const sync = new DraftSync({ store, drafts, owner: tabOwner, patientId, recordId, delayMs: 5, now: () => NOW, tabChannel: () => new BroadcastChannel(channelName) });
    const stop = sync.start();
    stops.push(stop);
    store.load({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    const addRuler = (x: number) => store.add(ruler(store.getSnapshot().manifest, x));
    const save = () => store.markSaved(store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    return { sync, store, addRuler, save, stop, others: () => sync.tabs.getState() };
  };
  const kept = async () => (await reader.loadDraft(owner, RECORD))?.manifest.ruler.map((r) => r.endX) ?? null;
  return { tab, kept };
}

/** Long enough for a wrong write or message to show (where the test checks that nothing changed). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 40));
/** The tabs' lookups of an earlier draft have ended (none found: their edits are kept from now on). */
const lookedUp = (...tabs: { sync: DraftSync }[]) => vi.waitFor(() => expect(tabs.every((tab) => tab.sync.lookupEnded())).toBe(true));

/** Tabs A and B with the record open: A's ruler is the draft, then B draws one of its own. */
async function bothEdited() {
  const { tab, kept } = browser();
  const a = tab();
  const b = tab();
  await lookedUp(a, b);
  a.addRuler(30);
  await vi.waitFor(async () => expect(await kept()).toEqual([30]));
  b.addRuler(60);
  await vi.waitFor(() => expect(b.others().draftIsTheirs).toBe(true));
  return { tab, kept, a, b };
}

describe('two tabs with one record open', () => {
  it('each is told when the other has unsaved edits, until it saves or closes', async () => {
    const { tab } = browser();
    const a = tab();
    const b = tab();
    await lookedUp(a, b);
    await settle(); // any message between them is heard
    expect(b.others()).toEqual({ unsaved: false, draftIsTheirs: false });

    a.addRuler(30);
    await vi.waitFor(() => expect(b.others().unsaved).toBe(true));
    expect(a.others().unsaved).toBe(false);
    expect(otherTabText(b.others())).toMatch(/^This record is open in another tab with unsaved annotations\. Both tabs’ unsaved annotations are kept/);

    a.save();
    await vi.waitFor(() => expect(b.others().unsaved).toBe(false));
    expect(otherTabText(b.others())).toBeNull();

    a.addRuler(40);
    await vi.waitFor(() => expect(b.others().unsaved).toBe(true));
    a.stop(); // the tab is closed
    await vi.waitFor(() => expect(b.others().unsaved).toBe(false));
  });

  it('a tab opened later learns of the other’s unsaved edits; another record or user is not its concern', async () => {
    const { tab } = browser();
    const a = tab();
    await lookedUp(a);
    a.addRuler(30);
    const b = tab();
    const otherRecord = tab('P-8', 'r2');
    const otherUser = tab('P-7', RECORD, { issuer: owner.issuer, subject: 'eli' });
    await vi.waitFor(() => expect(b.others().unsaved).toBe(true));
    await settle();
    expect(otherRecord.others().unsaved).toBe(false);
    expect(otherUser.others().unsaved).toBe(false);
  });

  it('the tab that wrote the draft first holds it; the other keeps its edits beside it, and both are offered in turn', async () => {
    const { tab, kept, a, b } = await bothEdited();
    await settle();
    expect(await kept()).toEqual([30]); // not replaced by tab B's edits
    expect(a.others()).toEqual({ unsaved: true, draftIsTheirs: false });

    a.addRuler(40); // tab A goes on: still its own draft
    await vi.waitFor(async () => expect(await kept()).toEqual([30, 40]));
    b.stop(); // tab B is closed
    a.stop();
    expect(otherTabText({ unsaved: false, draftIsTheirs: true })).toMatch(/^Unsaved annotations left by another tab are kept/);

    const next = tab();
    await vi.waitFor(() => expect(next.sync.getOffer()?.draft.manifest.ruler.map((r) => r.endX)).toEqual([30, 40]));
    next.sync.discard();
    await vi.waitFor(() => expect(next.sync.getOffer()?.draft.manifest.ruler.map((r) => r.endX)).toEqual([60]));
  });

  it('when the tab holding the draft saves, the other tab’s unsaved edits become the draft', async () => {
    const { kept, a, b } = await bothEdited();
    a.save(); // deletes the draft it held: tab B's edits must not be left beside nothing
    await vi.waitFor(async () => expect(await kept()).toEqual([60]));
    expect(b.others()).toEqual({ unsaved: false, draftIsTheirs: false });
    expect(Object.keys(localStorage).filter((key) => key.startsWith('ivus-review-draft'))).toEqual([]);
  });
});

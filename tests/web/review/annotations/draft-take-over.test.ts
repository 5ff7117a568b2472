import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { createDraftStore, type DraftOwner, type DraftStore } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { asides, ends, lookedUp, offeredInTurn } from './draft-browser-fixture.ts';
import { NOW, RECORD, freshDatabaseName, owner as dana, ruler, stoppedAfterEach, withRuler } from './draft-fixture.ts';

/**
 * When the tab holding the record's draft saves it, every other tab with unsaved edits takes the draft
 * over at once: exactly one writes it, and the others' edits are in their own aside entries at once,
 * so a tab killed then (crash, power) loses nothing. And a page that opens the record a second time
 * keeps its second visit's edits beside the first visit's, not over them.
 */

const eli: DraftOwner = { issuer: dana.issuer, subject: 'eli' };
const stops = stoppedAfterEach();
afterEach(() => localStorage.clear());

let channels = 0;


/** Tabs of one browser: one IndexedDB database and one tab channel of their own per test. */
function browser() {
  const name = freshDatabaseName('take-over');
  const channelName = `draft-take-over-${++channels}`;
  const tab = ({ user = dana, recordId = RECORD, version = 2, manifest = emptyManifest(), drafts = createDraftStore({ name, now: () => NOW }) as DraftStore } = {}) => {
    const store = new AnnotationStore();
    const opened: BroadcastChannel[] = [];
    const channel = () => {
      const made = new BroadcastChannel(channelName);
      opened.push(made);
      return made;
    };
    const sync = new DraftSync({ store, drafts, owner: user, patientId: 'P-7', recordId, delayMs: 5, now: () => NOW, tabChannel: channel });
    const stop = sync.start();
    stops.push(stop);
    store.load({ version, manifest, savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    return {
      sync,
      store,
      stop,
      addRuler: (x: number) => store.add(ruler(store.getSnapshot().manifest, x)),
      save: () => store.markSaved(store.getSnapshot().history.present, version + 1, 'dana@demo.test', '2026-11-15T09:31:00Z'),
      /** The tab is killed: no pagehide, nothing runs in it any more, it hears nothing. */
      kill: () => opened.forEach((made) => made.close()),
      own: () => ends(store.getSnapshot().history.present),
    };
  };
  /** The record's draft in IndexedDB, read as it is (a draft store's read would move edits kept aside into it). */
  const kept = async (user = dana, recordId = RECORD) => {
    const db = await openDB(name);
    const stored = (await db.get('drafts', JSON.stringify([user.issuer, user.subject, recordId]))) as { manifest: AnnotationManifest } | undefined;
    db.close();
    return ends(stored?.manifest);
  };
  return { name, tab, kept };
}

/** Long enough for a wrong write to show (where the test checks that nothing changed). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 40));

/** Tab A holds the record's draft; tabs B and C keep their unsaved edits beside it. */
async function threeTabs() {
  const browse = browser();
  const [a, b, c] = [browse.tab(), browse.tab(), browse.tab()];
  await lookedUp(a, b, c);
  a.addRuler(30);
  await vi.waitFor(async () => expect(await browse.kept()).toEqual([30]));
  await vi.waitFor(() => expect(b.sync.tabs.draftHeldElsewhere() && c.sync.tabs.draftHeldElsewhere()).toBe(true));
  b.addRuler(60);
  c.addRuler(90);
  await vi.waitFor(() => expect(asides()).toHaveLength(2));
  return { ...browse, a, b, c };
}

/** Tab A saves: B and C, both with unsaved edits, take the draft over at once. Answers which won. */
async function takenOver() {
  const tabs = await threeTabs();
  tabs.a.save();
  await vi.waitFor(async () => expect([[60], [90]]).toContainEqual(await tabs.kept()));
  const winner = (await tabs.kept())?.[0] === 60 ? tabs.b : tabs.c;
  const loser = winner === tabs.b ? tabs.c : tabs.b;
  // Both claims are answered: the loser knows the draft is the winner's, and one aside entry is left.
  await vi.waitFor(() => expect([loser.sync.tabs.draftHeldElsewhere(), asides().length]).toEqual([true, 1]));
  return { ...tabs, winner, loser };
}


describe('the tab holding the draft saves while two others have unsaved edits', () => {
  it('exactly one takes the draft over; the other’s edits are in its aside entry at once, before any pagehide', async () => {
    const { winner, loser, kept } = await takenOver();
    expect(await kept()).toEqual(winner.own());
    expect(asides()).toEqual([loser.own()]); // no pagehide: written as soon as the claim was lost
    expect(loser.sync.tabs.getState().draftIsTheirs).toBe(true);
    expect(winner.sync.tabs.getState().draftIsTheirs).toBe(false);
  });

  it('the other tab killed at once (no pagehide): after the winner saves too, the next open offers its edits', async () => {
    const { tab, winner, loser, kept } = await takenOver();
    loser.kill();
    winner.save();
    await vi.waitFor(async () => expect(await kept()).not.toEqual(winner.own()));

    expect(await offeredInTurn(tab)).toEqual([loser.own()]);
  });

  it('while the other tab lives on, it takes the draft over once the winner saves', async () => {
    const { winner, loser, kept } = await takenOver();
    winner.save();
    await vi.waitFor(async () => expect(await kept()).toEqual(loser.own()));
    await vi.waitFor(() => expect(asides()).toEqual([]));
    await vi.waitFor(() => expect(loser.sync.tabs.getState()).toEqual({ unsaved: false, draftIsTheirs: false }));
  });

  it('another record of the same user, and another user of the record, are not touched', async () => {
    const browse = browser();
    const otherRecord = browse.tab({ recordId: 'r2' });
    const otherUser = browse.tab({ user: eli });
    await lookedUp(otherRecord, otherUser);
    otherRecord.addRuler(15);
    otherUser.addRuler(25);
    await vi.waitFor(async () => expect([await browse.kept(dana, 'r2'), await browse.kept(eli)]).toEqual([[15], [25]]));
    const [holder, other] = [browse.tab(), browse.tab()];
    await lookedUp(holder, other);
    holder.addRuler(30);
    await vi.waitFor(async () => expect(await browse.kept()).toEqual([30]));
    other.addRuler(60);
    await vi.waitFor(() => expect(other.sync.tabs.getState().draftIsTheirs).toBe(true));
    holder.save();
    await vi.waitFor(async () => expect(await browse.kept()).toEqual([60]));
    await settle();

    expect([await browse.kept(dana, 'r2'), await browse.kept(eli)]).toEqual([[15], [25]]);
    expect(otherRecord.sync.tabs.getState()).toEqual({ unsaved: false, draftIsTheirs: false });
    expect(otherUser.sync.tabs.getState()).toEqual({ unsaved: false, draftIsTheirs: false });
  });
});

describe('one page opening the record twice (in-app navigation, no reload)', () => {
  it('the second visit’s edits kept aside do not replace the first visit’s: both are offered', async () => {
    const { name, tab } = browser();
    await createDraftStore({ name, now: () => NOW }).saveDraft(dana, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: NOW - 60_000 });
    const page = createDraftStore({ name, now: () => NOW }); // one per page, as in the app
    const hide = () => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      Reflect.deleteProperty(document, 'visibilityState');
    };

    // Visit 1: the offer is left up while a ruler is drawn, and the tab hidden a moment (kept aside);
    // then the offered draft is restored and saved, and the clinician goes to another record at once.
    const first = tab({ drafts: page });
    await vi.waitFor(() => expect(ends(first.sync.getOffer()?.draft.manifest)).toEqual([50]));
    first.addRuler(30);
    hide();
    first.sync.restore();
    first.save();
    first.stop();
    expect(asides()).toEqual([[30]]);

    // Visit 2, same page: the lookup of a kept draft is slow; a ruler drawn meanwhile, the tab hidden.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const slow: DraftStore = { ...page, loadDraft: (user, recordId) => answered.then(() => page.loadDraft(user, recordId)) };
    const second = tab({ drafts: slow, version: 3, manifest: withRuler(50) });
    second.addRuler(70);
    hide();
    expect(asides()).toEqual(expect.arrayContaining([[30], [50, 70]]));
    answer();

    // The first visit's edits are offered (they are the oldest), then nothing is lost.
    await vi.waitFor(() => expect(ends(second.sync.getOffer()?.draft.manifest)).toEqual([30]));
  });

  it('Discard on leaving drops the edits this visit kept aside (the other visits’ stay)', async () => {
    const { name, tab } = browser();
    await createDraftStore({ name, now: () => NOW }).saveDraft(dana, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: NOW - 60_000 });
    createDraftStore({ name, now: () => NOW }).keepAside(dana, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(40), updatedAt: NOW - 30_000 }, 'earlier-visit');
    const visit = tab();
    await vi.waitFor(() => expect(ends(visit.sync.getOffer()?.draft.manifest)).toEqual([50]));
    visit.addRuler(30);
    window.dispatchEvent(new Event('pagehide')); // kept aside: the offer is unanswered
    expect(asides()).toEqual(expect.arrayContaining([[40], [30]]));

    await visit.sync.forget(); // Discard in the leave question
    expect(asides()).toEqual([[40]]);
  });
});

describe('a tab opening the record while another claims its draft', () => {
  it('moves edits kept aside into IndexedDB only while no draft is there: a claim made meanwhile is never replaced', async () => {
    for (let round = 0; round < 20; round++) {
      const { name, kept } = browser();
      createDraftStore({ name, now: () => NOW }).keepAside(dana, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(40), updatedAt: NOW - 1000 }, 'earlier-visit');
      const claiming = createDraftStore({ name, now: () => NOW });
      const opening = createDraftStore({ name, now: () => NOW });
      const draft = { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(60), updatedAt: NOW };
      // The claim starts a little later each round, so that it falls at every point of the other's read.
      const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const [offered, won] = await Promise.all([opening.loadDraft(dana, RECORD), later(round % 10).then(() => claiming.claimDraft(dana, draft))]);

      // Won: the claim is the draft and the aside entry waits. Lost: the entry was moved in first (the claiming tab keeps its own aside).
      expect(await kept()).toEqual(won ? [60] : [40]);
      expect(ends(offered?.manifest)).toEqual(won ? [60] : [40]);
      expect(asides()).toEqual(won ? [[40]] : []);
      localStorage.clear();
    }
  });
});

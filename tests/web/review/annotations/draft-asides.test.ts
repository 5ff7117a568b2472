import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { ASIDE_COPY_PREFIX, MAX_ASIDES_PER_RECORD } from '../../../../src/web/review/annotations/draft-asides.ts';
import { DRAFT_MAX_AGE_MS, createDraftStore, type DraftOwner } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { NOW, RECORD, freshDatabaseName, owner as dana, ruler, stoppedAfterEach, withRuler } from './draft-fixture.ts';

/**
 * Edits kept aside (beside a draft they must not replace) are kept per page: no tab or load of the
 * record replaces or deletes another's, and each is offered in turn at the next open, oldest first.
 */

const eli: DraftOwner = { issuer: dana.issuer, subject: 'eli' };
const stops = stoppedAfterEach();

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

let channels = 0;

/** A page of one browser (database `name`, tab channel `channel`) with r1 open, its clock at `at`. */
function page(name: string, at: number, { user = dana, channel = `draft-asides-test-${++channels}` } = {}) {
  const drafts = createDraftStore({ name, now: () => at });
  const store = new AnnotationStore();
  const sync = new DraftSync({ store, drafts, owner: user, patientId: 'P-7', recordId: RECORD, delayMs: 5, now: () => at, tabChannel: () => new BroadcastChannel(channel) });
  const stop = sync.start();
  stops.push(stop);
  store.load({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
  const addRuler = (x: number) => store.add(ruler(store.getSnapshot().manifest, x));
  /** The tab is closed or reloaded with its edits unsaved. */
  const leave = () => {
    window.dispatchEvent(new Event('pagehide'));
    stop();
  };
  return { drafts, store, sync, addRuler, leave };
}

const offeredEnds = (sync: DraftSync) => sync.getOffer()?.draft.manifest.ruler.map((r) => r.endX);
const asideKeys = () => Object.keys(localStorage).filter((key) => key.startsWith(ASIDE_COPY_PREFIX));
const draft = (x: number, updatedAt: number) => ({ recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(x), updatedAt });

/** Every draft the next open of r1 offers, one after the other (each discarded in turn), as ruler ends. */
async function offeredInTurn(name: string, user = dana): Promise<number[][]> {
  const next = page(name, NOW + 60_000, { user });
  const offered: number[][] = [];
  for (;;) {
    // Each lookup (the first, and the next after a discard) has ended before its offer is read.
    await vi.waitFor(() => expect(next.sync.lookupEnded()).toBe(true));
    const ends = offeredEnds(next.sync);
    if (!ends) return offered;
    offered.push(ends);
    next.sync.discard();
  }
}

describe('edits kept aside by several pages of one user and record', () => {
  it('three loads that each left a stored draft unanswered: all three are offered after it, oldest first, none lost', async () => {
    const name = freshDatabaseName('asides');
    await createDraftStore({ name, now: () => NOW }).saveDraft(dana, draft(50, NOW - 60_000));
    for (const [i, x] of [30, 40, 70].entries()) {
      const load = page(name, NOW + i * 1000);
      await vi.waitFor(() => expect(offeredEnds(load.sync)).toEqual([50]));
      load.addRuler(x); // the offer is ignored, and the page reloaded
      load.leave();
    }
    expect(asideKeys()).toHaveLength(3);

    expect(await offeredInTurn(name)).toEqual([[50], [30], [40], [70]]);
    expect(asideKeys()).toEqual([]);
  });

  it('after the first offered draft is restored and saved, the next page’s edits kept aside are offered', async () => {
    const name = freshDatabaseName('asides');
    createDraftStore({ name, now: () => NOW }).keepAside(dana, draft(30, NOW), 'visit-1');
    createDraftStore({ name, now: () => NOW }).keepAside(dana, draft(40, NOW + 1000), 'visit-2');
    const next = page(name, NOW + 60_000);
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([30]));
    next.sync.restore();
    next.store.markSaved(next.store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');

    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([40]));
    next.sync.restore();
    expect(next.store.getSnapshot().manifest.ruler.map((r) => r.endX)).toEqual([40]);
    expect(asideKeys()).toEqual([]);
  });

  it('three tabs open at once: the first holds the draft, the other two keep theirs beside it; all three are offered', async () => {
    const name = freshDatabaseName('asides');
    const channel = `draft-asides-tabs-${++channels}`;
    const first = page(name, NOW, { channel });
    const second = page(name, NOW + 1000, { channel });
    const third = page(name, NOW + 2000, { channel });
    await vi.waitFor(() => expect([first, second, third].every((tab) => tab.sync.lookupEnded())).toBe(true));
    first.addRuler(30);
    await vi.waitFor(async () => expect((await first.drafts.loadDraft(dana, RECORD))?.manifest.ruler.map((r) => r.endX)).toEqual([30]));
    await vi.waitFor(() => expect(second.sync.tabs.draftHeldElsewhere() && third.sync.tabs.draftHeldElsewhere()).toBe(true));
    second.addRuler(60);
    third.addRuler(90);
    await vi.waitFor(() => expect(asideKeys()).toHaveLength(2));
    [first, second, third].forEach((tab) => tab.leave());

    expect(await offeredInTurn(name)).toEqual([[30], [60], [90]]);
  });

  it('a page that drops its edits kept aside (it saved them) leaves the other pages’ entries', async () => {
    const name = freshDatabaseName('asides');
    const first = createDraftStore({ name, now: () => NOW });
    const second = createDraftStore({ name, now: () => NOW });
    expect(first.keepAside(dana, draft(30, NOW), 'visit-1')).toBe(true);
    expect(second.keepAside(dana, draft(40, NOW + 1000), 'visit-2')).toBe(true);
    first.dropAside(dana, RECORD, 'visit-1');

    expect(asideKeys()).toHaveLength(1);
    expect((await createDraftStore({ name, now: () => NOW }).loadDraft(dana, RECORD))?.manifest.ruler.map((r) => r.endX)).toEqual([40]);
  });

  it('are offered to their user only: another user on the same browser sees none of them', async () => {
    const name = freshDatabaseName('asides');
    createDraftStore({ name, now: () => NOW }).keepAside(eli, draft(30, NOW), 'visit-1');
    createDraftStore({ name, now: () => NOW }).keepAside(eli, draft(40, NOW + 1000), 'visit-2');
    createDraftStore({ name, now: () => NOW }).keepAside(dana, draft(70, NOW + 2000), 'visit-3');

    expect(await offeredInTurn(name, dana)).toEqual([[70]]);
    expect(asideKeys()).toHaveLength(2);
    expect(await offeredInTurn(name, eli)).toEqual([[30], [40]]);
  });

  it('are pruned past the draft age, every page’s, and unreadable ones with them', async () => {
    const name = freshDatabaseName('asides');
    const old = NOW - DRAFT_MAX_AGE_MS - 1000;
    createDraftStore({ name, now: () => old }).keepAside(dana, draft(30, old), 'visit-1');
    createDraftStore({ name, now: () => old }).keepAside(eli, draft(40, old), 'visit-2');
    createDraftStore({ name, now: () => NOW }).keepAside(dana, draft(70, NOW), 'visit-3');
    localStorage.setItem(`${ASIDE_COPY_PREFIX}${JSON.stringify([dana.issuer, dana.subject, RECORD])}:torn`, '{"updatedAt": 1');

    const drafts = createDraftStore({ name, now: () => NOW });
    expect(await drafts.pruneDrafts()).toBe(3);
    expect(asideKeys()).toHaveLength(1);
    expect((await drafts.loadDraft(dana, RECORD))?.manifest.ruler.map((r) => r.endX)).toEqual([70]);
  });

  it(`are at most ${MAX_ASIDES_PER_RECORD} per user and record: beyond that the oldest goes, and the console says so`, async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = freshDatabaseName('asides');
    const pages = Array.from({ length: MAX_ASIDES_PER_RECORD + 1 }, () => createDraftStore({ name, now: () => NOW }));
    pages.forEach((drafts, i) => drafts.keepAside(dana, draft(10 * (i + 1), NOW + i * 1000), `visit-${i}`));
    pages[3]?.keepAside(dana, draft(45, NOW + 20_000), 'visit-3'); // a visit writing its own entry again drops nothing
    createDraftStore({ name, now: () => NOW }).keepAside(eli, draft(5, NOW), 'visit-0'); // nor does another user's

    expect(asideKeys()).toHaveLength(MAX_ASIDES_PER_RECORD + 1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain(`the oldest (last edited ${new Date(NOW).toISOString()}) is dropped`);
    const offered = await offeredInTurn(name);
    expect(offered).toEqual([[20], [30], [50], [60], [70], [80], [90], [45]]);
  });
});

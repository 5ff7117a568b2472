import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { createDraftStore } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { NOW, RECORD, freshDatabaseName, owner, ruler, stoppedAfterEach, withRuler } from './draft-fixture.ts';

/**
 * Edits made while a kept draft is still unanswered: while the saved version is first compared with
 * a stored draft (a slow IndexedDB makes that take a while), and while a found draft is offered.
 * They must reach a reload like any other edit, and must not overwrite the draft not yet answered.
 */

const stops = stoppedAfterEach();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** The rulers (their ends) of every draft copy in Web Storage, whatever it is kept under. */
function copiedRulers(): number[][] {
  return Object.keys(localStorage)
    .filter((key) => key.startsWith('ivus-review-draft'))
    .map((key) => JSON.parse(localStorage.getItem(key) ?? 'null').manifest.ruler.map((r: { endX: number }) => r.endX));
}

/**
 * IndexedDB that opens only once the test lets it: every draft operation of a store opened now waits
 * (the store runs them in turn), as on a slow disk. Answers the release.
 */
function slowIndexedDB(): () => void {
  const real = indexedDB;
  let release = () => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal('indexedDB', {
    open(name: string, version?: number) {
      const request = real.open(name, version);
      const listen = request.addEventListener.bind(request) as (type: string, listener: (event: Event) => void) => void;
      Object.assign(request, {
        addEventListener(type: string, listener: (event: Event) => void) {
          listen(type, type === 'success' ? (event) => void opened.then(() => listener.call(request, event)) : listener);
        },
      });
      return request;
    },
    deleteDatabase: (name: string) => real.deleteDatabase(name),
    cmp: (a: unknown, b: unknown) => real.cmp(a, b),
  });
  return release;
}

/** A page with record r1 open (saved: version 2, empty), its drafts in database `name`. */
function page(name: string, delayMs = 5) {
  const drafts = createDraftStore({ name, now: () => NOW });
  const store = new AnnotationStore();
  const sync = new DraftSync({ store, drafts, owner, patientId: 'P-7', recordId: RECORD, delayMs, now: () => NOW });
  stops.push(sync.start());
  store.load({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
  const addRuler = (x: number) => store.add(ruler(store.getSnapshot().manifest, x));
  const stored = () => drafts.settled().then(() => drafts.loadDraft(owner, RECORD));
  return { drafts, store, sync, addRuler, stored };
}

const offeredEnds = (sync: DraftSync) => sync.getOffer()?.draft.manifest.ruler.map((r) => r.endX);

describe('an edit made while the saved version is compared with a stored draft', () => {
  it('is copied at pagehide, and then tracked like any other edit without being offered to its own page', async () => {
    const name = freshDatabaseName('unanswered');
    const release = slowIndexedDB();
    const first = page(name, 60_000);
    first.addRuler(30); // the lookup of a stored draft has not answered yet
    window.dispatchEvent(new Event('pagehide'));
    expect(copiedRulers()).toEqual([[30]]);

    release();
    await vi.waitFor(async () => expect((await first.stored())?.manifest.ruler.map((r) => r.endX)).toEqual([30]));
    expect(first.sync.getOffer()).toBeNull();
    expect(copiedRulers()).toEqual([]);
  });

  it('reaches the next open when the page goes before the lookup answers', async () => {
    const name = freshDatabaseName('unanswered');
    slowIndexedDB(); // never answers: the page is reloaded first
    const first = page(name, 60_000);
    first.addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    vi.unstubAllGlobals();

    const next = page(name);
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([30]));
    next.sync.restore();
    expect(next.store.getSnapshot().manifest.ruler.map((r) => r.endX)).toEqual([30]);
  });

  it('does not overwrite a stored draft the clinician has not been offered yet; both are offered in turn', async () => {
    const name = freshDatabaseName('unanswered');
    await createDraftStore({ name, now: () => NOW }).saveDraft(owner, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: NOW - 60_000 });
    const release = slowIndexedDB();
    const first = page(name, 60_000);
    first.addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    release();
    await vi.waitFor(() => expect(offeredEnds(first.sync)).toEqual([50]));
    expect((await first.stored())?.manifest.ruler.map((r) => r.endX)).toEqual([50]);

    // The reload: the stored draft first, then the edit made beside it.
    const next = page(name);
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([50]));
    next.sync.discard();
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([30]));
    next.sync.restore();
    expect(next.store.getSnapshot().manifest.ruler.map((r) => r.endX)).toEqual([30]);
    await vi.waitFor(async () => expect((await next.stored())?.manifest.ruler.map((r) => r.endX)).toEqual([30]));
  });
});

describe('an edit made while a found draft is offered', () => {
  it('is kept beside it over a reload, and offered once the first is answered', async () => {
    const name = freshDatabaseName('unanswered');
    await createDraftStore({ name, now: () => NOW }).saveDraft(owner, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: NOW - 60_000 });
    const first = page(name);
    await vi.waitFor(() => expect(offeredEnds(first.sync)).toEqual([50]));
    first.addRuler(70); // the offer is ignored
    window.dispatchEvent(new Event('pagehide'));
    expect((await first.stored())?.manifest.ruler.map((r) => r.endX)).toEqual([50]);

    const next = page(name);
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([50]));
    next.sync.discard();
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([70]));
  });

  it('without IndexedDB, is offered after the first and deleted by Discard', async () => {
    vi.stubGlobal('indexedDB', undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = freshDatabaseName('unanswered');
    createDraftStore({ name, now: () => NOW }).saveDraftAtPageEnd(owner, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: NOW - 60_000 });
    const first = page(name);
    await vi.waitFor(() => expect(offeredEnds(first.sync)).toEqual([50]));
    first.addRuler(70);
    window.dispatchEvent(new Event('pagehide'));

    const next = page(name);
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([50]));
    next.sync.discard();
    await vi.waitFor(() => expect(offeredEnds(next.sync)).toEqual([70]));
    next.sync.discard();
    await vi.waitFor(() => expect(next.sync.getOffer()).toBeNull());
    expect(localStorage.length).toBe(0);
    vi.restoreAllMocks();
  });
});

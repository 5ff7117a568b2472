import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore, hasUnsavedChanges } from '../../../../src/web/review/manifest/annotation-store.ts';
import { DRAFT_MAX_AGE_MS, createDraftStore, type AnnotationDraft, type DraftOwner } from '../../../../src/web/review/annotations/draft-store.ts';
import { PAGE_COPY_PREFIX, createDraftPageCopy } from '../../../../src/web/review/annotations/draft-page-copy.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { NOW, RECORD, freshDatabaseName, owner as dana, ruler, stoppedAfterEach, withRuler } from './draft-fixture.ts';

/**
 * The copy of unsaved edits written to Web Storage as the page goes: a reload or a closed tab may
 * end the page before the IndexedDB write begun then finishes.
 */

const eli = { issuer: dana.issuer, subject: 'eli' };
const stops = stoppedAfterEach();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const copyKey = (owner: DraftOwner, recordId = RECORD) => PAGE_COPY_PREFIX + JSON.stringify([owner.issuer, owner.subject, recordId]);
const copyOf = (owner: DraftOwner, recordId = RECORD): { updatedAt: number; manifest: AnnotationManifest } | null =>
  JSON.parse(localStorage.getItem(copyKey(owner, recordId)) ?? 'null');

/** What a page that went before its IndexedDB write finished leaves behind. */
function leaveCopy(owner: DraftOwner, draft: Partial<AnnotationDraft> & Record<string, unknown> = {}, content: DraftOwner = owner): void {
  const value = { key: '', issuer: content.issuer, subject: content.subject, recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(70), updatedAt: NOW - 1000, ...draft };
  localStorage.setItem(copyKey(owner, RECORD), JSON.stringify(value));
}

/** A review of record r1 (saved: version 2, empty unless told) by Dana, with a draft pause of a minute unless told. */
function setUp({ delayMs = 60_000, name = freshDatabaseName('page-copy-test'), drafts = createDraftStore({ name, now: () => NOW }) } = {}) {
  const store = new AnnotationStore();
  const sync = new DraftSync({ store, drafts, owner: dana, patientId: 'P-7', recordId: RECORD, delayMs, now: () => NOW });
  const open = async (saved: AnnotationManifest = emptyManifest()) => {
    stops.push(sync.start());
    store.load({ version: 2, manifest: saved, savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    await vi.waitFor(() => expect(sync.lookupEnded()).toBe(true)); // the lookup of an earlier draft ends
  };
  const stored = () => drafts.settled().then(() => drafts.loadDraft(dana, RECORD));
  const addRuler = (x: number) => store.add(ruler(store.getSnapshot().manifest, x));
  /** The tab's first write claims the record's draft: the page copy is written by the tab that holds it. */
  const hold = async () => {
    sync.flush();
    await vi.waitFor(async () => expect(await stored()).not.toBeNull());
  };
  return { name, drafts, store, sync, open, stored, addRuler, hold };
}

describe('the copy written as the page goes', () => {
  it('is in Web Storage the moment the page is hidden or left, and gone once IndexedDB holds the draft', async () => {
    const { open, addRuler, stored, drafts, hold } = setUp();
    await open();
    addRuler(20);
    await hold();
    addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    // Synchronously: nothing is awaited between the event and this read.
    expect(copyOf(dana)?.manifest.ruler[1]?.endX).toBe(30);
    await drafts.settled();
    expect(copyOf(dana)).toBeNull();
    expect((await stored())?.manifest.ruler[1]?.endX).toBe(30);

    addRuler(40);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    Reflect.deleteProperty(document, 'visibilityState');
    expect(copyOf(dana)?.manifest.ruler).toHaveLength(3);
    await drafts.settled();
  });

  it('is offered at the next open when the page went before IndexedDB had it, and moved there', async () => {
    leaveCopy(dana, { manifest: withRuler(70) });
    const { sync, open, name } = setUp();
    await open();
    await vi.waitFor(() => expect(sync.getOffer()?.draft.manifest.ruler[0]?.endX).toBe(70));
    expect(copyOf(dana)).toBeNull();
    const reader = createDraftStore({ name, now: () => NOW });
    expect((await reader.loadDraft(dana, RECORD))?.manifest.ruler[0]?.endX).toBe(70);
  });

  it('takes the newer of the IndexedDB draft and the copy, either way round', async () => {
    for (const copyIsNewer of [true, false]) {
      const name = freshDatabaseName('page-copy-test');
      const drafts = createDraftStore({ name, now: () => NOW });
      await drafts.saveDraft(dana, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(10), updatedAt: NOW - 5000 });
      leaveCopy(dana, { manifest: withRuler(90), updatedAt: copyIsNewer ? NOW - 1000 : NOW - 9000 });
      const { sync, open } = setUp({ drafts });
      await open();
      await vi.waitFor(() => expect(sync.getOffer()?.draft.manifest.ruler[0]?.endX).toBe(copyIsNewer ? 90 : 10));
      expect(copyOf(dana)).toBeNull();
      stops.splice(0).forEach((stop) => stop());
    }
  });

  it('is never offered again once the edits are saved, discarded or found saved after all', async () => {
    // Saved while the IndexedDB write begun at hiding is still to run.
    const saving = setUp();
    await saving.open();
    saving.addRuler(20);
    await saving.hold();
    saving.addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    expect(copyOf(dana)).not.toBeNull();
    saving.store.markSaved(saving.store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    expect(copyOf(dana)).toBeNull();
    expect(await saving.stored()).toBeNull();
    stops.splice(0).forEach((stop) => stop());

    // Discarded when offered.
    leaveCopy(dana);
    const discarding = setUp();
    await discarding.open();
    await vi.waitFor(() => expect(discarding.sync.getOffer()).not.toBeNull());
    discarding.sync.discard();
    expect(copyOf(dana)).toBeNull();
    expect(await discarding.stored()).toBeNull();
    stops.splice(0).forEach((stop) => stop());

    // The copy says what the server already has.
    leaveCopy(dana, { manifest: withRuler(20) });
    const savedAfterAll = setUp();
    await savedAfterAll.open(withRuler(20));
    await vi.waitFor(async () => expect(await savedAfterAll.stored()).toBeNull());
    expect(savedAfterAll.sync.getOffer()).toBeNull();
    expect(copyOf(dana)).toBeNull();
  });

  it('does not offer an invalid copy, nor another user’s, and deletes what is unreadable', async () => {
    const warn = vi.spyOn(console, 'warn');
    localStorage.setItem(copyKey(dana), '{not json');
    leaveCopy(dana, { manifest: { ruler: 'nonsense' } as unknown as AnnotationManifest }, dana);
    leaveCopy(eli);
    const { sync, open, store } = setUp();
    await open();
    expect(sync.getOffer()).toBeNull();
    expect(localStorage.getItem(copyKey(dana))).toBeNull();
    expect(copyOf(eli)).not.toBeNull(); // Eli's own, for Eli
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);

    // Under Dana's key, but Eli's content: not Dana's to see.
    stops.splice(0).forEach((stop) => stop());
    leaveCopy(dana, {}, eli);
    const second = setUp();
    await second.open();
    expect(second.sync.getOffer()).toBeNull();
    expect(localStorage.getItem(copyKey(dana))).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('is pruned with the IndexedDB drafts once past their age, of every user', async () => {
    const { drafts } = setUp();
    leaveCopy(dana, { updatedAt: NOW - DRAFT_MAX_AGE_MS - 1 });
    localStorage.setItem(copyKey(eli, 'r2'), 'garbage');
    localStorage.setItem(copyKey(eli), JSON.stringify({ updatedAt: NOW - 1000 }));
    localStorage.setItem('theme', 'dark');
    expect(await drafts.pruneDrafts()).toBe(2);
    expect(localStorage.getItem(copyKey(dana))).toBeNull();
    expect(localStorage.getItem(copyKey(eli, 'r2'))).toBeNull();
    expect(localStorage.getItem(copyKey(eli))).not.toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
  });
});

describe('when Web Storage refuses', () => {
  it('goes on with IndexedDB alone when the quota is reached, warning once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const { open, addRuler, stored } = setUp();
    await open();
    addRuler(30);
    // Not kept aside (refused) before the tab's first claim: the claim, which replaces nothing, keeps them.
    expect(() => window.dispatchEvent(new Event('pagehide'))).not.toThrow();
    await vi.waitFor(async () => expect((await stored())?.manifest.ruler).toHaveLength(1));
    addRuler(40);
    window.dispatchEvent(new Event('pagehide'));
    expect((await stored())?.manifest.ruler).toHaveLength(2);
    expect(setItem).toHaveBeenCalledTimes(2); // tried at each pagehide
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('goes on with IndexedDB alone when site data is blocked', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let asked = 0;
    const blocked = () => {
      asked += 1;
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    };
    const name = freshDatabaseName('page-copy-test');
    const drafts = createDraftStore({ name, now: () => NOW, pageCopy: createDraftPageCopy({ storage: blocked, onRefused: (error) => console.warn(error) }) });
    const { open, addRuler, stored, sync } = setUp({ drafts });
    await open();
    expect(sync.getOffer()).toBeNull();
    addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    expect((await stored())?.manifest.ruler).toHaveLength(1);
    await expect(drafts.pruneDrafts()).resolves.toBe(0);
    expect(asked).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalled();
  });

  it('without IndexedDB, the copy alone carries the edits over a reload until they are saved', async () => {
    vi.stubGlobal('indexedDB', undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = setUp();
    await first.open();
    first.addRuler(30);
    window.dispatchEvent(new Event('pagehide'));
    stops.splice(0).forEach((stop) => stop());

    const reloaded = setUp();
    await reloaded.open();
    await vi.waitFor(() => expect(reloaded.sync.getOffer()?.draft.manifest.ruler[0]?.endX).toBe(30));
    reloaded.sync.restore();
    reloaded.store.markSaved(reloaded.store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    expect(copyOf(dana)).toBeNull();
  });
});

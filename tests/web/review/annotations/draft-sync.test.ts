import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore, hasUnsavedChanges } from '../../../../src/web/review/manifest/annotation-store.ts';
import { draftPromptText } from '../../../../src/web/review/annotations/draft-prompt.tsx';
import { ASIDE_COPY_PREFIX } from '../../../../src/web/review/annotations/draft-asides.ts';
import { createDraftStore, type AnnotationDraft } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import { sameJson } from '../../../../src/domain/same-json.ts';
import { NOW, RECORD, freshDatabaseName, owner, ruler, stoppedAfterEach, withRuler } from './draft-fixture.ts';

const stops = stoppedAfterEach();
afterEach(() => localStorage.clear());

/** The rulers (their ends) of the edits kept aside in Web Storage, read as they are (a draft store's read would move them into IndexedDB). */
const asides = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith(ASIDE_COPY_PREFIX))
    .map((key) => (JSON.parse(localStorage.getItem(key) ?? 'null') as { manifest: AnnotationManifest }).manifest.ruler.map((r) => r.endX));

/** A review of record r1 whose server has `version` with `manifest`, with drafts synced `delayMs` after each edit. */
function setUp({ delayMs = 5, existing }: { delayMs?: number; existing?: Partial<AnnotationDraft> } = {}) {
  const drafts = createDraftStore({ name: freshDatabaseName('sync-test'), now: () => NOW });
  const store = new AnnotationStore();
  const sync = new DraftSync({ store, drafts, owner, patientId: 'P-7', recordId: RECORD, delayMs, now: () => NOW });
  const seed = existing
    ? drafts.saveDraft(owner, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest: withRuler(50), updatedAt: new Date(2026, 10, 14, 17, 5).getTime(), ...existing })
    : Promise.resolve();
  const start = async (server: { version: number; manifest: AnnotationManifest } = { version: 2, manifest: emptyManifest() }) => {
    await seed;
    const stop = sync.start();
    stops.push(stop);
    store.load({ ...server, savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    return stop;
  };
  const stored = () => drafts.settled().then(() => drafts.loadDraft(owner, RECORD));
  return { drafts, store, sync, start, stored };
}

describe('keeping unsaved annotations as a draft', () => {
  it('writes the draft as edits are made, with the version they are based on', async () => {
    const { store, start, stored } = setUp();
    await start();
    await vi.waitFor(async () => expect(await stored()).toBeNull());
    store.add(ruler(store.getSnapshot().manifest, 30));
    await vi.waitFor(async () => expect((await stored())?.manifest.ruler[0]?.endX).toBe(30));
    expect(await stored()).toMatchObject({ recordId: RECORD, patientId: 'P-7', baseVersion: 2 });
    store.add(ruler(store.getSnapshot().manifest, 60, 5));
    await vi.waitFor(async () => expect((await stored())?.manifest.ruler).toHaveLength(2));
  });

  it('writes at once when the page is hidden or left, instead of after the pause', async () => {
    const { store, sync, start, stored } = setUp({ delayMs: 60_000 });
    const stop = await start();
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('ready'));
    await vi.waitFor(() => expect(sync.lookupEnded()).toBe(true)); // the lookup of an earlier draft finds none
    store.add(ruler(store.getSnapshot().manifest, 30));
    expect(asides()).toEqual([]);
    // Before its first claim, the tab keeps them beside the draft (another tab may have claimed it meanwhile).
    window.dispatchEvent(new Event('pagehide'));
    expect(asides()).toEqual([[30]]);
    // Shown again, the tab claims the draft with them.
    window.dispatchEvent(new Event('pageshow'));
    await vi.waitFor(() => expect(asides()).toEqual([]));
    expect((await stored())?.manifest.ruler).toHaveLength(1);
    store.add(ruler(store.getSnapshot().manifest, 35, 5));
    window.dispatchEvent(new Event('pagehide')); // the draft is this tab's now: written over at once
    expect((await stored())?.manifest.ruler).toHaveLength(2);

    store.add(ruler(store.getSnapshot().manifest, 40, 6));
    stop(); // the review closes (say, a forced sign-out)
    expect((await stored())?.manifest.ruler).toHaveLength(3);
  });

  it('is not held back by changes that keep nothing (selection, drag previews)', async () => {
    const { store, sync, start, stored } = setUp({ delayMs: 40 });
    await start();
    await vi.waitFor(() => expect(sync.lookupEnded()).toBe(true));
    const drawn = ruler(store.getSnapshot().manifest, 30);
    store.add(drawn);
    const id = store.getSnapshot().selectedId;
    for (let i = 0; i < 12; i++) {
      store.select(i % 2 ? id : null);
      store.setInteraction(i % 2 ? 'selecting' : 'idle');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await stored())?.manifest.ruler).toHaveLength(1);
  });

  it('deletes the draft once the edits are saved, or undone back to the saved version', async () => {
    const { store, start, stored } = setUp();
    await start();
    store.add(ruler(store.getSnapshot().manifest, 30));
    await vi.waitFor(async () => expect(await stored()).not.toBeNull());
    const manifest = store.getSnapshot().history.present;
    store.markSaved(manifest, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    await vi.waitFor(async () => expect(await stored()).toBeNull());

    store.add(ruler(store.getSnapshot().manifest, 70, 8));
    await vi.waitFor(async () => expect(await stored()).toMatchObject({ baseVersion: 3 }));
    store.undo();
    await vi.waitFor(async () => expect(await stored()).toBeNull());
  });

  it('deletes the draft the moment the edits are saved, without the pause: a reload right after Save finds none', async () => {
    const { store, sync, start, stored } = setUp({ delayMs: 60_000 });
    await start();
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('ready'));
    await vi.waitFor(() => expect(sync.lookupEnded()).toBe(true)); // the lookup of an earlier draft finds none
    store.add(ruler(store.getSnapshot().manifest, 30));
    window.dispatchEvent(new Event('pagehide')); // kept aside at once (the pause is a minute here; no claim yet)
    expect(asides()).toEqual([[30]]);
    // A second edit, still in its pause, then Save: nothing of either is left as a draft.
    store.add(ruler(store.getSnapshot().manifest, 60, 5));
    store.markSaved(store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    expect(asides()).toEqual([]);
    expect(await stored()).toBeNull();
  });
});

describe('offering a draft back', () => {
  it('offers a draft that differs from the saved version; Restore makes it unsaved edits on its base version', async () => {
    const { store, sync, start, stored } = setUp({ existing: { baseVersion: 2 } });
    await start({ version: 2, manifest: emptyManifest() });
    await vi.waitFor(() => expect(sync.getOffer()).not.toBeNull());
    const offer = sync.getOffer()!;
    expect(offer.serverVersion).toBe(2);
    expect(draftPromptText(offer)).toBe('You have unsaved annotations from Nov 14, 2026, 5:05 PM on this record (based on version 2).');
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);

    sync.restore();
    expect(sync.getOffer()).toBeNull();
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(true);
    expect(store.getSnapshot().manifest.ruler[0]?.endX).toBe(50);
    expect(store.getSnapshot().version).toBe(2);
    expect(await stored()).not.toBeNull(); // kept until saved
    // One undo step: undoing it is the saved version again.
    store.undo();
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
  });

  it('says when the server moved on since the draft, and restores it on its own base so a save meets the conflict', async () => {
    const { store, sync, start } = setUp({ existing: { baseVersion: 1 } });
    await start({ version: 3, manifest: withRuler(20) });
    await vi.waitFor(() => expect(sync.getOffer()).not.toBeNull());
    expect(draftPromptText(sync.getOffer()!)).toContain(
      '(based on version 1). Version 3 has been saved since: saving will ask whether to keep yours as the next version or load version 3.',
    );
    sync.restore();
    expect(store.getSnapshot().version).toBe(1);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(true);
  });

  it('Discard deletes the draft', async () => {
    const { store, sync, start, stored } = setUp({ existing: {} });
    await start();
    await vi.waitFor(() => expect(sync.getOffer()).not.toBeNull());
    sync.discard();
    expect(sync.getOffer()).toBeNull();
    expect(await stored()).toBeNull();
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
  });

  it('does not overwrite an offered draft with edits made before the answer, and keeps those edits after it', async () => {
    const { store, sync, start, stored } = setUp({ existing: {} });
    await start();
    await vi.waitFor(() => expect(sync.getOffer()).not.toBeNull());
    store.add(ruler(store.getSnapshot().manifest, 99, 9));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await stored())?.manifest.ruler[0]?.endX).toBe(50);
    sync.discard();
    await vi.waitFor(async () => expect((await stored())?.manifest.ruler[0]?.endX).toBe(99));
  });

  it('silently drops a draft that says what the server already has', async () => {
    const { sync, start, stored } = setUp({ existing: { manifest: withRuler(20) } });
    await start({ version: 4, manifest: withRuler(20) });
    await vi.waitFor(async () => expect(await stored()).toBeNull());
    expect(sync.getOffer()).toBeNull();
  });

  it('words a draft made before any save', () => {
    const text = draftPromptText({
      draft: { recordId: RECORD, patientId: 'P-7', baseVersion: 0, manifest: withRuler(1), updatedAt: new Date(2026, 0, 2, 8, 0).getTime() },
      serverVersion: 0,
    });
    expect(text).toMatch(/^You have unsaved annotations from Jan 2, 2026, 8:00 AM on this record \(started before any version was saved\)\.$/);
  });
});

describe('sameJson', () => {
  it('compares JSON values whatever the order of keys', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore, hasUnsavedChanges } from '../../../../src/web/review/manifest/annotation-store.ts';

function loadedStore() {
  const store = new AnnotationStore();
  store.load({ version: 3, manifest: emptyManifest(), savedBy: 'a@demo.test', savedAt: '2026-11-01T00:00:00Z' });
  return store;
}

describe('annotation store', () => {
  it('is loading, accepts no edits, and has nothing unsaved until a version is loaded', () => {
    const store = new AnnotationStore();
    store.add(newRuler(emptyManifest(), 1, { x: 0, y: 0 }, { x: 1, y: 1 }));
    expect(store.getSnapshot().status).toBe('loading');
    expect(store.getSnapshot().manifest.ruler).toHaveLength(0);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
  });

  it('an edit is unsaved until saved; undoing back to the saved state is not', () => {
    const store = loadedStore();
    const ruler = newRuler(store.getSnapshot().manifest, 1, { x: 0, y: 0 }, { x: 10, y: 0 });
    store.add(ruler);
    expect(store.getSnapshot().selectedId).toBe(ruler.id);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(true);
    store.undo();
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
    expect(store.getSnapshot().selectedId).toBeNull();
    store.redo();
    store.markSaved(store.getSnapshot().manifest, 4, 'b@demo.test', '2026-11-02T00:00:00Z');
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
    expect(store.getSnapshot().version).toBe(4);
  });

  it('a drag previews without undo steps; one commit is one undo step', () => {
    const store = loadedStore();
    const ruler = newRuler(store.getSnapshot().manifest, 1, { x: 0, y: 0 }, { x: 10, y: 0 });
    store.add(ruler);
    for (let x = 11; x < 40; x++) store.preview({ ...ruler, endX: x });
    expect(store.getSnapshot().manifest.ruler[0]!.endX).toBe(39);
    expect(store.getSnapshot().history.past).toHaveLength(1);
    store.replace({ ...ruler, endX: 40 });
    expect(store.getSnapshot().history.past).toHaveLength(2);
    store.undo();
    expect(store.getSnapshot().manifest.ruler[0]!.endX).toBe(10);
  });

  it('taking a newer version after a conflict keeps one’s own work one undo away', () => {
    const store = loadedStore();
    const mine = newRuler(store.getSnapshot().manifest, 1, { x: 0, y: 0 }, { x: 10, y: 0 });
    store.add(mine);
    const theirs = { ...emptyManifest(), ruler: [] };
    store.loadOver({ version: 5, manifest: theirs, savedBy: 'c@demo.test', savedAt: '2026-11-03T00:00:00Z' });
    expect(store.getSnapshot().manifest).toBe(theirs);
    expect(store.getSnapshot().version).toBe(5);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
    store.undo();
    expect(store.getSnapshot().manifest.ruler).toHaveLength(1);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(true);
  });
});

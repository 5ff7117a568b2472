import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { annotationsOnSlice } from '../../../../src/domain/annotations/edits.ts';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest, type Point } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore, hasUnsavedChanges } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import type { ToolId } from '../../../../src/web/review/tools/tools.ts';

/** The tool statechart wired to a loaded store as the overlay wires them. */
function wired() {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  const actor = createActor(annotationToolMachine).start();
  actor.on('add', ({ annotation, focusText }) => store.add(annotation, { focusText }));
  actor.on('preview', ({ annotation }) => store.preview(annotation));
  actor.on('replace', ({ annotation }) => store.replace(annotation));
  actor.on('cancelPreview', () => store.cancelPreview());
  actor.on('select', ({ id }) => store.select(id));
  const down = (point: Point, tool: ToolId | null) => {
    const manifest = store.getSnapshot().history.present;
    actor.send({ type: 'pointer.down', point, tool, manifest, annotations: annotationsOnSlice(manifest, 1), slice: 1, hitRadius: 10, dragThreshold: 3, center: { x: 256, y: 256 }, armLength: 100 });
  };
  return { store, actor, down };
}

describe('the tool statechart and the annotation store together', () => {
  it('a click on a saved annotation dirties nothing and adds no undo step', () => {
    const { store, actor, down } = wired();
    down({ x: 0, y: 0 }, 'ruler');
    down({ x: 100, y: 0 }, 'ruler');
    const { history } = store.getSnapshot();
    store.markSaved(history.present, 2, 'a@demo.test', '2026-11-23T00:00:00Z');
    for (const at of [{ x: 100, y: 0 }, { x: 50, y: 0 }]) {
      down(at, null);
      actor.send({ type: 'pointer.move', point: { x: at.x + 1, y: at.y + 1 } });
      actor.send({ type: 'pointer.up', point: { x: at.x + 1, y: at.y + 1 } });
    }
    expect(store.getSnapshot().history).toBe(history);
    expect(store.getSnapshot().manifest).toBe(history.present);
    expect(hasUnsavedChanges(store.getSnapshot())).toBe(false);
    expect(store.getSnapshot().selectedId).toBe('1-ruler-A-#FFE411');
  });

  it('an annotation drawn while redo brings back its label gets a new id', () => {
    const { store, actor, down } = wired();
    store.add(newRuler(store.getSnapshot().manifest, 1, { x: 0, y: 0 }, { x: 50, y: 0 }));
    store.undo();
    // Drawing starts on a manifest without ruler A, so the draft is labelled A...
    down({ x: 200, y: 200 }, 'area');
    expect(actor.getSnapshot().value).toEqual({ pointing: 'area' });
    // ...and redo brings ruler A back before the area is finished.
    store.redo();
    for (let i = 1; i <= 20; i++) {
      const a = (i / 20) * 2 * Math.PI;
      actor.send({ type: 'pointer.move', point: { x: 200 + 40 * Math.cos(a), y: 200 + 40 * Math.sin(a) } });
    }
    expect(() => actor.send({ type: 'pointer.up', point: { x: 240, y: 200 } })).not.toThrow();
    const { manifest, selectedId } = store.getSnapshot();
    expect(manifest.ruler.map((r) => r.label)).toEqual(['A']);
    expect(manifest.area.map((a) => a.label)).toEqual(['B']);
    expect(selectedId).toBe(manifest.area[0]!.id);
  });

  it('a ruler started before an undo and finished after a redo does not collide either', () => {
    const { store, down } = wired();
    store.add(newRuler(store.getSnapshot().manifest, 1, { x: 0, y: 0 }, { x: 50, y: 0 }));
    store.undo();
    down({ x: 300, y: 300 }, 'ruler');
    store.redo();
    expect(() => down({ x: 400, y: 300 }, 'ruler')).not.toThrow();
    expect(new Set(store.getSnapshot().manifest.ruler.map((r) => r.id)).size).toBe(2);
  });
});

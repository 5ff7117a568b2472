import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest, type Point } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore, hasUnsavedChanges } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine, interactionOf, topStateOf } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import type { ToolId } from '../../../../src/web/review/tools/tools.ts';

/** The tool statechart given a loaded store and the slice shown, as the overlay gives them. */
function wired() {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  const actor = createActor(annotationToolMachine, { input: { store, slice: () => 1 } }).start();
  const down = (point: Point, tool: ToolId | null) => {
    actor.send({ type: 'pointer.down', point, tool, hitRadius: 10, dragThreshold: 3, center: { x: 256, y: 256 }, armLength: 100 });
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

/** The interaction as the overlay shows it (data-tool-state). */
const interaction = (h: ReturnType<typeof wired>) => interactionOf(topStateOf(h.actor.getSnapshot()), h.store.getSnapshot().selectedId);

describe('the store alone owns the selection (issue 25)', () => {
  const rulerA = '1-ruler-A-#FFE411';
  const drawRuler = (h: ReturnType<typeof wired>, y: number) => {
    h.down({ x: 0, y }, 'ruler');
    h.down({ x: 100, y }, 'ruler');
  };

  it('a click on an annotation selects it in the store; a click on nothing clears it there', () => {
    const h = wired();
    drawRuler(h, 0);
    h.store.select(null);
    h.down({ x: 50, y: 1 }, null);
    h.actor.send({ type: 'pointer.up', point: { x: 50, y: 1 } });
    expect(h.store.getSnapshot().selectedId).toBe(rulerA);
    expect(interaction(h)).toBe('selecting');
    h.down({ x: 300, y: 300 }, null);
    expect(h.store.getSnapshot().selectedId).toBeNull();
    expect(interaction(h)).toBe('idle');
  });

  it('a move selects what was dragged and keeps it selected, with one undo step', () => {
    const h = wired();
    drawRuler(h, 0);
    drawRuler(h, 200);
    const before = h.store.getSnapshot().history;
    h.down({ x: 50, y: 1 }, null);
    h.actor.send({ type: 'pointer.move', point: { x: 50, y: 30 } });
    h.actor.send({ type: 'pointer.up', point: { x: 50, y: 30 } });
    expect(h.store.getSnapshot().selectedId).toBe(rulerA);
    expect(h.store.getSnapshot().manifest.ruler[0]).toMatchObject({ startY: 29, endY: 29 });
    h.store.undo();
    expect(h.store.getSnapshot().manifest).toBe(before.present);
    expect(h.store.getSnapshot().selectedId).toBe(rulerA);
  });

  it('a selection made elsewhere (a card) is what Delete removes, with no message to the machine', () => {
    const h = wired();
    drawRuler(h, 0);
    drawRuler(h, 200);
    const [a, b] = h.store.getSnapshot().manifest.ruler;
    expect(h.store.getSnapshot().selectedId).toBe(b!.id);
    h.store.select(a!.id);
    expect(interaction(h)).toBe('selecting');
    h.actor.send({ type: 'key.delete' });
    expect(h.store.getSnapshot().manifest.ruler.map((r) => r.id)).toEqual([b!.id]);
    expect(h.store.getSnapshot().selectedId).toBeNull();
    expect(interaction(h)).toBe('idle');
  });

  it('undo of a delete brings the annotation back; a selection undo removed is gone from the tool too', () => {
    const h = wired();
    drawRuler(h, 0);
    h.actor.send({ type: 'key.delete' });
    expect(h.store.getSnapshot().manifest.ruler).toHaveLength(0);
    h.store.undo();
    expect(h.store.getSnapshot().manifest.ruler.map((r) => r.id)).toEqual([rulerA]);
    // Selected again by a click, then undone away: Delete has nothing to remove, the redo brings it back whole.
    h.down({ x: 50, y: 0 }, null);
    h.actor.send({ type: 'pointer.up', point: { x: 50, y: 0 } });
    h.store.undo();
    expect(h.store.getSnapshot().selectedId).toBeNull();
    expect(interaction(h)).toBe('idle');
    h.actor.send({ type: 'key.delete' });
    h.store.redo();
    expect(h.store.getSnapshot().manifest.ruler.map((r) => r.id)).toEqual([rulerA]);
  });

  it('Escape clears the selection in the store', () => {
    const h = wired();
    drawRuler(h, 0);
    h.actor.send({ type: 'key.escape' });
    expect(h.store.getSnapshot().selectedId).toBeNull();
  });

  it('a selection made on a card while a ruler is half drawn ends the drawing, as before', () => {
    const h = wired();
    drawRuler(h, 0);
    h.store.select(null);
    h.down({ x: 0, y: 300 }, 'ruler');
    expect(h.actor.getSnapshot().value).toEqual({ drawing: 'ruler' });
    h.store.select(rulerA);
    expect(interaction(h)).toBe('selecting');
    expect(h.actor.getSnapshot().context.draft).toBeNull();
    expect(h.store.getSnapshot().manifest.ruler).toHaveLength(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { ContourBorder } from '../../../../src/domain/annotations/contour-set.ts';
import { emptyManifest, type Point, type TypedAnnotation } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import type { ToolId } from '../../../../src/web/review/tools/tools.ts';

/** What the machine wrote through the store, in order, as the statechart's outputs. */
type Written =
  | { type: 'add'; annotation: TypedAnnotation; focusText: boolean }
  | { type: 'preview' | 'replace'; annotation: TypedAnnotation }
  | { type: 'cancelPreview' }
  | { type: 'select'; id: string | null }
  | { type: 'remove'; id: string }
  | { type: 'contour.commit'; slice: number; border: ContourBorder; controlPoints: Point[] };

const written: Written[] = [];
// A border correction is a key frame spread over the neighbours (tested in contours/border-corrections): here, only what was committed.
vi.mock('../../../../src/web/review/manifest/border-corrections.ts', () => ({
  commitBorderCorrection: (_store: unknown, slice: number, controlPoints: Point[], border: ContourBorder) => written.push({ type: 'contour.commit', slice, border, controlPoints }),
}));

/** The drag threshold in image pixels for these tests (the overlay derives it from the zoom). */
const THRESHOLD = 3;

/** A machine given a loaded store and the slice shown, as the overlay gives them; what it writes through the store is recorded. */
function harness() {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  written.length = 0;
  const emitted = written;
  const record = <K extends 'add' | 'preview' | 'replace' | 'cancelPreview' | 'select' | 'remove'>(method: K, toEvent: (...args: Parameters<AnnotationStore[K]>) => Written) => {
    const original = store[method].bind(store) as (...args: Parameters<AnnotationStore[K]>) => void;
    (store[method] as (...args: Parameters<AnnotationStore[K]>) => void) = (...args) => {
      emitted.push(toEvent(...args));
      original(...args);
    };
  };
  record('add', (annotation, options) => ({ type: 'add', annotation, focusText: options?.focusText ?? false }));
  record('preview', (annotation) => ({ type: 'preview', annotation }));
  record('replace', (annotation) => ({ type: 'replace', annotation }));
  record('cancelPreview', () => ({ type: 'cancelPreview' }));
  record('select', (id) => ({ type: 'select', id }));
  record('remove', (id) => ({ type: 'remove', id }));
  let shown = 1;
  const actor = createActor(annotationToolMachine, { input: { store, slice: () => shown } }).start();
  const down = (point: Point, tool: ToolId | null, slice = 1) => {
    shown = slice;
    actor.send({ type: 'pointer.down', point, tool, hitRadius: 10, dragThreshold: THRESHOLD, center: { x: 256, y: 256 }, armLength: 100 });
  };
  const move = (x: number, y: number) => actor.send({ type: 'pointer.move', point: { x, y } });
  const up = (x: number, y: number) => actor.send({ type: 'pointer.up', point: { x, y } });
  const ruler = () => {
    down({ x: 0, y: 0 }, 'ruler');
    down({ x: 100, y: 0 }, 'ruler');
    emitted.length = 0;
  };
    /** The machine's state; at rest it is `selecting` while the store has a selection. */
  const state = () => {
    const { value } = actor.getSnapshot();
    return value === 'idle' && store.getSnapshot().selectedId !== null ? 'selecting' : value;
  };
  return { actor, store, emitted, down, move, up, ruler, manifest: () => store.getSnapshot().history.present, state };
}

describe('annotation tool statechart', () => {
  it('ruler: the first click sets the start, a live end follows the pointer, the next click commits', () => {
    const h = harness();
    h.down({ x: 10, y: 10 }, 'ruler');
    expect(h.state()).toEqual({ drawing: 'ruler' });
    h.move(50, 10);
    const draft = h.actor.getSnapshot().context.draft as Extract<TypedAnnotation, { type: 'ruler' }>;
    expect([draft.endX, draft.endY]).toEqual([50, 10]);
    expect(h.manifest().ruler).toHaveLength(0);
    h.down({ x: 110, y: 10 }, 'ruler');
    expect(h.state()).toBe('selecting');
    expect(h.manifest().ruler).toEqual([expect.objectContaining({ id: '1-ruler-A-#FFE411', startX: 10, endX: 110, label: 'A' })]);
    expect(h.actor.getSnapshot().context.draft).toBeNull();
  });

  it('Escape cancels a drawing in progress and keeps nothing', () => {
    const h = harness();
    h.down({ x: 10, y: 10 }, 'ruler');
    h.actor.send({ type: 'key.escape' });
    expect(h.state()).toBe('idle');
    expect(h.manifest().ruler).toHaveLength(0);
    expect(h.actor.getSnapshot().context.draft).toBeNull();
  });

  it('area: pointing until the threshold, then a freehand drag becomes 8 control points', () => {
    const h = harness();
    h.down({ x: 150, y: 100 }, 'area');
    expect(h.state()).toEqual({ pointing: 'area' });
    h.move(151, 101);
    expect(h.state()).toEqual({ pointing: 'area' });
    for (let i = 1; i <= 40; i++) {
      const a = (i / 40) * 2 * Math.PI;
      h.move(100 + 50 * Math.cos(a), 100 + 50 * Math.sin(a));
    }
    expect(h.state()).toEqual({ drawing: 'area' });
    h.up(150, 100);
    expect(h.state()).toBe('selecting');
    expect(h.manifest().area[0]!.controlPoints).toHaveLength(8);
  });

  it('area: a press and release within the threshold draws nothing', () => {
    const h = harness();
    h.down({ x: 300, y: 300 }, 'area');
    h.move(301, 300);
    h.up(301, 300);
    expect(h.manifest().area).toHaveLength(0);
    expect(h.emitted).toEqual([]);
    expect(h.state()).toBe('idle');
  });

  it('text and angle are placed by one click; the angle at the image centre with a right angle', () => {
    const h = harness();
    h.down({ x: 20, y: 30 }, 'text');
    expect(h.emitted.find((e) => e.type === 'add')).toMatchObject({ focusText: true, annotation: { type: 'text', origin: { x: 20, y: 30 }, text: '' } });
    h.down({ x: 400, y: 400 }, 'angle');
    const angle = h.manifest().angle[0]!;
    expect(angle.angle.origin).toEqual({ x: 256, y: 256 });
    expect(angle.label).toBe('B');
    expect(h.store.getSnapshot().selectedId).toBe(angle.id);
  });

  it('a handle: pointing, then resizing past the threshold; previews, then commits once', () => {
    const h = harness();
    h.ruler();
    h.down({ x: 106, y: 5 }, null); // 7.8 px from the end: hit
    expect(h.state()).toEqual({ pointing: 'handle' });
    h.move(107, 6);
    expect(h.state()).toEqual({ pointing: 'handle' });
    expect(h.emitted.map((e) => e.type)).toEqual(['select']);
    h.move(150, 0);
    expect(h.state()).toBe('resizing');
    h.up(150, 0);
    expect(h.state()).toBe('selecting');
    expect(h.emitted.map((e) => e.type)).toEqual(['select', 'preview', 'replace']);
    expect(h.manifest().ruler[0]!.endX).toBe(150);
  });

  it('a body: pointing, then moving past the threshold', () => {
    const h = harness();
    h.ruler();
    h.down({ x: 60, y: 2 }, null); // on the line, far from both ends
    expect(h.state()).toEqual({ pointing: 'body' });
    h.move(60, 12);
    expect(h.state()).toBe('moving');
    h.up(60, 12);
    expect(h.manifest().ruler[0]).toMatchObject({ startY: 10, endY: 10, startX: 0, endX: 100 });
  });

  it('a click on a handle or a body (even with a jitter under the threshold) selects and changes nothing', () => {
    const h = harness();
    h.ruler();
    const before = h.manifest();
    h.down({ x: 100, y: 0 }, null);
    h.move(101, 1);
    h.up(101, 1);
    h.down({ x: 50, y: 0 }, null);
    h.up(50, 0);
    expect(h.state()).toBe('selecting');
    expect(h.emitted.map((e) => e.type)).toEqual(['select', 'select']);
    expect(h.manifest()).toBe(before);
  });

  it('a click too far away misses; Delete removes the selected annotation', () => {
    const h = harness();
    h.ruler();
    h.down({ x: 50, y: 30 }, null);
    expect(h.state()).toBe('idle');
    expect(h.store.getSnapshot().selectedId).toBeNull();
    h.down({ x: 50, y: 3 }, null);
    h.up(50, 3);
    h.actor.send({ type: 'key.delete' });
    expect(h.emitted.at(-1)).toEqual({ type: 'remove', id: '1-ruler-A-#FFE411' });
    expect(h.state()).toBe('idle');
  });

  it('Escape while dragging puts the annotation back; while pointing it only ends the press', () => {
    const h = harness();
    h.ruler();
    h.down({ x: 100, y: 0 }, null);
    h.actor.send({ type: 'key.escape' });
    expect(h.state()).toBe('selecting');
    h.down({ x: 100, y: 0 }, null);
    h.move(200, 0);
    h.actor.send({ type: 'key.escape' });
    expect(h.emitted.at(-1)).toEqual({ type: 'cancelPreview' });
    expect(h.manifest().ruler[0]!.endX).toBe(100);
  });

  it("a note's grip: a click selects it, a drag past the threshold moves it", () => {
    const h = harness();
    h.down({ x: 20, y: 30 }, 'text');
    const note = h.manifest().text[0]!;
    h.emitted.length = 0;
    const grip = (x: number, y: number) =>
      h.actor.send({ type: 'grip.down', annotation: { ...note, type: 'text' }, point: { x, y }, dragThreshold: THRESHOLD });
    grip(200, 200);
    expect(h.state()).toEqual({ pointing: 'body' });
    h.up(201, 200);
    expect(h.emitted.map((e) => e.type)).toEqual(['select']);
    grip(200, 200);
    h.move(210, 220);
    expect(h.state()).toBe('moving');
    h.up(210, 220);
    expect(h.manifest().text[0]!.origin).toEqual({ x: 30, y: 50 });
  });

  it('a contour control point: a click stores nothing, a drag past the threshold is a correction', () => {
    const h = harness();
    const controlPoints = [
      { x: 100, y: 50 },
      { x: 150, y: 100 },
      { x: 100, y: 150 },
      { x: 50, y: 100 },
    ];
    const press = () => h.actor.send({ type: 'contour.down', slice: 7, border: 'lumen', controlPoints, index: 1, point: { x: 150, y: 100 }, dragThreshold: THRESHOLD });
    press();
    expect(h.state()).toEqual({ pointing: 'contour' });
    h.move(151, 101);
    h.up(151, 101);
    expect(h.state()).toBe('idle');
    expect(h.emitted).toEqual([]);
    press();
    h.move(170, 100);
    expect(h.state()).toBe('contouring');
    expect(h.actor.getSnapshot().context.contour?.points[1]).toEqual({ x: 170, y: 100 });
    h.up(180, 100);
    expect(h.emitted).toEqual([{ type: 'contour.commit', slice: 7, border: 'lumen', controlPoints: [controlPoints[0], { x: 180, y: 100 }, controlPoints[2], controlPoints[3]] }]);
    expect(h.actor.getSnapshot().context.contour).toBeNull();
  });

  it('a drag of a vessel control point is a correction of the vessel border; a click on one stores nothing', () => {
    const h = harness();
    const controlPoints = [
      { x: 200, y: 20 },
      { x: 380, y: 200 },
      { x: 200, y: 380 },
      { x: 20, y: 200 },
    ];
    const press = () => h.actor.send({ type: 'contour.down', slice: 3, border: 'vessel', controlPoints, index: 3, point: { x: 20, y: 200 }, dragThreshold: THRESHOLD });
    press();
    h.up(21, 200);
    expect(h.emitted).toEqual([]);
    press();
    h.move(5, 200);
    expect(h.actor.getSnapshot().context.contour).toMatchObject({ border: 'vessel', index: 3 });
    h.up(0, 200);
    expect(h.emitted).toEqual([{ type: 'contour.commit', slice: 3, border: 'vessel', controlPoints: [...controlPoints.slice(0, 3), { x: 0, y: 200 }] }]);
  });

  it('Escape while dragging a contour point stores nothing', () => {
    const h = harness();
    const controlPoints = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 0, y: 10 },
    ];
    h.actor.send({ type: 'contour.down', slice: 1, border: 'vessel', controlPoints, index: 0, point: { x: 0, y: 0 }, dragThreshold: THRESHOLD });
    h.move(20, 20);
    h.actor.send({ type: 'key.escape' });
    expect(h.state()).toBe('idle');
    expect(h.emitted).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { addAnnotation, annotationsOnSlice, updateAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest, type AnnotationManifest, type Point, type TypedAnnotation } from '../../../../src/domain/annotations/manifest.ts';
import { annotationToolMachine, type AnnotationToolEmitted } from '../../../../src/web/review/annotations/annotation-tool.machine.ts';
import type { ToolId } from '../../../../src/web/review/tools/tools.ts';

/** A machine wired to a manifest the way the overlay wires it to the store. */
function harness() {
  let manifest: AnnotationManifest = emptyManifest();
  const emitted: AnnotationToolEmitted[] = [];
  const actor = createActor(annotationToolMachine).start();
  for (const type of ['add', 'preview', 'replace', 'cancelPreview', 'select', 'remove'] as const) {
    actor.on(type, (event) => {
      emitted.push(event);
      if (event.type === 'add') manifest = addAnnotation(manifest, event.annotation);
      if (event.type === 'replace') manifest = updateAnnotation(manifest, event.annotation);
    });
  }
  const down = (point: Point, tool: ToolId | null, slice = 1) =>
    actor.send({
      type: 'pointer.down',
      point,
      tool,
      manifest,
      annotations: annotationsOnSlice(manifest, slice),
      slice,
      hitRadius: 10,
      center: { x: 256, y: 256 },
      armLength: 100,
    });
  return { actor, emitted, down, manifest: () => manifest, state: () => actor.getSnapshot().value };
}

describe('annotation tool statechart', () => {
  it('ruler: the first click sets the start, a live end follows the pointer, the next click commits', () => {
    const h = harness();
    h.down({ x: 10, y: 10 }, 'ruler');
    expect(h.state()).toEqual({ drawing: 'ruler' });
    h.actor.send({ type: 'pointer.move', point: { x: 50, y: 10 } });
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

  it('area: a freehand drag becomes 8 control points; a drag of under 3 points makes nothing', () => {
    const h = harness();
    h.down({ x: 100, y: 100 }, 'area');
    for (let i = 1; i <= 40; i++) {
      const a = (i / 40) * 2 * Math.PI;
      h.actor.send({ type: 'pointer.move', point: { x: 100 + 50 * Math.cos(a), y: 100 + 50 * Math.sin(a) } });
    }
    h.actor.send({ type: 'pointer.up', point: { x: 150, y: 100 } });
    expect(h.manifest().area[0]!.controlPoints).toHaveLength(8);
    h.down({ x: 300, y: 300 }, 'area');
    h.actor.send({ type: 'pointer.move', point: { x: 301, y: 300 } });
    h.actor.send({ type: 'pointer.up', point: { x: 301, y: 300 } });
    expect(h.manifest().area).toHaveLength(1);
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
    expect(h.actor.getSnapshot().context.selectedId).toBe(angle.id);
  });

  it('a handle within the hit radius resizes; a body drag moves; both preview, then commit once', () => {
    const h = harness();
    h.down({ x: 0, y: 0 }, 'ruler');
    h.down({ x: 100, y: 0 }, 'ruler');
    h.emitted.length = 0;
    h.down({ x: 106, y: 5 }, null); // 7.8 px from the end: hit
    expect(h.state()).toBe('resizing');
    h.actor.send({ type: 'pointer.move', point: { x: 150, y: 0 } });
    h.actor.send({ type: 'pointer.up', point: { x: 150, y: 0 } });
    expect(h.emitted.map((e) => e.type)).toEqual(['select', 'preview', 'replace']);
    expect(h.manifest().ruler[0]!.endX).toBe(150);
    h.down({ x: 60, y: 2 }, null); // on the line, far from both ends
    expect(h.state()).toBe('moving');
    h.actor.send({ type: 'pointer.move', point: { x: 60, y: 12 } });
    h.actor.send({ type: 'pointer.up', point: { x: 60, y: 12 } });
    expect(h.manifest().ruler[0]).toMatchObject({ startY: 10, endY: 10, startX: 0, endX: 150 });
  });

  it('a click too far away misses; Delete removes the selected annotation', () => {
    const h = harness();
    h.down({ x: 0, y: 0 }, 'ruler');
    h.down({ x: 100, y: 0 }, 'ruler');
    h.down({ x: 50, y: 30 }, null);
    expect(h.state()).toBe('idle');
    expect(h.actor.getSnapshot().context.selectedId).toBeNull();
    h.down({ x: 50, y: 3 }, null);
    h.actor.send({ type: 'pointer.up', point: { x: 50, y: 3 } });
    h.actor.send({ type: 'key.delete' });
    expect(h.emitted.at(-1)).toEqual({ type: 'remove', id: '1-ruler-A-#FFE411' });
    expect(h.state()).toBe('idle');
  });

  it('Escape while dragging puts the annotation back', () => {
    const h = harness();
    h.down({ x: 0, y: 0 }, 'ruler');
    h.down({ x: 100, y: 0 }, 'ruler');
    h.down({ x: 100, y: 0 }, null);
    h.actor.send({ type: 'pointer.move', point: { x: 200, y: 0 } });
    h.actor.send({ type: 'key.escape' });
    expect(h.emitted.at(-1)).toEqual({ type: 'cancelPreview' });
    expect(h.manifest().ruler[0]!.endX).toBe(100);
  });
});

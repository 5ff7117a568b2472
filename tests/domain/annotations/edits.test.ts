import { describe, expect, it } from 'vitest';
import {
  addAnnotation,
  allAnnotations,
  annotationsOnSlice,
  findAnnotation,
  removeAnnotation,
  typed,
  untyped,
  updateAnnotation,
} from '../../../src/domain/annotations/edits.ts';
import { nextLabelAndColor } from '../../../src/domain/annotations/labels.ts';
import { emptyManifest, parseManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { typedAngle, typedArea, typedRuler, typedText } from './fixtures.ts';

const r1 = typedRuler({ x: 0, y: 0 }, { x: 10, y: 0 }, { slice: 1 });
const a3 = typedArea([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 0, y: 10 }], { slice: 3 });
const t3 = typedText({ x: 5, y: 5 }, 'note', { slice: 3, label: 'B', color: '#FF8E2B' });
const g8 = typedAngle({ x: 50, y: 50 }, 20, { slice: 8 });

function build(...annotations: Parameters<typeof addAnnotation>[1][]): AnnotationManifest {
  return annotations.reduce(addAnnotation, emptyManifest());
}

describe('addAnnotation', () => {
  it('appends to the list of its kind without the type field, and makes its slice the last', () => {
    const before = emptyManifest();
    const after = addAnnotation(before, r1);
    expect(before).toEqual(emptyManifest());
    expect(after.ruler).toEqual([untyped(r1)]);
    expect('type' in after.ruler[0]!).toBe(false);
    expect(after.lastAnnotationSlice).toBe(1);
    expect(addAnnotation(after, g8).lastAnnotationSlice).toBe(8);
  });

  it('gives a manifest the schema accepts', () => {
    expect(parseManifest(JSON.parse(JSON.stringify(build(r1, a3, t3, g8)))).ok).toBe(true);
  });

  it('refuses an id that is already used', () => {
    expect(() => addAnnotation(build(r1), r1)).toThrow(/already exists/);
  });

  it('works with nextLabelAndColor to label one slice A, B, C across kinds', () => {
    const makers = [
      (l: { slice: number; label: string; color: '#FFE411' }) => typedRuler({ x: 0, y: 0 }, { x: 1, y: 1 }, l),
      (l: { slice: number; label: string; color: '#FFE411' }) => typedArea([], l),
      (l: { slice: number; label: string; color: '#FFE411' }) => typedText({ x: 0, y: 0 }, '', l),
    ];
    let m = emptyManifest();
    for (const make of makers) {
      const { label, color } = nextLabelAndColor(m, 2);
      m = addAnnotation(m, make({ slice: 2, label, color: color as '#FFE411' }));
    }
    expect(annotationsOnSlice(m, 2).map((a) => `${a.type}-${a.label}`)).toEqual(['ruler-A', 'area-B', 'text-C']);
  });
});

describe('updateAnnotation', () => {
  it('replaces the annotation with the same id and makes its slice the last', () => {
    const m = build(r1, a3, g8);
    const moved = { ...r1, endX: 99, hideLabel: true };
    const after = updateAnnotation(m, moved);
    expect(after.ruler).toEqual([untyped(moved)]);
    expect(after.area).toBe(m.area);
    expect(after.lastAnnotationSlice).toBe(1);
    expect(m.ruler[0]!.endX).toBe(10);
  });

  it('leaves the manifest as it is for an unknown id', () => {
    const m = build(r1);
    expect(updateAnnotation(m, { ...r1, id: 'nope' })).toBe(m);
  });
});

describe('removeAnnotation', () => {
  it('removes by id whatever the kind', () => {
    const m = build(r1, a3, t3, g8);
    expect(allAnnotations(removeAnnotation(m, t3.id)).map((a) => a.id)).toEqual([r1.id, a3.id, g8.id]);
    expect(removeAnnotation(m, 'nope')).toBe(m);
  });

  it.each<[string, Parameters<typeof addAnnotation>[1][], string[], number]>([
    ['keeps the last slice while it still has annotations', [r1, a3, t3], [a3.id], 3],
    ['keeps the last slice when another slice loses one', [a3, r1, g8, t3], [g8.id], 3],
    ['moves to the nearest annotated slice when the last one empties', [r1, g8, a3, t3], [t3.id, a3.id], 1],
    ['moves to the nearest annotated slice below', [r1, g8, a3], [a3.id], 1],
    ['moves to the nearest annotated slice from above', [r1, a3, g8], [g8.id], 3],
    ['is 0 once nothing is left', [r1, g8], [r1.id, g8.id], 0],
  ])('%s', (_, annotations, ids, last) => {
    const m = ids.reduce(removeAnnotation, build(...annotations));
    expect(m.lastAnnotationSlice).toBe(last);
  });

  it('prefers the lower of two equally near slices', () => {
    const m = build(
      typedRuler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice: 2 }),
      typedRuler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice: 6 }),
      typedRuler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice: 4 }),
    );
    expect(removeAnnotation(m, '4-ruler-A-#FFE411').lastAnnotationSlice).toBe(2);
  });
});

describe('reading annotations', () => {
  it('lists the annotations of one slice with their kinds', () => {
    const m = build(r1, a3, t3, g8);
    expect(annotationsOnSlice(m, 3)).toEqual([a3, t3]);
    expect(annotationsOnSlice(m, 2)).toEqual([]);
    expect(findAnnotation(m, g8.id)).toEqual(g8);
    expect(findAnnotation(m, 'nope')).toBeNull();
  });

  it('typed and untyped convert back and forth', () => {
    expect(typed('text', untyped(t3))).toEqual(t3);
  });
});

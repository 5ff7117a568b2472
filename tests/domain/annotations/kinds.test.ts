import { describe, expect, it } from 'vitest';
import { CURVE_SAMPLES_PER_SEGMENT } from '../../../src/domain/annotations/curves.ts';
import type { Handle, HitHandle } from '../../../src/domain/annotations/kinds/annotation-kind.ts';
import { ANNOTATION_KINDS, kindOf, measureAnnotation } from '../../../src/domain/annotations/kinds/index.ts';
import { ANNOTATION_TYPES, type Point, type TypedAnnotation } from '../../../src/domain/annotations/manifest.ts';
import { circle, typedAngle, typedArea, typedRuler, typedText } from './fixtures.ts';

/** One annotation of every kind, none of them symmetric about the moves below. */
const samples: TypedAnnotation[] = [
  typedRuler({ x: 40, y: 50 }, { x: 340, y: 450 }),
  typedArea([{ x: 100, y: 100 }, { x: 220, y: 90 }, { x: 260, y: 200 }, { x: 170, y: 280 }, { x: 80, y: 210 }]),
  typedAngle({ x: 300, y: 300 }, 120),
  typedText({ x: 75, y: 125 }, 'plaque'),
];

const DX = 17.5;
const DY = -42.25;
const far: Point = { x: 5000, y: -5000 };

const moved = (p: Point, dx: number, dy: number): Point => ({ x: p.x + dx, y: p.y + dy });

function expectPointClose(actual: Point | undefined, expected: Point) {
  expect(actual).toBeDefined();
  expect(actual!.x).toBeCloseTo(expected.x, 9);
  expect(actual!.y).toBeCloseTo(expected.y, 9);
}

function expectHandlesClose(actual: Handle[], expected: Handle[]) {
  expect(actual.map((h) => h.handle)).toEqual(expected.map((h) => h.handle));
  actual.forEach((h, i) => expectPointClose(h.point, expected[i]!.point));
}

/** A square outline from (x, y) with side `size`, traced with `perSide` points per side. */
function square(x: number, y: number, size: number, perSide: number): Point[] {
  const corners = [{ x, y }, { x: x + size, y }, { x: x + size, y: y + size }, { x, y: y + size }];
  return corners.flatMap((a, side) => {
    const b = corners[(side + 1) % 4]!;
    return Array.from({ length: perSide }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / perSide, y: a.y + ((b.y - a.y) * i) / perSide }));
  });
}

describe('the kind registry', () => {
  it('has a kind for every annotation type, and the samples cover them all', () => {
    expect(Object.keys(ANNOTATION_KINDS).sort()).toEqual([...ANNOTATION_TYPES].sort());
    expect(samples.map((a) => a.type).sort()).toEqual([...ANNOTATION_TYPES].sort());
  });

  it('gives each annotation the kind registered for its type', () => {
    for (const annotation of samples) expect(kindOf(annotation)).toBe(ANNOTATION_KINDS[annotation.type]);
  });
});

describe.each(samples.map((annotation) => [annotation.type, annotation] as const))('the %s kind', (_, annotation) => {
  const kind = kindOf(annotation);
  const handles = kind.handles(annotation);

  it('names each handle once', () => {
    expect(new Set(handles.map((h) => h.handle)).size).toBe(handles.length);
  });

  it('translate moves every handle, its card anchor and its body by (dx, dy)', () => {
    const translated = kind.translate(annotation, DX, DY);
    expectHandlesClose(
      kind.handles(translated),
      handles.map(({ handle, point }) => ({ handle, point: moved(point, DX, DY) })),
    );
    expectPointClose(kind.anchor(translated), moved(kind.anchor(annotation), DX, DY));
    const probe = { x: 210, y: 160 };
    expect(kind.distance(translated, moved(probe, DX, DY))).toBeCloseTo(kind.distance(annotation, probe), 6);
    expect(kind.measure(translated, 0.01)).toEqual(kind.measure(annotation, 0.01));
    expect(translated).toMatchObject({ id: annotation.id, type: annotation.type, label: annotation.label });
  });

  it('translate leaves its argument untouched', () => {
    const before = structuredClone(annotation);
    kind.translate(annotation, DX, DY);
    expect(annotation).toEqual(before);
  });

  it('moveHandle moves that handle to the target and no other', () => {
    for (const { handle } of handles) {
      const to = { x: 123.5, y: 77.25 };
      const after = kind.handles(kind.moveHandle(annotation, handle, to));
      expect(after.map((h) => h.handle)).toEqual(handles.map((h) => h.handle));
      after.forEach((h, i) => expectPointClose(h.point, h.handle === handle ? to : handles[i]!.point));
    }
  });

  it('moveHandle with the body or a handle it does not have changes nothing', () => {
    const own = new Set<HitHandle>(handles.map((h) => h.handle));
    const foreign: HitHandle[] = ['body', 'start', 'end', 'origin', 'control-0', 'control-99'];
    for (const handle of foreign.filter((h) => !own.has(h))) expect(kind.moveHandle(annotation, handle, far)).toBe(annotation);
  });

  it('is at distance 0 on each handle and on its card anchor, and far from a far point', () => {
    for (const { point } of handles) expect(kind.distance(annotation, point)).toBeCloseTo(0, 9);
    if (handles.length === 0) expect(kind.distance(annotation, kind.anchor(annotation))).toBeCloseTo(0, 9);
    expect(kind.distance(annotation, far)).toBeGreaterThan(1000);
  });
});

describe('measure', () => {
  it('gives a ruler its length times the pixel spacing: a 3-4-5 triangle', () => {
    const ruler = typedRuler({ x: 10, y: 20 }, { x: 310, y: 420 });
    expect(kindOf(ruler).measure(ruler, 0.01)).toEqual({ value: '5.00', unit: 'mm' });
    expect(kindOf(ruler).measure(ruler, 0.02)).toEqual({ value: '10.00', unit: 'mm' });
    expect(measureAnnotation(ruler)).toEqual({ value: '5.00', unit: 'mm' });
  });

  it("gives an area traced along a square the square's area", () => {
    // 100 px sides at 0.1 mm/px: 100 mm². The curve rounds the corners a little (about 0.3%).
    const area = typedArea(square(50, 60, 100, 10));
    const measured = kindOf(area).measure(area, 0.1);
    expect(measured?.unit).toBe('mm²');
    expect(Math.abs(Number(measured?.value) - 100)).toBeLessThan(0.5);
  });

  it('measures the smooth curve through the control points, not their polygon', () => {
    // Through its 4 corners alone the curve bulges well beyond the square.
    const corners = typedArea(square(0, 0, 100, 1));
    expect(Number(kindOf(corners).measure(corners, 0.1)?.value)).toBeGreaterThan(110);
    const round = typedArea(circle({ x: 0, y: 0 }, 100, 16));
    expect(Number(kindOf(round).measure(round, 0.01)?.value)).toBeCloseTo(Math.PI, 2);
  });

  it('gives a right angle 90°, and 45° once an arm is turned half way', () => {
    const angle = typedAngle({ x: 200, y: 200 }, 100);
    const kind = kindOf(angle);
    expect(kind.measure(angle, 0.01)).toEqual({ value: '90', unit: '°' });
    expect(kind.measure(kind.moveHandle(angle, 'end', { x: 300, y: 100 }), 0.01)).toEqual({ value: '45', unit: '°' });
  });

  it('gives a text note no measurement', () => {
    const note = typedText({ x: 1, y: 2 });
    expect(kindOf(note).measure(note, 0.01)).toBeNull();
    expect(measureAnnotation(note)).toBeNull();
  });
});

describe('area curves', () => {
  it('resamples the stored curve with the shared sample count when a control point moves', () => {
    const area = samples.find((a) => a.type === 'area')!;
    const after = kindOf(area).moveHandle(area, 'control-2', { x: 300, y: 260 });
    expect(after.type).toBe('area');
    if (after.type !== 'area') return;
    expect(after.points).toHaveLength(after.controlPoints.length * CURVE_SAMPLES_PER_SEGMENT);
    expectPointClose(after.points[2 * CURVE_SAMPLES_PER_SEGMENT], { x: 300, y: 260 });
  });

  it('moves the stored curve with its control points', () => {
    const area = samples.find((a) => a.type === 'area')!;
    const translated = kindOf(area).translate(area, DX, DY);
    if (area.type !== 'area' || translated.type !== 'area') throw new Error('expected areas');
    translated.points.forEach((p, i) => expectPointClose(p, moved(area.points[i]!, DX, DY)));
  });
});

import { describe, expect, it } from 'vitest';
import { HIT_RADIUS_PX } from '../../../src/domain/constants.ts';
import { hitTest } from '../../../src/domain/annotations/hit-test.ts';
import { distanceToSegment } from '../../../src/domain/annotations/kinds/geometry.ts';
import type { Point, TypedAnnotation } from '../../../src/domain/annotations/manifest.ts';
import { circle, typedAngle, typedArea, typedRuler, typedText } from './fixtures.ts';

const R = HIT_RADIUS_PX;
const horizontal = typedRuler({ x: 100, y: 100 }, { x: 300, y: 100 }, { label: 'A' });
const square = typedArea(
  [{ x: 400, y: 400 }, { x: 500, y: 400 }, { x: 500, y: 500 }, { x: 400, y: 500 }],
  { label: 'B', color: '#FF8E2B' },
);
const note = typedText({ x: 50, y: 300 }, 'plaque', { label: 'C', color: '#45FF4F' });
const right = typedAngle({ x: 200, y: 300 }, 80, { label: 'D', color: '#FF461F' }); // arms to (280, 300) and (200, 220)
const all = [horizontal, square, note, right];

describe('distanceToSegment', () => {
  it.each<[Point, Point, Point, number]>([
    [{ x: 5, y: 3 }, { x: 0, y: 0 }, { x: 10, y: 0 }, 3],
    [{ x: -3, y: 4 }, { x: 0, y: 0 }, { x: 10, y: 0 }, 5],
    [{ x: 13, y: 4 }, { x: 0, y: 0 }, { x: 10, y: 0 }, 5],
    [{ x: 3, y: 4 }, { x: 0, y: 0 }, { x: 0, y: 0 }, 5],
  ])('%j to %j-%j is %d', (p, a, b, d) => expect(distanceToSegment(p, a, b)).toBeCloseTo(d, 12));
});

describe('hitTest', () => {
  it.each<[string, Point, ReturnType<typeof hitTest>]>([
    ['a ruler start', { x: 103, y: 104 }, { id: horizontal.id, handle: 'start' }],
    ['a ruler end', { x: 300, y: 90 }, { id: horizontal.id, handle: 'end' }],
    ['a ruler body', { x: 200, y: 108 }, { id: horizontal.id, handle: 'body' }],
    ['just out of reach of a ruler', { x: 200, y: 100 + R + 0.5 }, null],
    ['an area control point', { x: 498, y: 502 }, { id: square.id, handle: 'control-2' }],
    ['an area curve between control points', { x: 450, y: 395 }, { id: square.id, handle: 'body' }],
    ['the middle of an area (not its curve)', { x: 450, y: 450 }, null],
    ['a text origin', { x: 55, y: 305 }, { id: note.id, handle: 'body' }],
    ['an angle vertex', { x: 202, y: 298 }, { id: right.id, handle: 'origin' }],
    ['an angle start arm end', { x: 280, y: 305 }, { id: right.id, handle: 'start' }],
    ['an angle end arm end', { x: 200, y: 212 }, { id: right.id, handle: 'end' }],
    ['an angle arm', { x: 240, y: 296 }, { id: right.id, handle: 'body' }],
    ['an angle arm, the other one', { x: 205, y: 260 }, { id: right.id, handle: 'body' }],
    ['empty space', { x: 700, y: 700 }, null],
  ])('finds %s', (_, point, hit) => expect(hitTest(all, point, R)).toEqual(hit));

  it('tests handles before bodies: a handle of one annotation wins over the body of another', () => {
    // A ruler crossing the angle's start arm end: the point is on the ruler's body, 6 px from the handle.
    const crossing = typedRuler({ x: 286, y: 250 }, { x: 286, y: 350 }, { label: 'E', color: '#CE1FFF' });
    expect(hitTest([right, crossing], { x: 286, y: 300 }, R)).toEqual({ id: right.id, handle: 'start' });
    expect(hitTest([crossing, right], { x: 286, y: 300 }, R)).toEqual({ id: right.id, handle: 'start' });
  });

  it('takes the nearest handle, and the topmost (last) annotation on a tie', () => {
    const a = typedRuler({ x: 0, y: 0 }, { x: 100, y: 0 }, { label: 'A' });
    const b = typedRuler({ x: 6, y: 0 }, { x: 100, y: 50 }, { label: 'B', color: '#FF8E2B' });
    expect(hitTest([a, b], { x: 1, y: 0 }, R)).toEqual({ id: a.id, handle: 'start' });
    expect(hitTest([a, b], { x: 5, y: 0 }, R)).toEqual({ id: b.id, handle: 'start' });
    const twin = { ...a, id: 'twin' } as TypedAnnotation;
    expect(hitTest([a, twin], { x: 0, y: 0 }, R)).toEqual({ id: 'twin', handle: 'start' });
  });

  it('reaches the same screen distance at any zoom when the caller scales the radius', () => {
    const point = { x: 200, y: 100 + 4 }; // 4 image px from the ruler
    expect(hitTest([horizontal], point, R / 2)).not.toBeNull(); // zoom 2: 8 screen px away
    expect(hitTest([horizontal], point, R / 4)).toBeNull(); // zoom 4: 16 screen px away
  });

  it('finds nothing among no annotations, and copes with an area without points', () => {
    expect(hitTest([], { x: 0, y: 0 }, R)).toBeNull();
    expect(hitTest([typedArea([])], { x: 0, y: 0 }, R)).toBeNull();
  });

  it('hits the smooth curve of a round area where the polygon would miss', () => {
    const round = typedArea(circle({ x: 0, y: 0 }, 100, 8));
    // Between two control points the polygon's chord is at 92.4 px from the centre, the curve near 99.
    const onCurve = { x: 99 * Math.cos(Math.PI / 8), y: 99 * Math.sin(Math.PI / 8) };
    expect(hitTest([round], onCurve, 2)).toEqual({ id: round.id, handle: 'body' });
  });
});

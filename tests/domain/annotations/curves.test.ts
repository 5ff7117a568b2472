import { describe, expect, it } from 'vitest';
import { AREA_CONTROL_POINTS } from '../../../src/domain/constants.ts';
import {
  closedCatmullRomBeziers,
  reduceToControlPoints,
  smoothClosedCurve,
  smoothClosedCurveSvgPath,
} from '../../../src/domain/annotations/curves.ts';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { circle } from './fixtures.ts';

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** The outline of an axis-aligned square, traced with `perSide` points per side. */
function squarePath(size: number, perSide: number): Point[] {
  const path: Point[] = [];
  const corners = [{ x: 0, y: 0 }, { x: size, y: 0 }, { x: size, y: size }, { x: 0, y: size }];
  for (let side = 0; side < 4; side++) {
    const a = corners[side]!;
    const b = corners[(side + 1) % 4]!;
    for (let i = 0; i < perSide; i++) path.push({ x: a.x + ((b.x - a.x) * i) / perSide, y: a.y + ((b.y - a.y) * i) / perSide });
  }
  return path;
}

describe('reduceToControlPoints', () => {
  it(`reduces a freehand path to ${AREA_CONTROL_POINTS} points by default`, () => {
    expect(reduceToControlPoints(circle({ x: 100, y: 100 }, 50, 400))).toHaveLength(8);
  });

  it('spaces the points evenly by arc length around the closed path, from its first point', () => {
    const reduced = reduceToControlPoints(squarePath(80, 40));
    // Perimeter 320, so one point every 40 px: the corners and the middles of the sides.
    expect(reduced).toEqual([
      { x: 0, y: 0 }, { x: 40, y: 0 }, { x: 80, y: 0 }, { x: 80, y: 40 },
      { x: 80, y: 80 }, { x: 40, y: 80 }, { x: 0, y: 80 }, { x: 0, y: 40 },
    ]);
  });

  it('is even by length, not by the number of samples, when the pointer moved at varying speed', () => {
    // Dense samples along the top edge, sparse elsewhere.
    const path = [...Array.from({ length: 100 }, (_, i) => ({ x: (80 * i) / 100, y: 0 })), { x: 80, y: 0 }, { x: 80, y: 80 }, { x: 0, y: 80 }];
    const reduced = reduceToControlPoints(path, 4);
    expect(reduced.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }))).toEqual([
      { x: 0, y: 0 }, { x: 80, y: 0 }, { x: 80, y: 80 }, { x: 0, y: 80 },
    ]);
  });

  it('resamples a sparse path along its outline: a square traced as its corners stays a square, not a circle', () => {
    const corners = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 0, y: 100 }, { x: 0, y: 0 }];
    const reduced = reduceToControlPoints(corners);
    expect(reduced).toHaveLength(8);
    const outline = smoothClosedCurve(reduced);
    const area = Math.abs(outline.reduce((sum, p, i) => { const q = outline[(i + 1) % outline.length]!; return sum + p.x * q.y - q.x * p.y; }, 0)) / 2;
    expect(area).toBeGreaterThan(100 * 100 * 0.9);
    expect(area).toBeLessThan(100 * 100 * 1.1);
  });

  it.each([0, 1, 2])('returns a path of %d points as it is', (n) => {
    const path = circle({ x: 0, y: 0 }, 10, n);
    const reduced = reduceToControlPoints(path);
    expect(reduced).toEqual(path);
    expect(reduced).not.toBe(path);
  });

  it('honours another count', () => {
    const reduced = reduceToControlPoints(circle({ x: 0, y: 0 }, 100, 360), 4);
    expect(reduced).toHaveLength(4);
    reduced.forEach((p) => expect(Math.hypot(p.x, p.y)).toBeCloseTo(100, 0));
  });

  it('copes with a path that never moved', () => {
    expect(reduceToControlPoints(Array.from({ length: 20 }, () => ({ x: 5, y: 5 })))).toHaveLength(8);
  });
});

describe('smoothClosedCurve', () => {
  const controls = circle({ x: 200, y: 150 }, 60, 8);

  it('passes through every control point, 16 samples per segment by default', () => {
    const curve = smoothClosedCurve(controls);
    expect(curve).toHaveLength(8 * 16);
    controls.forEach((c, i) => {
      expect(curve[i * 16]!.x).toBeCloseTo(c.x, 9);
      expect(curve[i * 16]!.y).toBeCloseTo(c.y, 9);
    });
  });

  it('stays close to the circle its control points lie on', () => {
    for (const p of smoothClosedCurve(controls)) expect(Math.abs(dist(p, { x: 200, y: 150 }) - 60)).toBeLessThan(1.5);
  });

  it('is continuous: no jump between consecutive samples, including the closing one', () => {
    const curve = smoothClosedCurve(controls);
    for (let i = 0; i < curve.length; i++) expect(dist(curve[i]!, curve[(i + 1) % curve.length]!)).toBeLessThan(4);
  });

  it('copes with repeated control points and irregular spacing (centripetal, no loops or NaN)', () => {
    const uneven = [{ x: 0, y: 0 }, { x: 0, y: 0 }, { x: 100, y: 0 }, { x: 101, y: 1 }, { x: 100, y: 100 }];
    for (const p of smoothClosedCurve(uneven)) {
      expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
      expect(p.x).toBeGreaterThan(-30);
      expect(p.x).toBeLessThan(130);
    }
  });

  it('returns fewer than 3 control points as they are', () => {
    expect(smoothClosedCurve([{ x: 1, y: 2 }, { x: 3, y: 4 }])).toEqual([{ x: 1, y: 2 }, { x: 3, y: 4 }]);
    expect(smoothClosedCurve([])).toEqual([]);
  });
});

describe('smoothClosedCurveSvgPath', () => {
  it('draws one cubic Bézier per control point and closes', () => {
    const path = smoothClosedCurveSvgPath([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 0, y: 100 }]);
    expect(path.startsWith('M 0 0 C ')).toBe(true);
    expect(path.endsWith(' 0 0 Z')).toBe(true);
    expect(path.match(/C /g)).toHaveLength(4);
    expect(path).not.toMatch(/NaN|Infinity/);
  });

  it('uses the same Béziers as the sampled curve', () => {
    const controls = circle({ x: 0, y: 0 }, 50, 5);
    const [first] = closedCatmullRomBeziers(controls);
    const round = (v: number) => String(Math.round(v * 100) / 100);
    expect(smoothClosedCurveSvgPath(controls)).toContain(`C ${round(first!.c1.x)} ${round(first!.c1.y)} ${round(first!.c2.x)} ${round(first!.c2.y)}`);
  });

  it.each<[Point[], string]>([
    [[], ''],
    [[{ x: 1.234, y: 5 }], 'M 1.23 5'],
    [[{ x: 1, y: 2 }, { x: 3, y: 4 }], 'M 1 2 L 3 4 Z'],
  ])('handles %j', (points, path) => expect(smoothClosedCurveSvgPath(points)).toBe(path));
});

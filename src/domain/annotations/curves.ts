/**
 * Curves of area annotations: the freehand path reduced to a few control points, and the smooth
 * closed curve (centripetal Catmull-Rom) through them, as samples for measuring and hit testing and
 * as an SVG path for drawing. All in image pixels.
 */
import { AREA_CONTROL_POINTS } from '../constants.ts';
import type { Point } from './manifest.ts';

const distance = (a: Point, b: Point) => Math.hypot(b.x - a.x, b.y - a.y);

/**
 * Samples per control point of every sampled smooth curve: an area's stored `points`, its hit testing
 * and its area on the card, and the lumen contours' area and diameters, so what is stored, hit and
 * measured is one polygon. At 16 the polygon of an 8-point area loses about 0.04% of the curve's
 * area (0.16% at 8), and measuring a 16-point contour takes about 0.25 ms, some 5% of detecting it.
 */
export const CURVE_SAMPLES_PER_SEGMENT = 16;

/**
 * `count` points evenly spaced by arc length along the freehand path, taken as the closed loop it
 * outlines (the closing segment from the last point back to the first counts), starting at the
 * path's first point. A sparse path is resampled too: when a busy browser coalesces the pointer's
 * moves, a traced square may arrive as its four corners, and a smooth curve through those alone
 * bulges out to a circle of 1.6 times the area. Only a path of two points or fewer is returned as
 * it is (copied).
 */
export function reduceToControlPoints(path: readonly Point[], count: number = AREA_CONTROL_POINTS): Point[] {
  if (path.length <= 2) return path.map(({ x, y }) => ({ x, y }));
  const loop = [...path, path[0]!];
  const cumulative = [0];
  for (let i = 1; i < loop.length; i++) cumulative.push(cumulative[i - 1]! + distance(loop[i - 1]!, loop[i]!));
  const total = cumulative[cumulative.length - 1]!;
  if (total === 0) return path.slice(0, count).map(({ x, y }) => ({ x, y }));
  const result: Point[] = [];
  let segment = 1;
  for (let k = 0; k < count; k++) {
    const target = (k * total) / count;
    while (segment < loop.length - 1 && cumulative[segment]! < target) segment++;
    const a = loop[segment - 1]!;
    const b = loop[segment]!;
    const length = cumulative[segment]! - cumulative[segment - 1]!;
    const t = length === 0 ? 0 : (target - cumulative[segment - 1]!) / length;
    result.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  }
  return result;
}

/** One cubic Bézier segment: from, two controls, to. */
export type CubicSegment = { from: Point; c1: Point; c2: Point; to: Point };

/** Knot interval of centripetal Catmull-Rom (alpha 0.5), guarded against coincident points. */
function knot(a: Point, b: Point): number {
  const d = Math.sqrt(distance(a, b));
  return d < 1e-6 ? 1 : d;
}

/**
 * The closed centripetal Catmull-Rom spline through every control point, as one cubic Bézier per
 * control point (segment i runs from point i to point i + 1, the last back to the first).
 * Fewer than 3 points give no segments.
 */
export function closedCatmullRomBeziers(controlPoints: readonly Point[]): CubicSegment[] {
  const n = controlPoints.length;
  if (n < 3) return [];
  const at = (i: number) => controlPoints[((i % n) + n) % n]!;
  const segments: CubicSegment[] = [];
  for (let i = 0; i < n; i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    const d0 = knot(p0, p1);
    const d1 = knot(p1, p2);
    const d2 = knot(p2, p3);
    // Hermite tangents of the non-uniform Catmull-Rom segment, scaled to the segment's parameter.
    const tangent = (a: Point, b: Point, c: Point, da: number, db: number) => ({
      x: ((b.x - a.x) / da - (c.x - a.x) / (da + db) + (c.x - b.x) / db) * d1,
      y: ((b.y - a.y) / da - (c.y - a.y) / (da + db) + (c.y - b.y) / db) * d1,
    });
    const m1 = tangent(p0, p1, p2, d0, d1);
    const m2 = tangent(p1, p2, p3, d1, d2);
    segments.push({
      from: { x: p1.x, y: p1.y },
      c1: { x: p1.x + m1.x / 3, y: p1.y + m1.y / 3 },
      c2: { x: p2.x - m2.x / 3, y: p2.y - m2.y / 3 },
      to: { x: p2.x, y: p2.y },
    });
  }
  return segments;
}

function bezierPoint({ from, c1, c2, to }: CubicSegment, t: number): Point {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * from.x + b * c1.x + c * c2.x + d * to.x, y: a * from.y + b * c1.y + c * c2.y + d * to.y };
}

/**
 * Samples of the smooth closed curve through the control points: CURVE_SAMPLES_PER_SEGMENT per
 * control point, the first sample of each segment being its control point; the closing point is not
 * repeated. Fewer than 3 control points are returned as they are (copied). One density for every
 * curve, so that what is drawn, hit and measured (areas, contours) agree.
 */
export function smoothClosedCurve(controlPoints: readonly Point[]): Point[] {
  const segments = closedCatmullRomBeziers(controlPoints);
  if (segments.length === 0) return controlPoints.map(({ x, y }) => ({ x, y }));
  const result: Point[] = [];
  for (const segment of segments) {
    for (let s = 0; s < CURVE_SAMPLES_PER_SEGMENT; s++) result.push(bezierPoint(segment, s / CURVE_SAMPLES_PER_SEGMENT));
  }
  return result;
}

const fmt = (value: number) => String(Math.round(value * 100) / 100);
const pair = (p: Point) => `${fmt(p.x)} ${fmt(p.y)}`;

/**
 * An SVG path (`M … C … Z`, cubic Béziers) of the smooth closed curve through the control points.
 * One point gives a bare move, two a closed straight line, none an empty string.
 */
export function smoothClosedCurveSvgPath(controlPoints: readonly Point[]): string {
  const [first, second] = controlPoints;
  if (!first) return '';
  if (!second) return `M ${pair(first)}`;
  const segments = closedCatmullRomBeziers(controlPoints);
  if (segments.length === 0) return `M ${pair(first)} L ${pair(second)} Z`;
  const curves = segments.map((segment) => `C ${pair(segment.c1)} ${pair(segment.c2)} ${pair(segment.to)}`);
  return `M ${pair(first)} ${curves.join(' ')} Z`;
}

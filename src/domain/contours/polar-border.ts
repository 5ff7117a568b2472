/**
 * A closed border read in polar form about an origin: its radius along each direction, and the
 * border moved along those directions. Key frames (border-propagation.ts) and L-mode drags
 * (lmode-borders.ts) are both radius changes per angle, so both are written with these. Angles are
 * radians in image coordinates (0 along +x, increasing towards +y), radii image pixels. Pure.
 */
import type { Point } from '../annotations/point.ts';
import { measuredOutline, rayExit } from './measurements.ts';

/** Directions an offset between two borders is sampled at: one per 5°, finer than any detected border's control points (16 to 32). */
export const POLAR_ANGLES = 72;

const TWO_PI = 2 * Math.PI;

/** The angle in [0, 2π) of the direction from `origin` to `point`. */
export function angleOf(point: Point, origin: Point): number {
  const angle = Math.atan2(point.y - origin.y, point.x - origin.x);
  return angle < 0 ? angle + TWO_PI : angle;
}

/** Distance from `origin` to the outline (a dense closed polygon) along `angle`; NaN when the ray meets it nowhere. */
export function radiusAlong(outline: readonly Point[], origin: Point, angle: number): number {
  const radius = rayExit(outline, origin, Math.cos(angle), Math.sin(angle));
  return Number.isFinite(radius) ? radius : Number.NaN;
}

/**
 * The border's radius about `origin` at `count` angles, angle i at `start` + 2πi / count, measured
 * on the smooth curve drawn through the control points (so what is shown is what is read).
 */
export function polarRadii(controlPoints: readonly Point[], origin: Point, count: number = POLAR_ANGLES, start = 0): Float64Array {
  const outline = measuredOutline(controlPoints);
  const radii = new Float64Array(count);
  for (let i = 0; i < count; i++) radii[i] = radiusAlong(outline, origin, start + (TWO_PI * i) / count);
  return radii;
}

/** A value sampled at POLAR-style even angles from 0, read at any angle by linear interpolation round the circle. */
export function atAngle(samples: ArrayLike<number>, angle: number): number {
  const n = samples.length;
  const position = ((((angle / TWO_PI) * n) % n) + n) % n;
  const i = Math.floor(position);
  const t = position - i;
  return samples[i % n]! * (1 - t) + samples[(i + 1) % n]! * t;
}

/** Each point moved along its own direction from `origin` to radius `radiusFor(angle, radius)` (never below `minRadius`). */
export function moveRadially(points: readonly Point[], origin: Point, radiusFor: (angle: number, radius: number) => number, minRadius = 0.5): Point[] {
  return points.map((point) => {
    const angle = angleOf(point, origin);
    const radius = Math.max(minRadius, radiusFor(angle, Math.hypot(point.x - origin.x, point.y - origin.y)));
    return { x: origin.x + radius * Math.cos(angle), y: origin.y + radius * Math.sin(angle) };
  });
}

/** The closed border through `radii` about `origin`, sample i at `start` + 2πi / n: its control points. */
export function pointsFromRadii(radii: ArrayLike<number>, origin: Point, start = 0): Point[] {
  const n = radii.length;
  return Array.from({ length: n }, (_, i) => {
    const angle = start + (TWO_PI * i) / n;
    return { x: origin.x + radii[i]! * Math.cos(angle), y: origin.y + radii[i]! * Math.sin(angle) };
  });
}

/** Smallest angle between two directions, in [0, π]. */
export function angularDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % TWO_PI;
  return d > Math.PI ? TWO_PI - d : d;
}

/** Raised cosine from 1 at t = 0 to 0 at t = 1 (0 beyond): a blend with no kink where it starts or where it ends. */
export function raisedCosine(t: number): number {
  if (t <= 0) return 1;
  if (t >= 1) return 0;
  return 0.5 * (1 + Math.cos(Math.PI * t));
}

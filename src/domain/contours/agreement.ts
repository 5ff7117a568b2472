/**
 * How well two closed contours agree, for scoring automatic borders against reference ones.
 *
 * - Dice coefficient: 2 |A ∩ B| / (|A| + |B|) over the pixels whose centres lie inside each contour
 *   (even-odd rule): 1 for identical regions, 0 for disjoint ones.
 * - Hausdorff distance: the largest distance from a point of either contour to the other contour,
 *   max( max_{a ∈ A} d(a, B), max_{b ∈ B} d(b, A) ), measured from every vertex to the nearest
 *   point of the other polygon's edges (both contours are dense polygons, so vertices suffice).
 */
import { distanceToClosedPolyline } from '../annotations/kinds/geometry.ts';
import type { Point } from '../annotations/manifest.ts';

/** Pixels (of a sizePx x sizePx image) whose centres lie inside the closed polygon, as a 0/1 mask. */
export function rasterizePolygon(polygon: readonly Point[], sizePx: number, out = new Uint8Array(sizePx * sizePx)): Uint8Array {
  out.fill(0);
  const n = polygon.length;
  if (n < 3) return out;
  const crossings: number[] = [];
  for (let row = 0; row < sizePx; row++) {
    const y = row + 0.5;
    crossings.length = 0;
    for (let i = 0; i < n; i++) {
      const a = polygon[i]!;
      const b = polygon[(i + 1) % n]!;
      // Half-open in y so a vertex exactly on the scan line counts once.
      if (a.y <= y === b.y <= y) continue;
      crossings.push(a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y));
    }
    crossings.sort((p, q) => p - q);
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      // Pixel centres col + 0.5 within [left, right).
      const first = Math.max(0, Math.ceil(crossings[c]! - 0.5));
      const last = Math.min(sizePx - 1, Math.ceil(crossings[c + 1]! - 0.5) - 1);
      if (last >= first) out.fill(1, row * sizePx + first, row * sizePx + last + 1);
    }
  }
  return out;
}

/** Dice coefficient of the regions inside two closed polygons, rasterised on a sizePx grid. */
export function diceCoefficient(a: readonly Point[], b: readonly Point[], sizePx: number): number {
  const maskA = rasterizePolygon(a, sizePx);
  const maskB = rasterizePolygon(b, sizePx);
  let countA = 0;
  let countB = 0;
  let both = 0;
  for (let p = 0; p < maskA.length; p++) {
    const inA = maskA[p]!;
    const inB = maskB[p]!;
    countA += inA;
    countB += inB;
    both += inA & inB;
  }
  return countA + countB === 0 ? 1 : (2 * both) / (countA + countB);
}

function directedHausdorff(from: readonly Point[], to: readonly Point[]): number {
  let worst = 0;
  for (const p of from) worst = Math.max(worst, distanceToClosedPolyline(p, to));
  return worst;
}

/** Symmetric Hausdorff distance between two closed polygons, in their units (pixels). */
export function hausdorffDistance(a: readonly Point[], b: readonly Point[]): number {
  if (a.length === 0 || b.length === 0) return Infinity;
  return Math.max(directedHausdorff(a, b), directedHausdorff(b, a));
}

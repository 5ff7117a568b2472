/**
 * The lumen radii calcium is read against (slice-calcium.ts lumenRadiiOf) test each ray against the
 * few edges it can cross (issue 23, speed): they must be the radii of testing every edge of the
 * border's curve, bit for bit, whatever the border's shape, including borders that are not
 * star-shaped round the catheter, pass through it, or do not surround it (no radii at all).
 */
import { describe, expect, it } from 'vitest';
import { CALCIUM_RAYS } from '../../../src/domain/calcium/calcium-arc.ts';
import { lumenRadiiOf } from '../../../src/domain/calcium/slice-calcium.ts';
import { measuredOutline, rayExit } from '../../../src/domain/contours/measurements.ts';
import { seededRandom } from '../../../src/domain/random.ts';

type P = { x: number; y: number };

/** Every edge of the curve tested on every ray: how the radii were found before. */
function everyEdgeRadii(points: readonly P[], cx: number, cy: number): Float32Array | null {
  if (points.length < 3) return null;
  const outline = measuredOutline(points);
  const radii = new Float32Array(CALCIUM_RAYS);
  for (let a = 0; a < CALCIUM_RAYS; a++) {
    const angle = (2 * Math.PI * a) / CALCIUM_RAYS;
    const r = rayExit(outline, { x: cx, y: cy }, Math.cos(angle), Math.sin(angle));
    if (!Number.isFinite(r)) return null;
    radii[a] = r;
  }
  return radii;
}

const bits = (radii: Float32Array | null): string | null => (radii === null ? null : Buffer.from(radii.buffer).toString('hex'));

const polar = (count: number, radius: (angle: number, k: number) => number, cx = 250, cy = 250): P[] =>
  Array.from({ length: count }, (_, k) => {
    const angle = (2 * Math.PI * k) / count;
    const r = radius(angle, k);
    return { x: cx + r * Math.cos(angle), y: cy + r * Math.sin(angle) };
  });

describe('lumen radii for calcium', () => {
  const random = seededRandom(2301);
  const shapes: [string, P[]][] = [
    ['a circle round the centre', polar(16, () => 80)],
    ['a circle with its points on the rays (0°, 22.5°, ...)', polar(16, () => 100.5)],
    ...Array.from({ length: 20 }, (_, i): [string, P[]] => [`a noisy border ${i}`, polar(16, () => 40 + 120 * random(), 250 + 30 * (random() - 0.5), 250 + 30 * (random() - 0.5))]),
    ['a crescent (not star-shaped round the centre)', polar(16, (angle) => (Math.cos(angle) > 0.3 ? 30 : 120))],
    ['a border through the centre', [{ x: 250, y: 250 }, { x: 350, y: 200 }, { x: 380, y: 300 }, { x: 300, y: 380 }, { x: 200, y: 330 }]],
    ['a border beside the centre', polar(12, () => 40, 400, 250)],
    ['a dense polygon (measured as it is)', polar(200, (_, k) => 90 + 10 * Math.sin(k / 3))],
    ['a border with a point that is not a number', polar(16, (_, k) => (k === 5 ? Number.NaN : 90))],
    ['two points only', polar(2, () => 90)],
  ];
  it.each(shapes)('gives the radii of testing every edge, bit for bit: %s', (_, points) => {
    expect(bits(lumenRadiiOf(points, 250, 250))).toBe(bits(everyEdgeRadii(points, 250, 250)));
  });

  it('finds the border round the centre, and none where the border does not surround it', () => {
    expect(lumenRadiiOf(polar(16, () => 80), 250, 250)![0]).toBeCloseTo(80, 0);
    expect(lumenRadiiOf(polar(12, () => 40, 400, 250), 250, 250)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { createBorderSearchWorkspace, searchClosedBorder } from '../../../src/domain/contours/border-search.ts';
import { createPolarTable, resamplePolar } from '../../../bench/legacy/polar-resample.ts';

const ANGLES = 90;
const SAMPLES = 60;

/** A cost image whose cheapest sample at angle a is target(a); cost grows with distance from it. */
function costAround(target: (a: number) => number): Float32Array {
  const cost = new Float32Array(ANGLES * SAMPLES);
  for (let a = 0; a < ANGLES; a++) for (let k = 0; k < SAMPLES; k++) cost[a * SAMPLES + k] = Math.abs(k - target(a));
  return cost;
}

function search(cost: Float32Array, maxJump = 2, jumpPenalty = 0.5): Int32Array {
  const path = new Int32Array(ANGLES);
  searchClosedBorder(cost, createBorderSearchWorkspace(ANGLES, SAMPLES), { maxJump, jumpPenalty }, path);
  return path;
}

describe('searchClosedBorder', () => {
  it('follows a smooth closed valley exactly', () => {
    const target = (a: number) => Math.round(30 + 10 * Math.sin((2 * Math.PI * a) / ANGLES));
    const path = search(costAround(target));
    path.forEach((k, a) => expect(k).toBe(target(a)));
  });

  it('closes the border: the last angle joins the first within one allowed jump', () => {
    // A ramp valley from 10 to 50 has a 40-sample cliff between the last angle and the first.
    const path = search(costAround((a) => 10 + (40 * a) / ANGLES));
    for (let a = 0; a < ANGLES; a++) expect(Math.abs(path[(a + 1) % ANGLES]! - path[a]!)).toBeLessThanOrEqual(2);
  });

  it('bridges a stretch without evidence smoothly and ignores a lone outlier', () => {
    const target = (a: number) => (a >= 40 && a < 50 ? 5 : 30);
    const cost = costAround(target);
    // Angles 60-69 carry no information at all.
    for (let a = 60; a < 70; a++) cost.fill(0, a * SAMPLES, (a + 1) * SAMPLES);
    const path = search(cost, 2, 4);
    for (let a = 60; a < 70; a++) expect(path[a]).toBe(30);
    // A 10-angle dip of 25 samples costs more to reach than it saves at this smoothness penalty.
    for (let a = 40; a < 50; a++) expect(path[a]).toBeGreaterThan(15);
  });

  it('rejects an unusable jump limit', () => {
    expect(() => search(costAround(() => 30), 0)).toThrow(RangeError);
  });
});

describe('polar resampling', () => {
  it('reads the radius back from an image whose gray level is the distance to the centre', () => {
    const size = 128;
    const image = new Uint8Array(size * size);
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) image[row * size + col] = Math.round(Math.hypot(col + 0.5 - 64, row + 0.5 - 64));
    }
    const table = createPolarTable({ frameSizePx: size, centreX: 64, centreY: 64, angleCount: 36, firstRadiusPx: 5, sampleCount: 50 });
    const polar = new Float32Array(36 * 50);
    resamplePolar(table, image, polar);
    for (let a = 0; a < 36; a++) {
      for (let k = 0; k < 50; k++) expect(Math.abs(polar[a * 50 + k]! - (5 + k))).toBeLessThan(1);
    }
  });
});

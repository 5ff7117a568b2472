import { describe, expect, it } from 'vitest';
import { createBorderSearchWorkspace, searchClosedBorder } from '../../../src/domain/contours/border-search.ts';
import { createCoarseToFineWorkspace, searchClosedBorderCoarseToFine } from '../../../src/domain/contours/coarse-to-fine-search.ts';

const ANGLES = 90;
const SAMPLES = 61;

/** A cost image whose cheapest sample at angle a is target(a); cost grows with distance from it. */
function costAround(target: (a: number) => number): Float32Array {
  const cost = new Float32Array(ANGLES * SAMPLES);
  for (let a = 0; a < ANGLES; a++) for (let k = 0; k < SAMPLES; k++) cost[a * SAMPLES + k] = Math.abs(k - target(a));
  return cost;
}

function fullSearch(cost: Float32Array, maxJump: number, jumpPenalty: number): Int32Array {
  const path = new Int32Array(ANGLES);
  searchClosedBorder(cost, createBorderSearchWorkspace(ANGLES, SAMPLES), { maxJump, jumpPenalty }, path);
  return path;
}

function coarseToFine(cost: Float32Array, maxJump: number, jumpPenalty: number): Int32Array {
  const path = new Int32Array(ANGLES);
  searchClosedBorderCoarseToFine(cost, createCoarseToFineWorkspace(ANGLES, SAMPLES), { maxJump, jumpPenalty }, path);
  return path;
}

describe('searchClosedBorderCoarseToFine', () => {
  it('places a smooth border to the sample, odd samples included, as the full search does', () => {
    for (const maxJump of [2, 3]) {
      const target = (a: number) => Math.round(31 + 11 * Math.sin((2 * Math.PI * a) / ANGLES));
      const cost = costAround(target);
      const path = coarseToFine(cost, maxJump, 0.5);
      path.forEach((k, a) => expect(k).toBe(target(a)));
      expect([...path]).toEqual([...fullSearch(cost, maxJump, 0.5)]);
    }
  });

  it('keeps the border closed and within the jump limit where the valley has a cliff', () => {
    const path = coarseToFine(costAround((a) => 10 + (40 * a) / ANGLES), 2, 0.5);
    for (let a = 0; a < ANGLES; a++) expect(Math.abs(path[(a + 1) % ANGLES]! - path[a]!)).toBeLessThanOrEqual(2);
  });

  it('bridges a stretch without evidence and ignores a lone dip, as the full search does', () => {
    const cost = costAround((a) => (a >= 40 && a < 50 ? 5 : 30));
    for (let a = 60; a < 70; a++) cost.fill(0, a * SAMPLES, (a + 1) * SAMPLES);
    const path = coarseToFine(cost, 2, 4);
    for (let a = 60; a < 70; a++) expect(path[a]).toBe(30);
    for (let a = 40; a < 50; a++) expect(path[a]).toBeGreaterThan(15);
  });

  it('rejects an unusable jump limit', () => {
    expect(() => coarseToFine(costAround(() => 30), 0, 1)).toThrow(RangeError);
  });
});

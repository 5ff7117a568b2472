import { describe, expect, it } from 'vitest';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { evaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { restoreShoulders } from '../../../src/domain/contours/ostium-shoulders.ts';
import { evaluationFrames } from './evaluation-frames.ts';

// A low-signal-arc case on a tuning seed: frame 1363 of seed 1104 has a side branch's ostium over
// about a third of the circle. The detector finds the branch (its EEM runs out along the branch's
// far wall) and searches the lumen again with the branch's rays blind.
const SEED = 1104;
const FRAME = 1363;

describe('the lumen across a side branch ostium (issue 23)', () => {
  it('follows the true lumen across the ostium, not a line between pulled-in shoulders', () => {
    const { detector, frameOf } = evaluationFrames('low-signal-arc', SEED);
    const { model, pixelSpacingMm } = evaluationCase('low-signal-arc', SEED);
    const section = crossSectionAt(model, FRAME);
    expect(section.branch).not.toBeNull();
    const branch = section.branch!;
    const detection = detector().detect(frameOf(FRAME), null, null);
    const radii = detection.lumen.radiiPx;
    const errors: number[] = [];
    for (let a = 0; a < radii.length; a++) {
      const scene = section.sceneAngleRad((2 * Math.PI * a) / radii.length);
      const offset = Math.atan2(Math.sin(scene - branch.centreAngleRad), Math.cos(scene - branch.centreAngleRad));
      if (Math.abs(offset) > branch.halfArcRad) continue;
      errors.push(radii[a]! * pixelSpacingMm - section.lumenRadiusMm(scene));
    }
    expect(errors.length).toBeGreaterThan(60);
    const meanError = errors.reduce((sum, e) => sum + e, 0) / errors.length;
    // Bridged straight between the shoulders the second search pulled in, it lay 0.107 mm inside on average.
    expect(Math.abs(meanError)).toBeLessThan(0.08);
  }, 60_000);
});

describe('restoreShoulders', () => {
  const n = 360;
  const branchRays = (from: number, to: number): Uint8Array => {
    const mask = new Uint8Array(n);
    for (let a = from; a <= to; a++) mask[a] = 1;
    return mask;
  };

  it('gives back the first search on a pulled-in shoulder that rejoins it', () => {
    const first = new Int32Array(n).fill(100);
    const second = first.slice();
    // The second search climbs over rays 101-120 (20 samples below the first at the run's end).
    for (let a = 101; a <= 120; a++) second[a] = 100 - (121 - a);
    const branch = branchRays(40, 100);
    expect(restoreShoulders(second, first, branch, branch.slice(), 7)).toBe(20);
    expect(Array.from(second.subarray(101, 121))).toEqual(new Array(20).fill(100));
  });

  it('keeps the second search where the first ran out along the branch beside the run', () => {
    const first = new Int32Array(n).fill(100);
    for (let a = 101; a <= 110; a++) first[a] = 160;
    const second = new Int32Array(n).fill(100);
    for (let a = 101; a <= 110; a++) second[a] = 98;
    const branch = branchRays(40, 100);
    expect(restoreShoulders(second, first, branch, branch.slice(), 7)).toBe(0);
    expect(second[105]).toBe(98);
  });
});

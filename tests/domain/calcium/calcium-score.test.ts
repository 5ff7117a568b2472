import { describe, expect, it } from 'vitest';
import { calciumScore, longestRun, meanDiameterMm, type CalciumSlice } from '../../../src/domain/calcium/calcium-score.ts';

const STEP = 0.25;
/** Slices every STEP mm: arcs as given, a nodule where flagged, the same EEM diameter everywhere unless given. */
function slices(arcs: readonly (number | null)[], options: { nodule?: readonly number[]; diameterMm?: number } = {}): CalciumSlice[] {
  return arcs.map((arcDeg, index) => ({
    positionMm: index * STEP,
    arcDeg,
    nodule: options.nodule?.includes(index) ?? false,
    vesselDiameterMm: arcDeg === null ? null : (options.diameterMm ?? 4),
  }));
}
const repeat = (value: number | null, count: number): (number | null)[] => Array.from({ length: count }, () => value);

describe('IVUS calcium score', () => {
  it('scores nothing on a pullback without calcium, and says there is no largest arc', () => {
    const score = calciumScore(slices(repeat(0, 40), { diameterMm: 3 }), STEP);
    expect(score.total).toBe(0);
    expect(score.maxArc).toBeNull();
    // No calcium, so no vessel point either: the score is about calcified lesions.
    expect(score.smallVessel.point).toBe(0);
  });

  it('gives the long-arc point for > 270° over more than 5 mm, not for 5 mm or less', () => {
    const long = calciumScore(slices([...repeat(0, 4), ...repeat(300, 21), ...repeat(0, 4)]), STEP);
    expect(long.longArc.run?.lengthMm).toBeCloseTo(21 * STEP);
    expect(long.longArc.point).toBe(1);
    const short = calciumScore(slices([...repeat(0, 4), ...repeat(300, 20), ...repeat(0, 4)]), STEP);
    expect(short.longArc.run?.lengthMm).toBeCloseTo(5);
    expect(short.longArc.point).toBe(0);
    // 270° itself is not more than 270°.
    expect(calciumScore(slices(repeat(270, 40)), STEP).longArc.point).toBe(0);
  });

  it('gives the 360° point for any frame closed round, the nodule point for a nodule seen over 0.4 mm, and the vessel point under 3.5 mm', () => {
    const score = calciumScore(slices([0, 90, 200, 360, 200, 80, 80, 0], { nodule: [5, 6], diameterMm: 3.2 }), STEP);
    expect(score.circumferential).toEqual({ point: 1, index: 3 });
    expect(score.nodule.point).toBe(1);
    expect(score.smallVessel.point).toBe(1);
    expect(score.total).toBe(3);
    // One frame of nodule alone is not enough (speckle can do that).
    expect(calciumScore(slices([0, 80, 80, 0], { nodule: [1] }), STEP).nodule.point).toBe(0);
  });

  it('measures the vessel beside wide calcium, where the EEM is not in shadow', () => {
    // 360° calcium in the middle hides the EEM (its detected diameter is a guess: 2 mm); beside it the EEM reads 4 mm.
    const arcs = [...repeat(100, 6), ...repeat(360, 6), ...repeat(100, 6)];
    const input = slices(arcs).map((slice) => ({ ...slice, vesselDiameterMm: slice.arcDeg === 360 ? 2 : 4 }));
    const score = calciumScore(input, STEP);
    expect(score.smallVessel.diameterMm).toBe(4);
    expect(score.smallVessel.point).toBe(0);
  });

  it('does not let an unread frame break a run, nor count it, unless the gap passes 0.5 mm', () => {
    const bridged = longestRun(slices([300, 300, null, 300, 300]), STEP, (s) => s.arcDeg! > 270);
    expect(bridged).toEqual({ first: 0, last: 4, lengthMm: 5 * STEP });
    const broken = longestRun(slices([300, 300, null, null, null, 300]), STEP, (s) => s.arcDeg! > 270);
    expect(broken?.lengthMm).toBeCloseTo(2 * STEP);
    // A read frame without calcium always ends the run.
    expect(longestRun(slices([300, 0, 300]), STEP, (s) => s.arcDeg! > 270)?.lengthMm).toBeCloseTo(STEP);
  });

  it('takes the EEM mean diameter from its area', () => {
    expect(meanDiameterMm(Math.PI * 1.75 ** 2)).toBeCloseTo(3.5);
  });
});

import { describe, expect, it } from 'vitest';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx, truthContours } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { evaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { DEFAULT_EXCLUDED_RADIUS_MM, DEFAULT_OUTER_BAND_MM, regionStatistics, type RegionStatistics } from '../../../src/domain/synthetic/region-statistics.ts';
import type { TissueLevelKind } from '../../../src/domain/synthetic/tissue-levels.ts';
import { regionMean } from './frame-sampling.ts';

/**
 * Calibration of the 20 MHz coronary look on issue 23's real frames (24 frames of 20 MHz coronary
 * pullbacks, 500 x 500 px at 0.02 mm/px, 8-bit, regions from the expert borders):
 *   lumen blood: mean 11 (per frame 8-15), 90th percentile ≈ 29, std ≈ 15;
 *   plaque between the borders: median 52 (per frame 27-81), speckled;
 *   the 0.5 mm band outside the vessel: mean 125 (per frame 88-180); on bright-adventitia frames
 *   150-180, with the plaque's median at 60-68.
 * The same statistics are measured here on generated frames, the regions from the truth borders,
 * over many pullbacks and positions along them.
 */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

function measure(kind: TissueLevelKind): RegionStatistics[] {
  const all: RegionStatistics[] = [];
  for (const seed of SEEDS) {
    const model = createPullbackModel({ seed, frameCount: 1800, frameSizePx: 500, pixelSpacingMm: 0.02, look: '20mhz-coronary', hardCases: { tissueLevels: kind } });
    const renderer = createBmodeRenderer(model);
    // Distal, mid (the lesion's shoulder), at the lesion, proximal: small lumens and large ones.
    for (const frame of [150 + seed * 37, 600 + seed * 23, 900, 1300 + seed * 29]) {
      const truth = truthContours(model, frame);
      all.push(
        regionStatistics(renderer.renderFrame(frame), truth.lumen, truth.vessel, {
          frameWidth: 500,
          frameHeight: 500,
          pixelSpacingMm: 0.02,
          centre: catheterCentrePx(model),
          excludedRadiusMm: DEFAULT_EXCLUDED_RADIUS_MM,
          outerBandMm: DEFAULT_OUTER_BAND_MM,
        }),
      );
    }
  }
  return all;
}

const average = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const share = (values: readonly number[], low: number, high: number): number => values.filter((v) => v >= low && v <= high).length / values.length;

describe('the 20 MHz coronary look, calibrated on real frames', () => {
  const typical = measure('typical');
  const bright = measure('bright-adventitia');

  it('shows blood nearly black: lumen mean about 11, 90th percentile about 29, std about 15', () => {
    const means = typical.map((s) => s.lumen.mean);
    expect(average(means)).toBeGreaterThanOrEqual(8);
    expect(average(means)).toBeLessThanOrEqual(13);
    // Per frame the real set spans 8-15; small lumens at the lesion pick up the wall's and the wire's edges.
    expect(share(means, 8 - 2, 15 + 2)).toBeGreaterThanOrEqual(0.85);
    for (const mean of means) expect(mean).toBeLessThan(20);
    expect(median(typical.map((s) => s.lumen.p90))).toBeGreaterThanOrEqual(22);
    expect(median(typical.map((s) => s.lumen.p90))).toBeLessThanOrEqual(36);
    expect(median(typical.map((s) => s.lumen.std))).toBeGreaterThanOrEqual(11);
    expect(median(typical.map((s) => s.lumen.std))).toBeLessThanOrEqual(19);
  });

  it('shows plaque at median grey about 52, spread over the real per-frame range 27-81', () => {
    const medians = typical.map((s) => s.plaque.median);
    expect(median(medians)).toBeGreaterThanOrEqual(45);
    expect(median(medians)).toBeLessThanOrEqual(60);
    expect(share(medians, 27 - 3, 81 + 3)).toBe(1);
    // Frames differ as the real ones do: some plaques dark (below 40), some bright (above 65).
    expect(medians.some((m) => m < 40)).toBe(true);
    expect(medians.some((m) => m > 65)).toBe(true);
  });

  it('shows the 0.5 mm band outside the vessel at mean about 125, within the real 88-180', () => {
    const bands = typical.map((s) => s.outerBand.mean);
    expect(average(bands)).toBeGreaterThanOrEqual(110);
    expect(average(bands)).toBeLessThanOrEqual(140);
    expect(share(bands, 88 - 3, 180)).toBe(1);
  });

  it('makes bright-adventitia frames: band 150-180 against which a plaque of median 60-68 looks dark', () => {
    const bands = bright.map((s) => s.outerBand.mean);
    expect(median(bands)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...bands)).toBeLessThanOrEqual(185);
    expect(share(bands, 150, 185)).toBeGreaterThanOrEqual(0.6);
    const plaque = bright.map((s) => s.plaque.median);
    expect(average(plaque)).toBeGreaterThanOrEqual(58);
    expect(average(plaque)).toBeLessThanOrEqual(70);
    // Relative to the adventitia the plaque is dark (under half its grey) ...
    for (const s of bright) expect(s.plaque.median / s.outerBand.mean).toBeLessThan(0.5);
  });

  it('keeps blood darker than plaque in absolute terms, not only relative to the adventitia', () => {
    for (const s of [...typical, ...bright]) expect(s.lumen.mean).toBeLessThan(0.5 * s.plaque.median);
  });
});

describe('low-signal arcs of the coronary cases', () => {
  it('cover up to a third of the circumference, dark behind, while the true EEM goes on smoothly across', () => {
    for (const seed of [1101, 1102, 1103, 2201, 2202]) {
      const evaluation = evaluationCase('low-signal-arc', seed);
      const frame = evaluation.frames[8]!;
      const section = crossSectionAt(evaluation.model, frame.frameIndex);
      const arc = section.calcium !== null && section.calcium.halfArcRad > (section.branch?.halfArcRad ?? 0) ? section.calcium : section.branch!;
      expect(2 * arc.halfArcRad).toBeGreaterThan((2 * Math.PI) / 5);
      expect(2 * arc.halfArcRad).toBeLessThanOrEqual((2 * Math.PI) / 3 + 1e-9);
      const inside = (angle: number): boolean => Math.abs(Math.atan2(Math.sin(angle - arc.centreAngleRad), Math.cos(angle - arc.centreAngleRad))) < 0.7 * arc.halfArcRad;
      const outside = (angle: number): boolean =>
        Math.abs(Math.atan2(Math.sin(angle - arc.centreAngleRad), Math.cos(angle - arc.centreAngleRad))) > arc.halfArcRad + 0.4 &&
        Math.abs(Math.atan2(Math.sin(angle - section.guidewire.angleRad), Math.cos(angle - section.guidewire.angleRad))) > 0.5;
      const pixels = evaluation.render(8);
      const band = (includes: (angle: number) => boolean): number =>
        regionMean(evaluation.model, pixels, { radiiMm: (a) => [section.vesselRadiusMm(a), section.vesselRadiusMm(a) + 0.5], includes }).mean;
      // Low signal: the band behind the arc is far darker than the band elsewhere.
      expect(band(inside)).toBeLessThan(0.6 * band(outside));
      // The EEM across the arc is as smooth as elsewhere: no step, no dip towards the lumen.
      const step = 0.01;
      let worstBend = 0;
      for (let a = arc.centreAngleRad - arc.halfArcRad; a < arc.centreAngleRad + arc.halfArcRad; a += step) {
        const bend = Math.abs(section.vesselRadiusMm(a - step) - 2 * section.vesselRadiusMm(a) + section.vesselRadiusMm(a + step)) / (step * step);
        worstBend = Math.max(worstBend, bend);
      }
      expect(worstBend).toBeLessThan(12);
      for (let a = arc.centreAngleRad - arc.halfArcRad; a < arc.centreAngleRad + arc.halfArcRad; a += 0.05) {
        expect(section.vesselRadiusMm(a) - section.lumenRadiusMm(a)).toBeGreaterThan(0.15);
      }
    }
  });
});

describe('calibrated levels as an option', () => {
  it('leave the anatomy and the other features of a seed as they were', () => {
    const options = { seed: 7, frameCount: 900, frameSizePx: 500, pixelSpacingMm: 0.02, look: '20mhz-coronary' as const };
    const plain = createPullbackModel({ ...options, hardCases: { sideBranch: true, echolucentPlaque: true } });
    const levelled = createPullbackModel({ ...options, hardCases: { sideBranch: true, echolucentPlaque: true, tissueLevels: 'bright-adventitia' } });
    expect(levelled.anatomy).toEqual(plain.anatomy);
    expect({ ...levelled.hardCases, tissueLevels: undefined }).toEqual({ ...plain.hardCases, tissueLevels: undefined });
    expect(plain.hardCases?.tissueLevels).toBeUndefined();
    // Only the arcs widen under wideArcs: the branch's sector, to at most a third of the circle.
    const wide = createPullbackModel({ ...options, hardCases: { sideBranch: true, echolucentPlaque: true, wideArcs: true } });
    expect(wide.hardCases?.branch?.centreMm).toBe(plain.hardCases?.branch?.centreMm);
    expect(wide.hardCases!.branch!.maxHalfArcRad).toBeGreaterThan(plain.hardCases!.branch!.maxHalfArcRad);
    expect(wide.hardCases!.wideArcHalfRad!).toBeLessThanOrEqual(Math.PI / 3);
  });
});

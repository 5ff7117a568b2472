import { describe, expect, it } from 'vitest';
import { createBmodeRenderer, renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { minimalLumenFrame } from '../../../src/domain/synthetic/contours.ts';
import { angleDifferenceRad, crossSectionAt, type CrossSection } from '../../../src/domain/synthetic/cross-section.ts';
import { createPullbackModel, type PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { regionMean } from './frame-sampling.ts';

const model = createPullbackModel({ seed: 3, frameCount: 3600 });

function differingPixels(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) count++;
  return count;
}

function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += Math.abs(a[k]! - b[k]!);
  return sum / a.length;
}

/** Angles clear of the guidewire's shadow and of the calcium arc (and its shadow). */
function unobstructed(section: CrossSection): (angleRad: number) => boolean {
  return (angle) =>
    Math.abs(angleDifferenceRad(angle, section.guidewire.angleRad)) > 0.6 &&
    (section.calcium === null || Math.abs(angleDifferenceRad(angle, section.calcium.centreAngleRad)) > section.calcium.halfArcRad + 0.3);
}

function calciumFrame(m: PullbackModel): number {
  return Math.round((m.anatomy.calcium.centreMm / m.pullbackSpeedMmPerS) * m.frameRateHz);
}

describe('renderBmodeFrame', () => {
  it('gives a 512x512 8-bit frame, black outside the circular field of view', () => {
    const frame = renderBmodeFrame(model, 100);
    expect(frame).toBeInstanceOf(Uint8Array);
    expect(frame).toHaveLength(512 * 512);
    for (const index of [0, 511, 511 * 512, 512 * 512 - 1, 20 * 512 + 20]) expect(frame[index]).toBe(0);
  });

  it('renders the same bytes for the same seed and different ones for another seed', () => {
    const again = createBmodeRenderer(createPullbackModel({ seed: 3, frameCount: 3600 }));
    expect(again.renderFrame(777)).toEqual(renderBmodeFrame(model, 777));
    const other = renderBmodeFrame(createPullbackModel({ seed: 4, frameCount: 3600 }), 777);
    expect(differingPixels(other, renderBmodeFrame(model, 777))).toBeGreaterThan(100_000);
  });

  it('renders a frame on its own exactly as after other frames, in any order', () => {
    const alone = createBmodeRenderer(model).renderFrame(1234);
    const busy = createBmodeRenderer(model);
    for (const frame of [1233, 5, 3599, 1235, 1234 - 8, 1234 + 8]) busy.renderFrame(frame);
    expect(busy.renderFrame(1234)).toEqual(alone);
  });

  it('changes smoothly: neighbouring frames differ much less than frames 10 mm apart', () => {
    const renderer = createBmodeRenderer(model);
    const a = renderer.renderFrame(400);
    const next = renderer.renderFrame(401);
    const far = renderer.renderFrame(1000);
    expect(meanAbsoluteDifference(a, next)).toBeLessThan(0.5 * meanAbsoluteDifference(a, far));
  });

  it('shows a dark lumen inside a brighter wall, both in a normal segment and at the stenosis', () => {
    for (const frameIndex of [200, minimalLumenFrame(model)]) {
      const frame = renderBmodeFrame(model, frameIndex);
      const section = crossSectionAt(model, frameIndex);
      const clear = unobstructed(section);
      const lumen = regionMean(model, frame, { radiiMm: (a) => [0.75, section.lumenRadiusMm(a) - 0.05], includes: clear });
      const wall = regionMean(model, frame, { radiiMm: (a) => [section.lumenRadiusMm(a) + 0.02, section.vesselRadiusMm(a) - 0.15], includes: clear });
      expect(lumen.count).toBeGreaterThan(500);
      expect(lumen.mean).toBeLessThan(50);
      expect(wall.mean).toBeGreaterThan(2 * lumen.mean + 40);
    }
  });

  it('draws the borders where the truth contours are: a step up at the lumen border, dark media then bright adventitia at the EEM', () => {
    const frameIndex = 600;
    const frame = renderBmodeFrame(model, frameIndex);
    const section = crossSectionAt(model, frameIndex);
    const clear = unobstructed(section);
    const band = (from: (a: number) => number, inner: number, outer: number) =>
      regionMean(model, frame, { radiiMm: (a) => [from(a) + inner, from(a) + outer], includes: clear }).mean;
    const lumen = (a: number) => section.lumenRadiusMm(a);
    const vessel = (a: number) => section.vesselRadiusMm(a);
    expect(band(lumen, 0, 0.04)).toBeGreaterThan(band(lumen, -0.06, -0.02) + 60);
    expect(band(vessel, 0.02, 0.1)).toBeGreaterThan(band(vessel, -0.07, -0.02) + 60);
  });

  it('shows the bright ring-down around the catheter', () => {
    const frame = renderBmodeFrame(model, 50);
    expect(regionMean(model, frame, { radiiMm: () => [0.46, 0.56] }).mean).toBeGreaterThan(200);
    expect(regionMean(model, frame, { radiiMm: () => [0, 0.4] }).mean).toBeLessThan(10);
  });

  it('casts a dark shadow behind the calcium arc, compared with tissue at the same depth', () => {
    const frameIndex = calciumFrame(model);
    const frame = renderBmodeFrame(model, frameIndex);
    const section = crossSectionAt(model, frameIndex);
    const calcium = section.calcium!;
    expect(calcium.halfArcRad).toBeGreaterThan(0.3);
    const behind = (a: number): [number, number] => [section.vesselRadiusMm(a) + 0.05, section.vesselRadiusMm(a) + 0.15];
    const shadow = regionMean(model, frame, {
      radiiMm: behind,
      includes: (a) => Math.abs(angleDifferenceRad(a, calcium.centreAngleRad)) < calcium.halfArcRad - 0.1,
    });
    const lit = regionMean(model, frame, { radiiMm: behind, includes: unobstructed(section) });
    expect(shadow.mean).toBeLessThan(0.25 * lit.mean);
    // The calcium itself is the brightest thing in the wall.
    const arc = regionMean(model, frame, {
      radiiMm: (a) => [section.lumenRadiusMm(a) + calcium.depthMm, section.lumenRadiusMm(a) + calcium.depthMm + 0.06],
      includes: (a) => Math.abs(angleDifferenceRad(a, calcium.centreAngleRad)) < calcium.halfArcRad - 0.1,
    });
    expect(arc.mean).toBeGreaterThan(200);
  });

  it('casts a shadow behind the guidewire', () => {
    const frameIndex = 900;
    const frame = renderBmodeFrame(model, frameIndex);
    const section = crossSectionAt(model, frameIndex);
    const behind = (a: number): [number, number] => [section.vesselRadiusMm(a) + 0.05, section.vesselRadiusMm(a) + 0.15];
    const shadow = regionMean(model, frame, { radiiMm: behind, includes: (a) => Math.abs(angleDifferenceRad(a, section.guidewire.angleRad)) < 0.12 });
    const lit = regionMean(model, frame, { radiiMm: behind, includes: unobstructed(section) });
    expect(shadow.mean).toBeLessThan(0.4 * lit.mean);
  });

  it('refuses frames outside the record', () => {
    expect(() => renderBmodeFrame(model, 3600)).toThrow(RangeError);
    expect(() => renderBmodeFrame(model, -1)).toThrow(RangeError);
  });
});

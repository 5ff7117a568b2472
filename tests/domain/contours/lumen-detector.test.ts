import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { diceCoefficient, hausdorffDistance } from '../../../src/domain/contours/agreement.ts';
import { detectSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { createLumenDetector } from '../../../src/domain/contours/lumen-detector.ts';
import { lumenAreaMm2, measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { lumenAreaProfileMm2, minimalLumenFrame, truthContours } from '../../../src/domain/synthetic/contours.ts';
import { angleDifferenceRad, crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

const model = createPullbackModel({ seed: 11, frameCount: 900 });
const detector = createLumenDetector({ frameSizePx: model.frameSizePx, pixelSpacingMm: model.pixelSpacingMm });
const framesPerMm = model.frameRateHz / model.pullbackSpeedMmPerS;
/** The frame where the calcium arc is widest (the middle of the calcified segment). */
const calciumFrame = Math.round(model.anatomy.calcium.centreMm * framesPerMm);

function score(frame: number, controlPoints: readonly Point[]) {
  const truth = truthContours(model, frame).lumen;
  const outline = measuredOutline(controlPoints);
  const trueArea = lumenAreaProfileMm2(model)[frame]!;
  return {
    dice: diceCoefficient(outline, truth, model.frameSizePx),
    areaError: Math.abs(lumenAreaMm2(controlPoints, model.pixelSpacingMm) - trueArea) / trueArea,
    hausdorffMm: hausdorffDistance(outline, truth) * model.pixelSpacingMm,
  };
}

/** Detected minus true radius (px) at every ray whose angle passes `select`. */
function radialErrors(frame: number, radii: Float32Array, select: (angleRad: number) => boolean): number[] {
  const section = crossSectionAt(model, frame);
  const errors: number[] = [];
  radii.forEach((radius, a) => {
    const angle = (2 * Math.PI * a) / radii.length;
    if (select(angle)) errors.push(radius - section.lumenRadiusMm(angle) / model.pixelSpacingMm);
  });
  return errors;
}

describe('lumen detection on generated frames', () => {
  it('finds the lumen of an ordinary frame: Dice ≥ 0.95, area within 3%', () => {
    const result = detector.detect(renderBmodeFrame(model, 120));
    expect(result.controlPoints).toHaveLength(16);
    expect(result.polygon).toHaveLength(360);
    const { dice, areaError, hausdorffMm } = score(120, result.controlPoints);
    expect(dice).toBeGreaterThan(0.95);
    expect(areaError).toBeLessThan(0.03);
    expect(hausdorffMm).toBeLessThan(0.1);
  });

  it('survives the calcium shadow: the border stays on the lumen side of the calcium arc', () => {
    const section = crossSectionAt(model, calciumFrame);
    expect(section.calcium).not.toBeNull();
    expect(section.calcium!.halfArcRad).toBeGreaterThan(0.5);
    const result = detector.detect(renderBmodeFrame(model, calciumFrame));
    const { dice, areaError } = score(calciumFrame, result.controlPoints);
    expect(dice).toBeGreaterThan(0.9);
    expect(areaError).toBeLessThan(0.05);
    // Behind the arc's bright leading edge the wall is in shadow; the border must not move onto the
    // calcium (about 0.05 mm further out) or into the shadow.
    const underCalcium = radialErrors(calciumFrame, result.radiiPx, (angle) => Math.abs(angleDifferenceRad(angle, section.calcium!.centreAngleRad)) < section.calcium!.halfArcRad - 0.1);
    expect(underCalcium.length).toBeGreaterThan(30);
    for (const error of underCalcium) expect(Math.abs(error)).toBeLessThan(3);
  });

  it('survives the guidewire: the rays in its shadow are blind and their border is interpolated', () => {
    const frame = 300;
    const wire = crossSectionAt(model, frame).guidewire;
    const result = detector.detect(renderBmodeFrame(model, frame));
    // The wire hides about 30° of the wall (0.178 mm wide at 0.71 mm from the centre).
    expect(result.blindFraction).toBeGreaterThan(0.05);
    expect(result.blindFraction).toBeLessThan(0.15);
    const { dice, areaError } = score(frame, result.controlPoints);
    expect(dice).toBeGreaterThan(0.9);
    expect(areaError).toBeLessThan(0.05);
    // Not pulled in to the wire's own bright echoes, well inside the lumen border.
    const behindWire = radialErrors(frame, result.radiiPx, (angle) => Math.abs(angleDifferenceRad(angle, wire.angleRad)) < 0.2);
    expect(behindWire.length).toBeGreaterThan(10);
    for (const error of behindWire) expect(Math.abs(error)).toBeLessThan(6);
  });

  it('finds the narrowest lumen at the minimal lumen area frame, next to the catheter', () => {
    const frame = minimalLumenFrame(model);
    const result = detector.detect(renderBmodeFrame(model, frame));
    const { dice, areaError } = score(frame, result.controlPoints);
    expect(dice).toBeGreaterThan(0.9);
    expect(areaError).toBeLessThan(0.05);
  });

  it('follows a run of frames with continuity, every frame at Dice ≥ 0.95', () => {
    const first = calciumFrame - 10;
    const frames = new Uint8Array(20 * model.frameSizePx ** 2);
    for (let k = 0; k < 20; k++) renderBmodeFrame(model, first + k, frames.subarray(k * model.frameSizePx ** 2, (k + 1) * model.frameSizePx ** 2));
    const { detections, lastRadiiPx } = detectSequence(detector, frames, model.frameSizePx, model.pixelSpacingMm);
    expect(detections).toHaveLength(20);
    expect(lastRadiiPx).toHaveLength(360);
    detections.forEach((detection, k) => {
      expect(score(first + k, detection.controlPoints).dice).toBeGreaterThan(0.95);
      expect(detection.areaMm2).toBeCloseTo(lumenAreaMm2(detection.controlPoints, model.pixelSpacingMm), 12);
      expect(detection.minDiameterMm).toBeLessThanOrEqual(detection.maxDiameterMm);
    });
  });

  it('keeps the previous border for a frame with no echo at all, and rejects wrong input', () => {
    const previous = detector.detect(renderBmodeFrame(model, 50)).radiiPx;
    const blank = detector.detect(new Uint8Array(model.frameSizePx ** 2), previous);
    expect(blank.blindFraction).toBe(1);
    expect([...blank.radiiPx].every((r, a) => Math.abs(r - previous[a]!) < 0.5)).toBe(true);
    expect(() => detector.detect(new Uint8Array(100))).toThrow(RangeError);
    expect(() => createLumenDetector({ frameSizePx: 512, pixelSpacingMm: 0 })).toThrow(RangeError);
    expect(createLumenDetector({ frameSizePx: 512, pixelSpacingMm: 0.01, controlPointCount: 8 }).detect(renderBmodeFrame(model, 50)).controlPoints).toHaveLength(8);
  });
});

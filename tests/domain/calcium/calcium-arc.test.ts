import { describe, expect, it } from 'vitest';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { measureDetection } from '../../../src/domain/contours/detect-sequence.ts';
import { circularRuns, closeAndOpen, createCalciumArcDetector } from '../../../src/domain/calcium/calcium-arc.ts';
import { withCalcium } from '../../../src/domain/calcium/slice-calcium.ts';
import { renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { calciumEvaluationPullback, type CalciumEvaluationKind } from '../../../src/domain/synthetic/calcium-evaluation.ts';

/** The detected calcium of the frame of a tuning pullback, as the server finds it. */
function detectAt(kind: CalciumEvaluationKind, seed: number, pick: (frames: ReturnType<typeof calciumEvaluationPullback>['frames']) => number) {
  const pullback = calciumEvaluationPullback(kind, seed);
  const frame = pullback.frames[pick(pullback.frames)]!;
  const size = pullback.model.frameSizePx;
  const geometry = { frameWidth: size, frameHeight: size, pixelSpacingMm: pullback.model.pixelSpacingMm };
  const pixels = renderBmodeFrame(pullback.model, frame.frameIndex);
  const measured = measureDetection(createBorderDetector(geometry).detect(pixels, null, null), geometry.pixelSpacingMm);
  const [detection] = withCalcium(createCalciumArcDetector(geometry), [measured], pixels, pixels.length, { x: size / 2, y: size / 2 });
  return { truth: frame.truth, detection: detection! };
}
const middleOfCalcium = (frames: ReturnType<typeof calciumEvaluationPullback>['frames']) => {
  const withCalcium = frames.map((f, i) => ({ f, i })).filter(({ f }) => f.truth !== null);
  return withCalcium[Math.floor(withCalcium.length / 2)]!.i;
};
/** Degrees between two angles, the short way round. */
const apart = (a: number, b: number) => Math.abs((((a - b) % 360) + 540) % 360 - 180);

describe('calcium arc per frame', () => {
  it('finds a wide arc behind its bright edge within 20° of the truth, where it starts and ends', () => {
    const { truth, detection } = detectAt('extensive', 1102, middleOfCalcium);
    expect(truth!.arcDeg).toBeGreaterThan(270);
    expect(Math.abs(detection.calcium!.arcDeg - truth!.arcDeg)).toBeLessThan(20);
    expect(apart(detection.calcium!.startDeg, truth!.startDeg)).toBeLessThan(10);
    expect(apart(detection.calcium!.endDeg, truth!.endDeg)).toBeLessThan(10);
  }, 30_000);

  it('closes the circle on 360° calcium', () => {
    const { truth, detection } = detectAt('circumferential', 1103, middleOfCalcium);
    expect(truth!.arcDeg).toBe(360);
    expect(detection.calcium!.arcDeg).toBe(360);
  }, 30_000);

  it('finds no calcium on a frame far from it (the guidewire, bright with a shadow too, is not calcium)', () => {
    const { truth, detection } = detectAt('plain', 1105, () => 3);
    expect(truth).toBeNull();
    expect(detection.calcium?.arcDeg).toBe(0);
  }, 30_000);

  it('gives no arc on a frame the border detector could not read', () => {
    const detector = createCalciumArcDetector({ frameWidth: 64, frameHeight: 64, pixelSpacingMm: 0.05 });
    expect(detector.detect(new Uint8Array(64 * 64), null)).toBeNull();
    const unread = { controlPoints: [], areaMm2: 0, minDiameterMm: 0, maxDiameterMm: 0, vessel: { controlPoints: [], areaMm2: 0 }, confidence: 0, readable: false };
    expect(withCalcium(detector, [unread], new Uint8Array(64 * 64), 64 * 64, { x: 32, y: 32 })[0]).not.toHaveProperty('calcium');
  });

  it('closes short gaps (the guidewire shadow) and drops short runs (struts, speckle), round the seam too', () => {
    const flags = new Uint8Array(360);
    for (let a = 350; a < 370; a++) flags[a % 360] = 1; // 20 rays over the seam
    for (let a = 375; a < 400; a++) flags[a % 360] = 1; // 5 rays of gap, then 25 more
    flags[200] = 1; // a lone speckle ray
    closeAndOpen(flags, 12, 8);
    const runs = circularRuns(flags, 1);
    expect(runs).toEqual([{ start: 350, length: 50 }]);
  });
});

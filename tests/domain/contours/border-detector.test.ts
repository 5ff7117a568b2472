import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import type { BorderDetection } from '../../../src/domain/contours/border-detection.ts';
import { createBorderDetector, type InspectableBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { DEFAULT_CONTROL_POINTS } from '../../../src/domain/contours/border-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { EVALUATION_CASE_TYPES, evaluationCase, TUNING_SEEDS, type EvaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

// The demo generator (512 px at 0.01 mm/px), as the legacy lumen detector's tests use it.
const model = createPullbackModel({ seed: 11, frameCount: 900 });
const renderer = createBmodeRenderer(model);
const size = model.frameSizePx;
const calciumFrame = Math.round((model.anatomy.calcium.centreMm * model.frameRateHz) / model.pullbackSpeedMmPerS);

function demoDetector(): InspectableBorderDetector {
  return createBorderDetector({ frameWidth: size, frameHeight: size, pixelSpacingMm: model.pixelSpacingMm });
}

/** Detects frames first .. first + count − 1 in order (each one's previous feeding the next); the last detection. */
function detectRun(detector: InspectableBorderDetector, render: (k: number) => Uint8Array, count: number): BorderDetection[] {
  const detections: BorderDetection[] = [];
  let previous: BorderDetection | null = null;
  let previousFrame: Uint8Array | null = null;
  for (let k = 0; k < count; k++) {
    const frame = render(k);
    previous = detector.detect(frame, previous, previousFrame);
    previousFrame = frame;
    detections.push(previous);
  }
  return detections;
}

function dice(found: readonly Point[], truth: readonly Point[], gridPx: number): number {
  return diceCoefficient(found, truth, gridPx);
}

function expectVesselOutsideLumen(detection: BorderDetection): void {
  const { lumen, vessel } = detection;
  expect(lumen.radiiPx).toHaveLength(vessel.radiiPx.length);
  let inside = 0;
  lumen.radiiPx.forEach((r, a) => {
    if (!(vessel.radiiPx[a]! > r)) inside++;
  });
  expect(inside).toBe(0);
}

describe('border detection on demo frames', () => {
  it('finds the lumen and the vessel of ordinary frames: Dice ≥ 0.97 each, vessel outside the lumen on every ray', () => {
    const first = 118;
    const detections = detectRun(demoDetector(), (k) => renderer.renderFrame(first + k), 3);
    detections.forEach((detection, k) => {
      const truth = truthContours(model, first + k);
      expect(detection.lumen.polygon).toHaveLength(360);
      expect(detection.lumen.controlPoints).toHaveLength(DEFAULT_CONTROL_POINTS);
      expect(detection.vessel.controlPoints).toHaveLength(DEFAULT_CONTROL_POINTS);
      expect(dice(detection.lumen.polygon, truth.lumen, size)).toBeGreaterThan(0.97);
      expect(dice(detection.vessel.polygon, truth.vessel, size)).toBeGreaterThan(0.97);
      expectVesselOutsideLumen(detection);
    });
    // With the previous frame (temporal cue), the detector trusts an ordinary frame.
    expect(detections[2]!.confidence).toBeGreaterThan(0.8);
  });

  it('keeps the lumen in front of the calcium arc and bridges the EEM across its shadow', () => {
    expect(crossSectionAt(model, calciumFrame).calcium!.halfArcRad).toBeGreaterThan(0.5);
    const [, detection] = detectRun(demoDetector(), (k) => renderer.renderFrame(calciumFrame - 1 + k), 2);
    const truth = truthContours(model, calciumFrame);
    expect(dice(detection!.lumen.polygon, truth.lumen, size)).toBeGreaterThan(0.95);
    expect(dice(detection!.vessel.polygon, truth.vessel, size)).toBeGreaterThan(0.95);
    expectVesselOutsideLumen(detection!);
  });

  it('works on non-square frames with the catheter off the frame middle', () => {
    // The demo frame placed at (70, 10) on a 600 x 540 canvas: the catheter sits at (326, 266).
    const width = 600;
    const height = 540;
    const offset = { x: 70, y: 10 };
    const place = (frame: Uint8Array): Uint8Array => {
      const canvas = new Uint8Array(width * height);
      for (let row = 0; row < size; row++) canvas.set(frame.subarray(row * size, (row + 1) * size), (row + offset.y) * width + offset.x);
      return canvas;
    };
    const detector = createBorderDetector({ frameWidth: width, frameHeight: height, pixelSpacingMm: model.pixelSpacingMm, centreX: 256 + offset.x, centreY: 256 + offset.y });
    const [, detection] = detectRun(detector, (k) => place(renderer.renderFrame(300 + k)), 2);
    const truth = truthContours(model, 301);
    const shift = (points: readonly Point[]): Point[] => points.map((p) => ({ x: p.x + offset.x, y: p.y + offset.y }));
    expect(dice(detection!.lumen.polygon, shift(truth.lumen), width)).toBeGreaterThan(0.95);
    expect(dice(detection!.vessel.polygon, shift(truth.vessel), width)).toBeGreaterThan(0.95);

    // A crop that cuts the field of view (512 x 400, rows 56 .. 455): the catheter at (256, 200) by default.
    const crop = (frame: Uint8Array): Uint8Array => frame.slice(56 * size, 456 * size);
    const cropped = createBorderDetector({ frameWidth: size, frameHeight: 400, pixelSpacingMm: model.pixelSpacingMm });
    const [, inCrop] = detectRun(cropped, (k) => crop(renderer.renderFrame(300 + k)), 2);
    const up = (points: readonly Point[]): Point[] => points.map((p) => ({ x: p.x, y: p.y - 56 }));
    expect(dice(inCrop!.lumen.polygon, up(truth.lumen), size)).toBeGreaterThan(0.95);
    expect(dice(inCrop!.vessel.polygon, up(truth.vessel), size)).toBeGreaterThan(0.93);
    expectVesselOutsideLumen(inCrop!);
  });

  it('trusts a frame less when a big shadow hides a third of it', () => {
    const previousFrame = renderer.renderFrame(200);
    const frame = renderer.renderFrame(201);
    const detector = demoDetector();
    const previous = detector.detect(previousFrame, null, null);
    const easy = detector.detect(frame, previous, previousFrame).confidence;
    // Black out 120° of the field beyond 0.75 mm from the catheter, in both frames (a shadow persists).
    const shadow = (image: Uint8Array): Uint8Array => {
      const out = image.slice();
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const dx = col + 0.5 - 256;
          const dy = row + 0.5 - 256;
          const angle = Math.atan2(dy, dx);
          if (Math.hypot(dx, dy) > 75 && angle > 0 && angle < (2 * Math.PI) / 3) out[row * size + col] = 0;
        }
      }
      return out;
    };
    const shadowed = demoDetector();
    const shadowedPrevious = shadowed.detect(shadow(previousFrame), null, null);
    const hard = shadowed.detect(shadow(frame), shadowedPrevious, shadow(previousFrame));
    expect(easy).toBeGreaterThan(0.8);
    expect(hard.confidence).toBeLessThan(easy - 0.3);
    // The borders are interpolated across the shadow, still closing round the truth.
    const truth = truthContours(model, 201);
    expect(dice(hard.lumen.polygon, truth.lumen, size)).toBeGreaterThan(0.9);
    expect(dice(hard.vessel.polygon, truth.vessel, size)).toBeGreaterThan(0.9);
    expectVesselOutsideLumen(hard);
  });

  it('rejects wrong input and survives a frame without any echo', () => {
    const detector = demoDetector();
    expect(() => detector.detect(new Uint8Array(100), null, null)).toThrow(RangeError);
    expect(() => createBorderDetector({ frameWidth: 512, frameHeight: 512, pixelSpacingMm: 0 })).toThrow(RangeError);
    expect(() => createBorderDetector({ frameWidth: 512, frameHeight: 512, pixelSpacingMm: 0.01, centreX: -5 })).toThrow(RangeError);
    const previous = detector.detect(renderer.renderFrame(50), null, null);
    const blank = detector.detect(new Uint8Array(size * size), previous, renderer.renderFrame(50));
    expect(blank.confidence).toBeLessThan(0.1);
    expectVesselOutsideLumen(blank);
    // A blank frame is no temporal neighbour of anything: it gets its result alone, not the previous borders (issue 23).
    const alone = demoDetector().detect(new Uint8Array(size * size), null, null);
    expect(blank.lumen.radiiPx).toEqual(alone.lumen.radiiPx);
    expect(blank.confidence).toBe(alone.confidence);
  });
});

/** The run's first `count` frames of an evaluation case, detected in order; Dice per frame. */
function scoreCase(evaluation: EvaluationCase, count: number): { lumen: number[]; vessel: number[]; confidence: number[] } {
  const centre = evaluation.frames[0]!.catheterCentre;
  const detector = createBorderDetector({
    frameWidth: evaluation.frameWidth,
    frameHeight: evaluation.frameHeight,
    pixelSpacingMm: evaluation.pixelSpacingMm,
    centreX: centre.x,
    centreY: centre.y,
  });
  const detections = detectRun(detector, (k) => evaluation.render(k), count);
  return {
    lumen: detections.map((d, k) => dice(d.lumen.polygon, evaluation.frames[k]!.truth.lumen, evaluation.frameWidth)),
    vessel: detections.map((d, k) => dice(d.vessel.polygon, evaluation.frames[k]!.truth.vessel, evaluation.frameWidth)),
    confidence: detections.map((d) => d.confidence),
  };
}

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('border detection on the evaluation cases (tuning seeds only)', () => {
  it('scores every case type of a tuning seed: mean Dice over frames with a previous frame', { timeout: 120_000 }, () => {
    const seed = TUNING_SEEDS[0]!;
    const lumen: number[] = [];
    const vessel: number[] = [];
    for (const type of EVALUATION_CASE_TYPES) {
      const scores = scoreCase(evaluationCase(type, seed), 5);
      // Frame 0 has no previous frame (no temporal cue); 1 .. 4 do.
      const lumenDice = mean(scores.lumen.slice(1));
      const vesselDice = mean(scores.vessel.slice(1));
      expect({ type, lumen: lumenDice > 0.88, vessel: vesselDice > 0.93 }).toEqual({ type, lumen: true, vessel: true });
      lumen.push(lumenDice);
      vessel.push(vesselDice);
    }
    expect(mean(lumen)).toBeGreaterThan(0.95);
    expect(mean(vessel)).toBeGreaterThan(0.97);
  });

  it('tells echolucent plaque from blood by its persistence: the temporal cue separates them, and the lumen follows', () => {
    // A 60 MHz echolucent-plaque case: blood speckle is bright, the lipid pool as dark as blood.
    const evaluation = TUNING_SEEDS.map((seed) => evaluationCase('echolucent-plaque', seed)).find((c) => c.look === '60mhz')!;
    expect(evaluation).toBeDefined();
    const centre = evaluation.frames[0]!.catheterCentre;
    const detector = createBorderDetector({
      frameWidth: evaluation.frameWidth,
      frameHeight: evaluation.frameHeight,
      pixelSpacingMm: evaluation.pixelSpacingMm,
      centreX: centre.x,
      centreY: centre.y,
    });
    const k = 4;
    const truth = evaluation.frames[k]!.truth;
    const previousFrame = evaluation.render(k - 1);
    const frame = evaluation.render(k);
    const radiusAt = (polygon: readonly Point[], a: number): number => {
      const p = polygon[Math.round((a * polygon.length) / 360) % polygon.length]!;
      return Math.hypot(p.x - centre.x, p.y - centre.y);
    };
    // Mean blood log-odds in the true lumen minus in the true wall (plaque and media), past the ring-down.
    const separation = (): number => {
      const { values, sampleCount, radiusPx } = detector.bloodLogOdds();
      const margin = 0.05 / evaluation.pixelSpacingMm;
      let blood = 0;
      let bloodCount = 0;
      let wall = 0;
      let wallCount = 0;
      for (let a = 0; a < 360; a++) {
        const lumen = radiusAt(truth.lumen, a);
        const vessel = radiusAt(truth.vessel, a);
        for (let s = 0; s < sampleCount; s++) {
          const r = radiusPx(s);
          if (r * evaluation.pixelSpacingMm < 0.85) continue;
          const value = values[a * sampleCount + s]!;
          if (r < lumen - margin) {
            blood += value;
            bloodCount++;
          } else if (r > lumen + margin && r < vessel - margin) {
            wall += value;
            wallCount++;
          }
        }
      }
      return blood / bloodCount - wall / wallCount;
    };
    const alone = detector.detect(frame, null, null);
    const withoutCue = separation();
    const previous = detector.detect(previousFrame, null, null);
    const withCue = detector.detect(frame, previous, previousFrame);
    const temporal = separation();
    expect(temporal).toBeGreaterThan(withoutCue + 1.5);
    expect(temporal).toBeGreaterThan(2);
    expect(dice(withCue.lumen.polygon, truth.lumen, evaluation.frameWidth)).toBeGreaterThan(0.9);
    expect(dice(withCue.lumen.polygon, truth.lumen, evaluation.frameWidth)).toBeGreaterThan(dice(alone.lumen.polygon, truth.lumen, evaluation.frameWidth) + 0.1);
    // Without the cue the frame is genuinely hard, and the detector says so.
    expect(alone.confidence).toBeLessThan(0.5);
    expect(alone.confidence).toBeLessThan(withCue.confidence);
  });
});

import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import type { BorderDetection, BorderDetector } from '../../../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { carryOf, detectBorderSequence, detectionOfCarry } from '../../../src/domain/contours/detect-sequence.ts';
import { enclosesContour, lumenAreaMm2, measureContour, measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { controlPointsOf, polygonOf } from '../../../src/domain/contours/radial-profile.ts';
import { renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

const [WIDTH, HEIGHT] = [50, 40];
const geometry = { frameWidth: WIDTH, frameHeight: HEIGHT, pixelSpacingMm: 0.1 };

/**
 * A stand-in detector for the sequence's bookkeeping (the real one is tested below and in its own
 * tests): circles whose radii follow the frame's first byte, and a record of what each call was given.
 */
function recordingDetector() {
  const calls: { first: number; previousRadius: number | null; previousPolygon: Point[] | null; previousFirst: number | null }[] = [];
  const border = (radius: number) => {
    const radiiPx = new Float32Array(36).fill(radius);
    return { radiiPx, polygon: polygonOf(radiiPx, WIDTH / 2, HEIGHT / 2), controlPoints: controlPointsOf(radiiPx, WIDTH / 2, HEIGHT / 2, 8) };
  };
  const detector: BorderDetector = {
    detect(frame, previous, previousFrame) {
      calls.push({ first: frame[0]!, previousRadius: previous?.lumen.radiiPx[0] ?? null, previousPolygon: previous?.lumen.polygon ?? null, previousFirst: previousFrame?.[0] ?? null });
      const r = 5 + frame[0]! / 10;
      return { lumen: border(r), vessel: border(r + 4), confidence: frame[0]! / 100 };
    },
  };
  return { detector, calls };
}

/** `count` frames of WIDTH x HEIGHT, frame k filled with 10 · (k + 1). */
function frames(count: number, from = 0): Uint8Array {
  const bytes = new Uint8Array(count * WIDTH * HEIGHT);
  for (let k = 0; k < count; k++) bytes.fill(10 * (from + k + 1), k * WIDTH * HEIGHT, (k + 1) * WIDTH * HEIGHT);
  return bytes;
}

describe('border detection over a sequence of frames', () => {
  it('gives each frame the previous detection and pixels (the first one those of the next frame), and measures both borders on their control points', () => {
    const { detector, calls } = recordingDetector();
    const { detections, carry } = detectBorderSequence(detector, frames(3), geometry);
    // The first frame has no detection before it; its temporal cue comes from the frame after it.
    expect(calls.map((c) => [c.first, c.previousRadius, c.previousFirst])).toEqual([
      [10, null, 20],
      [20, 6, 10],
      [30, 7, 20],
    ]);
    expect(detections).toHaveLength(3);
    const last = detections[2]!;
    expect(last).toMatchObject({ ...measureContour(last.controlPoints, 0.1), confidence: 0.3 });
    expect(last.vessel.areaMm2).toBe(lumenAreaMm2(last.vessel.controlPoints, 0.1));
    expect(last.vessel.areaMm2).toBeGreaterThan(last.areaMm2);
    expect(carry).toMatchObject({ confidence: 0.3 });
    expect(carry!.lumenRadiiPx[0]).toBe(8);
    expect(carry!.vesselRadiiPx[0]).toBe(12);
  });

  it('continues across chunks (and threads) from the carry exactly as in one run', () => {
    const whole = recordingDetector();
    const oneRun = detectBorderSequence(whole.detector, frames(5), geometry);
    const split = recordingDetector();
    const first = detectBorderSequence(split.detector, frames(2), geometry);
    // The carry is what crosses to a worker thread: a structured clone must keep it whole.
    const carried = structuredClone(first.carry);
    const second = detectBorderSequence(split.detector, frames(3, 2), geometry, carried);
    expect([...first.detections, ...second.detections]).toEqual(oneRun.detections);
    expect(split.calls).toEqual(whole.calls);
    expect(second.carry).toEqual(oneRun.carry);
  });

  it('carries its own copy of the last frame, not a view into the chunk', () => {
    const chunk = frames(4);
    const { carry } = detectBorderSequence(recordingDetector().detector, chunk, geometry);
    expect(carry!.frame.buffer).not.toBe(chunk.buffer);
    expect(carry!.frame.byteLength).toBe(WIDTH * HEIGHT);
    expect(carry!.frame.buffer.byteLength).toBe(WIDTH * HEIGHT);
    expect(carry!.frame[0]).toBe(40);
  });

  it('rebuilds a detection from its carry', () => {
    const radiiPx = Float32Array.from({ length: 36 }, (_, a) => 6 + (a % 3));
    const border = { radiiPx, polygon: polygonOf(radiiPx, WIDTH / 2, HEIGHT / 2), controlPoints: controlPointsOf(radiiPx, WIDTH / 2, HEIGHT / 2, 8) };
    const detection: BorderDetection = { lumen: border, vessel: { ...border, radiiPx: radiiPx.map((r) => r + 3) }, confidence: 0.7 };
    const rebuilt = detectionOfCarry(carryOf(detection, new Uint8Array(WIDTH * HEIGHT)), geometry);
    expect(rebuilt.lumen).toEqual(detection.lumen);
    expect(rebuilt.vessel.radiiPx).toEqual(detection.vessel.radiiPx);
    expect(rebuilt.vessel.polygon).toEqual(polygonOf(detection.vessel.radiiPx, WIDTH / 2, HEIGHT / 2));
    expect(rebuilt.confidence).toBe(0.7);
  });

  it('refuses frames that are not whole images of the geometry, and an empty run keeps the carry', () => {
    const { detector } = recordingDetector();
    expect(() => detectBorderSequence(detector, new Uint8Array(WIDTH * HEIGHT + 1), geometry)).toThrow(RangeError);
    const { carry } = detectBorderSequence(detector, frames(1), geometry);
    expect(() => detectBorderSequence(detector, frames(1), { ...geometry, frameWidth: HEIGHT, frameHeight: WIDTH + 1 }, carry)).toThrow(RangeError);
    expect(detectBorderSequence(detector, new Uint8Array(0), geometry, carry)).toEqual({ detections: [], carry });
  });
});

describe('border detection on frames that are not square', () => {
  // A generated 512 x 512 pullback cropped to 500 x 480 about its centre, as an imported DICOM
  // series can be: the catheter stays in the middle of the frame.
  const model = createPullbackModel({ seed: 11, frameCount: 60 });
  const [width, height] = [500, 480];
  const [left, top] = [(model.frameSizePx - width) / 2, (model.frameSizePx - height) / 2];
  const crop = (frame: number, out: Uint8Array) => {
    const full = renderBmodeFrame(model, frame);
    for (let row = 0; row < height; row++) out.set(full.subarray((row + top) * model.frameSizePx + left, (row + top) * model.frameSizePx + left + width), row * width);
  };
  const count = 4;
  const bytes = new Uint8Array(count * width * height);
  for (let k = 0; k < count; k++) crop(20 + k, bytes.subarray(k * width * height, (k + 1) * width * height));
  const cropGeometry = { frameWidth: width, frameHeight: height, pixelSpacingMm: model.pixelSpacingMm };
  const detector = () => createBorderDetector(cropGeometry);

  it('finds the lumen inside the vessel where the generator drew it, with a confidence', () => {
    const { detections } = detectBorderSequence(detector(), bytes, cropGeometry);
    detections.forEach((detection, k) => {
      const truth = truthContours(model, 20 + k).lumen.map((p) => ({ x: p.x - left, y: p.y - top }));
      expect(diceCoefficient(measuredOutline(detection.controlPoints), truth, Math.max(width, height))).toBeGreaterThan(0.85);
      expect(enclosesContour(detection.vessel.controlPoints, detection.controlPoints)).toBe(true);
      expect(detection.confidence).toBeGreaterThanOrEqual(0);
      expect(detection.confidence).toBeLessThanOrEqual(1);
    });
  });

  it('gives the same borders when the run is split into chunks', () => {
    const oneRun = detectBorderSequence(detector(), bytes, cropGeometry);
    const half = 2 * width * height;
    const first = detectBorderSequence(detector(), bytes.subarray(0, half), cropGeometry);
    const second = detectBorderSequence(detector(), bytes.subarray(half), cropGeometry, structuredClone(first.carry));
    expect([...first.detections, ...second.detections]).toEqual(oneRun.detections);
  });
});

/**
 * Issue 23: "no border" means "the detector could not read this frame", and nothing else. Frames
 * that are not IVUS frames (or show nothing) get no border; good generator frames keep theirs even
 * when their confidence is low, and a low-confidence good frame is not moved out of the MLA.
 */
import { describe, expect, it } from 'vitest';
import { buildRecordContours, hasBorder, type SliceDetection } from '../../../src/domain/contours/api.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { isUnreadable } from '../../../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { isReadableFrame } from '../../../src/domain/contours/frame-readability.ts';
import { measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { EVALUATION_SEEDS, evaluationCase, TUNING_SEEDS, type EvaluationCase, type EvaluationCaseType } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { frameSequence } from '../../../src/domain/synthetic/sequence-kinds.ts';
import { UNREADABLE_FRAME_KINDS, unreadableFrame } from '../../../src/domain/synthetic/unreadable-frames.ts';

const geometryOf = (evaluation: EvaluationCase) => ({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm });
const detectorOf = (evaluation: EvaluationCase) => {
  const centre = evaluation.frames[0]!.catheterCentre;
  return createBorderDetector({ ...geometryOf(evaluation), centreX: centre.x, centreY: centre.y });
};
const body = (detections: SliceDetection[]) => buildRecordContours({ version: 'v', pixelSpacingMm: 0.02, framesPerMm: 60, detections });

// A 20 MHz look, a 60 MHz look with bright blood, and the real set's 20 MHz coronary geometry.
const CASES: readonly [EvaluationCaseType, number][] = [
  ['mixed-20mhz', TUNING_SEEDS[0]!],
  ['bright-blood', EVALUATION_SEEDS[0]!],
  ['coronary-20mhz', EVALUATION_SEEDS[1]!],
  ['bright-adventitia', TUNING_SEEDS[2]!],
];

describe.each(CASES)('frames the detector cannot read (%s, seed %i)', (type, seed) => {
  const evaluation = evaluationCase(type, seed);
  const far = (evaluation.frames[0]!.frameIndex + 900) % evaluation.model.frameCount;
  const source = { width: evaluation.frameWidth, height: evaluation.frameHeight, seed, model: evaluation.model, otherFrame: createBmodeRenderer(evaluation.model).renderFrame(far).slice() };

  it.each(UNREADABLE_FRAME_KINDS)('a %s frame gets no border', (kind) => {
    const { detections } = detectBorderSequence(detectorOf(evaluation), unreadableFrame(kind, source), geometryOf(evaluation));
    expect(detections[0]!.readable).toBe(false);
    expect(hasBorder(body(detections).contours[0]!)).toBe(false);
  }, 30_000);
});

describe.each(CASES)('good frames keep their borders (%s, seed %i)', (type, seed) => {
  const evaluation = evaluationCase(type, seed);
  // Gated frames are each detected without the temporal cue: the frames whose confidence is lowest.
  // Bad IVUS frames keep their (flagged) borders too: every frame here is an IVUS frame the detector can read.
  it.each(['gated', 'consecutive'] as const)('in a %s sequence, every frame is readable and keeps its borders, whatever its confidence', (kind) => {
    const sequence = frameSequence(evaluation, kind, { length: 6 });
    const size = evaluation.frameWidth * evaluation.frameHeight;
    const frames = new Uint8Array(sequence.frames.length * size);
    sequence.frames.forEach((_, k) => frames.set(sequence.render(k), k * size));
    const { detections } = detectBorderSequence(detectorOf(evaluation), frames, geometryOf(evaluation));
    const contours = body(detections).contours;
    let good = 0;
    detections.forEach((detection, k) => {
      expect(detection.readable).toBe(true);
      expect(hasBorder(contours[k]!)).toBe(true);
      if (diceCoefficient(measuredOutline(detection.controlPoints), sequence.frames[k]!.truth.lumen, evaluation.frameWidth) >= 0.85) good++;
    });
    // Consecutive frames are read well (gated ones, detected alone, may all fall below 0.85).
    if (kind === 'consecutive') expect(good).toBeGreaterThan(0);
  }, 30_000);
});

describe('the readability decision', () => {
  const readable = { ringContrast: 200, ringPeakMm: 0.48, ringUniformity: 0.97, seeingShare: 1, pinnedShare: 0, confidence: 0.05 };

  it('reads a frame with a catheter ring-down, seeing rays and free borders even at a confidence far below 0.2', () => {
    expect(isUnreadable(readable.confidence)).toBe(true);
    expect(isReadableFrame(readable)).toBe(true);
  });

  it('does not read a frame without a ring-down, with its ring-down too far out, mostly blind, or with the vessel at the field edge', () => {
    expect(isReadableFrame({ ...readable, ringContrast: 20 })).toBe(false);
    expect(isReadableFrame({ ...readable, ringUniformity: -0.4 })).toBe(false);
    expect(isReadableFrame({ ...readable, ringPeakMm: 0.89 })).toBe(false);
    expect(isReadableFrame({ ...readable, seeingShare: 0.1 })).toBe(false);
    expect(isReadableFrame({ ...readable, pinnedShare: 0.9 })).toBe(false);
    expect(isReadableFrame({ ...readable, confidence: Number.NaN })).toBe(false);
  });
});

describe('the MLA with "no border" decided by readability', () => {
  const square = (side: number) => [
    { x: 10 - side / 2, y: 10 - side / 2 },
    { x: 10 + side / 2, y: 10 - side / 2 },
    { x: 10 + side / 2, y: 10 + side / 2 },
    { x: 10 - side / 2, y: 10 + side / 2 },
  ];
  const slice = (areaMm2: number, confidence: number, readable?: boolean): SliceDetection => ({
    controlPoints: square(3),
    areaMm2,
    minDiameterMm: 1,
    maxDiameterMm: 2,
    vessel: { controlPoints: square(6), areaMm2: 12 },
    confidence,
    ...(readable === undefined ? {} : { readable }),
  });

  it('stays on a good frame whose confidence is low (it used to move to the next smallest lumen)', () => {
    const contours = body([slice(6, 0.9, true), slice(2.1, 0.05, true), slice(4, 0.9, true), slice(1, 0.01, false)]);
    expect(contours.mla).toEqual({ slice: 2, areaMm2: 2.1 });
    expect(hasBorder(contours.contours[1]!)).toBe(true);
    expect(hasBorder(contours.contours[3]!)).toBe(false);
    // Flagged for checking, not hidden.
    expect(contours.lowConfidenceSlices).toEqual([2, 4]);
  });

  it('keeps the confidence cut for detections stored without a readability decision', () => {
    expect(body([slice(6, 0.9), slice(2.1, 0.05), slice(4, 0.9)]).mla).toEqual({ slice: 3, areaMm2: 4 });
  });

  it('on a real detection, garbage frames in a pullback never take the MLA, and the MLA is the smallest good lumen', () => {
    const evaluation = evaluationCase('coronary-20mhz', EVALUATION_SEEDS[2]!);
    const sequence = frameSequence(evaluation, 'gated', { length: 6 });
    const size = evaluation.frameWidth * evaluation.frameHeight;
    const source = { width: evaluation.frameWidth, height: evaluation.frameHeight, seed: 5, model: evaluation.model, otherFrame: sequence.render(0) };
    const garbage = ['black', 'shrunk', 'noise'] as const;
    // IVUS, garbage, IVUS, garbage, IVUS, garbage, IVUS, IVUS, IVUS.
    const ivus = [0, 2, 4, 6, 7, 8];
    const frames = new Uint8Array((sequence.frames.length + garbage.length) * size);
    ivus.forEach((at, k) => frames.set(sequence.render(k), at * size));
    garbage.forEach((kind, j) => frames.set(unreadableFrame(kind, source), (2 * j + 1) * size));
    const { detections } = detectBorderSequence(detectorOf(evaluation), frames, geometryOf(evaluation));
    const result = body(detections);
    for (const at of [1, 3, 5]) expect(hasBorder(result.contours[at]!)).toBe(false);
    for (const index of ivus) expect(detections[index]!.readable).toBe(true);
    const smallest = ivus.reduce((best, index) => (detections[index]!.areaMm2 < detections[best]!.areaMm2 ? index : best));
    expect(result.mla?.slice).toBe(smallest + 1);
  }, 60_000);
});

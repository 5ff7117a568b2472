import { describe, expect, it } from 'vitest';
import type { SliceDetection } from '../../../src/domain/contours/api.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { evaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';

// An echolucent-plaque case (a TUNING seed) whose consecutive frames 522–525 are true neighbours.
// With the temporal cue and the continuity of the frame before, the lumen grows through the dark
// plaque onto the EEM over an eighth of the circumference: lumen Dice 0.90–0.91 at confidence
// 0.79–0.81, so sure of itself that a confidence trigger never asks for a second opinion. Alone, the
// same frames read 0.98. The frame after such a frame must not inherit its borders either.
const evaluation = evaluationCase('echolucent-plaque', 1102);
const renderer = createBmodeRenderer(evaluation.model);
const { frameWidth, frameHeight, pixelSpacingMm } = evaluation;
const geometry = { frameWidth, frameHeight, pixelSpacingMm };
const centre = evaluation.frames[0]!.catheterCentre;
const detector = () => createBorderDetector({ ...geometry, centreX: centre.x, centreY: centre.y });
const indices = [522, 523, 524, 525];
const frameOf = (index: number): Uint8Array => renderer.renderFrame(index).slice();

function dice(detection: SliceDetection, index: number): { lumen: number; vessel: number } {
  const truth = truthContours(evaluation.model, index);
  return {
    lumen: diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, frameWidth),
    vessel: diceCoefficient(measuredOutline(detection.vessel!.controlPoints), truth.vessel, frameWidth),
  };
}

describe('a neighbour frame that is wrong and sure of itself (issue 23: continuity never carries a failure)', () => {
  it('keeps each frame as good as alone when the lumen has grown onto the EEM', () => {
    const bytes = frameWidth * frameHeight;
    const frames = new Uint8Array(indices.length * bytes);
    indices.forEach((index, k) => frames.set(frameOf(index), k * bytes));
    const { detections } = detectBorderSequence(detector(), frames, geometry);
    indices.forEach((index, k) => {
      const alone = dice(detectBorderSequence(detector(), frameOf(index), geometry).detections[0]!, index);
      const inSequence = dice(detections[k]!, index);
      expect(inSequence.lumen).toBeGreaterThanOrEqual(alone.lumen - 0.02);
      expect(inSequence.vessel).toBeGreaterThanOrEqual(alone.vessel - 0.02);
    });
  }, 60_000);
});

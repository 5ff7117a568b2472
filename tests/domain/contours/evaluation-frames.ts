/**
 * One evaluation case's frames for a detector test: its geometry, a fresh detector at its catheter
 * centre, a frame by index (a copy), several frames concatenated as detectBorderSequence takes them,
 * and a detection's lumen and vessel Dice against the case's truth.
 */
import type { SliceDetection } from '../../../src/domain/contours/api.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { createBorderDetector, type InspectableBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { evaluationCase, type EvaluationCaseType } from '../../../src/domain/synthetic/evaluation-cases.ts';

export function evaluationFrames(type: EvaluationCaseType, seed: number) {
  const evaluation = evaluationCase(type, seed);
  const renderer = createBmodeRenderer(evaluation.model);
  const { frameWidth, frameHeight, pixelSpacingMm } = evaluation;
  const geometry = { frameWidth, frameHeight, pixelSpacingMm };
  const centre = evaluation.frames[0]!.catheterCentre;
  const frameOf = (index: number): Uint8Array => renderer.renderFrame(index).slice();
  return {
    geometry,
    detector: (): InspectableBorderDetector => createBorderDetector({ ...geometry, centreX: centre.x, centreY: centre.y }),
    frameOf,
    framesOf(indices: readonly number[]): Uint8Array {
      const bytes = frameWidth * frameHeight;
      const frames = new Uint8Array(indices.length * bytes);
      indices.forEach((index, k) => frames.set(frameOf(index), k * bytes));
      return frames;
    },
    dice(detection: SliceDetection, index: number): { lumen: number; vessel: number } {
      const truth = truthContours(evaluation.model, index);
      return {
        lumen: diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, frameWidth),
        vessel: diceCoefficient(measuredOutline(detection.vessel!.controlPoints), truth.vessel, frameWidth),
      };
    },
  };
}

import { describe, expect, it } from 'vitest';
import { detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { evaluationFrames } from './evaluation-frames.ts';

// An echolucent-plaque case (a TUNING seed) whose consecutive frames 522–525 are true neighbours.
// With the temporal cue and the continuity of the frame before, the lumen grows through the dark
// plaque onto the EEM over an eighth of the circumference: lumen Dice 0.90–0.91 at confidence
// 0.79–0.81, so sure of itself that a confidence trigger never asks for a second opinion. Alone, the
// same frames read 0.98. The frame after such a frame must not inherit its borders either.
const { geometry, detector, frameOf, framesOf, dice } = evaluationFrames('echolucent-plaque', 1102);
const indices = [522, 523, 524, 525];

describe('a neighbour frame that is wrong and sure of itself (issue 23: continuity never carries a failure)', () => {
  it('keeps each frame as good as alone when the lumen has grown onto the EEM', () => {
    const { detections } = detectBorderSequence(detector(), framesOf(indices), geometry);
    indices.forEach((index, k) => {
      const alone = dice(detectBorderSequence(detector(), frameOf(index), geometry).detections[0]!, index);
      const inSequence = dice(detections[k]!, index);
      expect(inSequence.lumen).toBeGreaterThanOrEqual(alone.lumen - 0.02);
      expect(inSequence.vessel).toBeGreaterThanOrEqual(alone.vessel - 0.02);
    });
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { evaluationFrames } from './evaluation-frames.ts';

// An eccentric-catheter case (a TUNING seed) with a calcium arc: in the run, frames 706–707 read the
// lumen at 0.96 with the temporal cue but their EEM stays bent (on the calcium); alone, the EEM across
// the calcium is bridged (0.99) while the lumen, without the cue, reads 0.925.
const { geometry, detector, frameOf, framesOf, dice } = evaluationFrames('eccentric-catheter', 1103);

describe('a bent EEM giving way to the frame alone (issue 23)', () => {
  it("takes the frame alone's EEM and keeps the run's lumen", () => {
    const indices = [705, 706, 707];
    const { detections } = detectBorderSequence(detector(), framesOf(indices), geometry);
    const last = indices.at(-1)!;
    const alone = dice(detectBorderSequence(detector(), frameOf(last), geometry).detections[0]!, last);
    const inSequence = dice(detections.at(-1)!, last);
    expect(inSequence.vessel).toBeGreaterThanOrEqual(alone.vessel - 0.01);
    expect(inSequence.lumen).toBeGreaterThan(alone.lumen + 0.02);
    // The kept lumen stays inside the vessel it is now paired with.
    expect(detections.at(-1)!.vessel.areaMm2).toBeGreaterThan(detections.at(-1)!.areaMm2);
  }, 60_000);
});

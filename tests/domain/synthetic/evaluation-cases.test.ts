import { describe, expect, it } from 'vitest';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import {
  EVALUATION_CASE_TYPES,
  EVALUATION_SEEDS,
  RUN_FRAMES,
  TUNING_SEEDS,
  evaluationCase,
  type EvaluationCase,
} from '../../../src/domain/synthetic/evaluation-cases.ts';

/** Whether the feature a case type is about shows in a frame of the case. */
function featurePresent(evaluation: EvaluationCase, frameIndex: number): boolean {
  const section = crossSectionAt(evaluation.model, frameIndex);
  const hard = evaluation.model.hardCases;
  switch (evaluation.type) {
    case 'baseline':
      return hard === undefined && evaluation.look === 'demo';
    case 'plain-look':
      return evaluation.look !== 'demo';
    case 'echolucent-plaque':
      return section.echolucent !== null && section.echolucent.halfArcRad > 0.3;
    case 'bright-blood':
      return evaluation.look === '60mhz' && hard!.bloodEchoGain > 1;
    case 'eccentric-catheter':
      return Math.hypot(section.lumenCentreMm.x, section.lumenCentreMm.y) > 0.15;
    case 'side-branch':
      return section.branch !== null && section.branch.halfArcRad > 0.2;
    case 'stent':
      return section.struts !== null && section.struts.anglesRad.length >= 6;
    case 'nurd':
      return section.sceneAngleRad(1) !== 1;
    case 'cardiac-motion':
      return hard!.cardiac !== null;
    case 'mixed-20mhz':
    case 'mixed-60mhz':
      return hard!.nurd !== null && hard!.cardiac !== null && (section.echolucent !== null || section.branch !== null || section.struts !== null);
    case 'coronary-20mhz':
      return evaluation.look === '20mhz-coronary' && hard!.tissueLevels?.kind === 'typical';
    case 'bright-adventitia':
      return evaluation.look === '20mhz-coronary' && hard!.tissueLevels?.kind === 'bright-adventitia';
    case 'low-signal-arc':
      // A calcium shadow or a branch ostium over at least a fifth of the circumference (2π/5 = 1.26 rad).
      return Math.max(section.calcium?.halfArcRad ?? 0, section.branch?.halfArcRad ?? 0) > 0.63;
  }
}

describe('evaluation cases', () => {
  it('tune and report on disjoint seeds', () => {
    expect(TUNING_SEEDS.length).toBeGreaterThanOrEqual(4);
    expect(EVALUATION_SEEDS.length).toBeGreaterThanOrEqual(3);
    for (const seed of EVALUATION_SEEDS) expect(TUNING_SEEDS).not.toContain(seed);
  });

  it.each(EVALUATION_CASE_TYPES.flatMap((type) => [TUNING_SEEDS[0]!, EVALUATION_SEEDS[0]!].map((seed) => [type, seed] as const)))(
    '%s (seed %i): a run of consecutive frames at a real geometry, with its feature in every frame',
    (type, seed) => {
      const evaluation = evaluationCase(type, seed);
      expect(evaluation.frames).toHaveLength(RUN_FRAMES);
      evaluation.frames.forEach((frame, k) => {
        expect(frame.frameIndex).toBe(evaluation.frames[0]!.frameIndex + k);
        expect(frame.truth).toEqual(truthContours(evaluation.model, frame.frameIndex));
        expect(featurePresent(evaluation, frame.frameIndex)).toBe(true);
      });
      if (type === 'baseline') {
        expect([evaluation.frameWidth, evaluation.pixelSpacingMm]).toEqual([512, 0.01]);
      } else {
        expect([384, 500, 512]).toContain(evaluation.frameWidth);
        expect(evaluation.pixelSpacingMm).toBeGreaterThanOrEqual(0.02);
        expect(evaluation.pixelSpacingMm).toBeLessThanOrEqual(0.035);
      }
      expect(evaluation.frameHeight).toBe(evaluation.frameWidth);
    },
  );

  it('is the same for the same seed, and differs between seeds and between case types', () => {
    const a = evaluationCase('stent', EVALUATION_SEEDS[0]!);
    const again = evaluationCase('stent', EVALUATION_SEEDS[0]!);
    expect(again.model).toEqual(a.model);
    expect(again.frames).toEqual(a.frames);
    expect(again.render(3)).toEqual(a.render(3));
    expect(evaluationCase('stent', EVALUATION_SEEDS[1]!).model.seed).not.toBe(a.model.seed);
    expect(evaluationCase('nurd', EVALUATION_SEEDS[0]!).model.seed).not.toBe(a.model.seed);
  });

  it('renders the run at the case geometry, with the catheter centre of every frame', () => {
    const evaluation = evaluationCase('mixed-60mhz', TUNING_SEEDS[1]!);
    const pixels = evaluation.render(RUN_FRAMES - 1);
    expect(pixels).toHaveLength(evaluation.frameWidth * evaluation.frameHeight);
    const centre = evaluation.frames[0]!.catheterCentre;
    // The catheter itself is silent: black at its centre.
    expect(pixels[Math.floor(centre.y) * evaluation.frameWidth + Math.floor(centre.x)]).toBe(0);
    expect(() => evaluation.render(RUN_FRAMES)).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { calciumScore } from '../../../src/domain/calcium/calcium-score.ts';
import { calciumEvaluationPullback, SAMPLE_STEP_MM, type CalciumEvaluationKind } from '../../../src/domain/synthetic/calcium-evaluation.ts';
import { calciumTruthAt } from '../../../src/domain/synthetic/calcium-truth.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

function truthScore(kind: CalciumEvaluationKind, seed: number) {
  const pullback = calciumEvaluationPullback(kind, seed);
  const slices = pullback.frames.map((f) => ({ positionMm: f.positionMm, arcDeg: f.truth?.arcDeg ?? 0, nodule: f.noduleTruth, vesselDiameterMm: f.vesselDiameterMm }));
  return calciumScore(slices, SAMPLE_STEP_MM);
}

describe('calcium cases of the generator (issue 28)', () => {
  it('leaves existing seeds as they were: no case parameters and the same sections unless asked for', () => {
    const options = { seed: 31, frameCount: 600, frameSizePx: 500, pixelSpacingMm: 0.02, look: '20mhz' as const };
    const plain = createPullbackModel({ ...options, hardCases: { stent: true } });
    expect(plain.hardCases).not.toHaveProperty('calciumCase');
    expect(plain.hardCases).not.toHaveProperty('vesselAreaScale');
    const withCase = createPullbackModel({ ...options, hardCases: { stent: true, calcium: 'extensive' } });
    // The other features' draws do not move when a calcium case is switched on.
    expect({ ...withCase.hardCases, calciumCase: undefined }).toEqual({ ...plain.hardCases, calciumCase: undefined });
    const frame = 300;
    expect(crossSectionAt(withCase, frame).lumenRadiusMm(1)).toBe(crossSectionAt(plain, frame).lumenRadiusMm(1));
  });

  it('gives each frame its arc in degrees with where it starts and ends', () => {
    const model = createPullbackModel({ seed: 7, frameCount: 1800, frameSizePx: 500, pixelSpacingMm: 0.02, look: '20mhz' });
    const frames = Array.from({ length: 1800 }, (_, i) => calciumTruthAt(model, i)).filter((t) => t !== null);
    expect(frames.length).toBeGreaterThan(0);
    for (const t of frames) expect((t.endDeg - t.startDeg + 360) % 360).toBeCloseTo(t.arcDeg, 6);
  });

  it('makes each case score what it is for, and plain calcium score nothing', () => {
    const seed = 1101;
    expect(truthScore('plain', seed).total).toBe(0);
    const extensive = truthScore('extensive', seed);
    expect(extensive.longArc.run!.lengthMm).toBeGreaterThan(5);
    expect(extensive.total).toBe(1);
    const circumferential = truthScore('circumferential', seed);
    expect(circumferential.circumferential.point).toBe(1);
    expect(circumferential.longArc.point).toBe(0);
    expect(truthScore('nodule', seed).nodule.point).toBe(1);
    const small = truthScore('small-vessel', seed);
    expect(small.smallVessel.diameterMm!).toBeLessThan(3.5);
    expect(small.total).toBe(1);
  });
});

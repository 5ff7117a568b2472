import { describe, expect, it } from 'vitest';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { beatExcursion, drawHeartbeat, endDiastolicFrames } from '../../../src/domain/synthetic/heartbeat.ts';
import { polygonAreaMm2, truthContours } from '../../../src/domain/synthetic/contours.ts';
import { createPullbackModel, type PullbackModelOptions } from '../../../src/domain/synthetic/pullback-model.ts';

const base: PullbackModelOptions = { seed: 41, frameCount: 900, frameSizePx: 256, pixelSpacingMm: 0.025, look: '20mhz' };

describe('heartbeat (the generator’s cardiac cycle with known end-diastole)', () => {
  it('is off unless asked for: the cardiac-motion case of a seed draws and renders as before', () => {
    const plain = createPullbackModel({ ...base, hardCases: { cardiacMotion: 1 } });
    const beating = createPullbackModel({ ...base, hardCases: { cardiacMotion: 1, heartbeat: { bpm: 70 } } });
    expect(plain.hardCases?.cardiac?.heartbeat).toBeUndefined();
    // Everything else the seed draws stays as it was.
    const { heartbeat, ...rest } = beating.hardCases!.cardiac!;
    expect(heartbeat).toBeDefined();
    expect(rest).toEqual(plain.hardCases!.cardiac);
    expect(beating.anatomy).toEqual(plain.anatomy);
  });

  it('beats at the asked rate with beat-to-beat variation', () => {
    for (const bpm of [50, 75, 100]) {
      const frames = endDiastolicFrames(drawHeartbeat(7, { bpm, variability: 0.1 }), 1800, 30);
      const intervals = frames.slice(1).map((f, k) => f - frames[k]!);
      const meanInterval = intervals.reduce((a, b) => a + b, 0) / intervals.length;
      expect((60 * 30) / meanInterval).toBeGreaterThan(0.95 * bpm);
      expect((60 * 30) / meanInterval).toBeLessThan(1.05 * bpm);
      // Not a metronome: the intervals differ by a few frames.
      expect(Math.max(...intervals) - Math.min(...intervals)).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps the anatomy still in late diastole and moves it at once when the contraction starts', () => {
    expect(beatExcursion(0)).toBe(0);
    expect(beatExcursion(0.95)).toBeLessThan(0.01);
    expect(beatExcursion(0.05)).toBeGreaterThan(0.25);
    expect(beatExcursion(0.28)).toBeCloseTo(1, 2);
  });

  it('shows the largest lumen at end-diastole, smaller in systole', () => {
    const model = createPullbackModel({ ...base, hardCases: { cardiacMotion: 1, heartbeat: { bpm: 60 } } });
    const [first, second] = endDiastolicFrames(model.hardCases!.cardiac!.heartbeat!, model.frameCount, model.frameRateHz);
    const area = (frame: number) => polygonAreaMm2(truthContours(model, frame).lumen, model.pixelSpacingMm);
    const endSystole = first! + Math.round(0.28 * (second! - first!));
    expect(area(endSystole)).toBeLessThan(0.97 * area(first!));
    // The transducer slides along the vessel and back within the beat.
    expect(crossSectionAt(model, endSystole).zMm - crossSectionAt(model, first!).zMm).toBeGreaterThan(0.1);
  });

  it('refuses rates and variations no heart has', () => {
    expect(() => drawHeartbeat(1, { bpm: 10 })).toThrow(RangeError);
    expect(() => drawHeartbeat(1, { bpm: 70, variability: 0.9 })).toThrow(RangeError);
  });
});

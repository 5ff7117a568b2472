import { describe, expect, it } from 'vitest';
import { detectEndDiastole } from '../../../src/domain/gating/end-diastole.ts';
import { scoreGating } from '../../../src/domain/gating/gating-score.ts';
import { motionSignal } from '../../../src/domain/gating/motion-signal.ts';
import { seededRandom } from '../../../src/domain/random.ts';
import { drawHeartbeat, endDiastolicFrames, excursionAt } from '../../../src/domain/synthetic/heartbeat.ts';
import { gatingCase } from '../../../src/domain/synthetic/gating-cases.ts';

const FPS = 30;

/**
 * A motion signal as the frames give it, without rendering them: the still frames' change (blood
 * speckle) as noise on a floor, plus the anatomy's movement from each frame to the next.
 */
function beatingSignal(seed: number, bpm: number, frames: number, strokeGain: number): { motion: Float64Array; truth: number[] } {
  const heartbeat = drawHeartbeat(seed, { bpm, variability: 0.1 });
  const random = seededRandom(seed);
  const motion = new Float64Array(frames - 1);
  for (let i = 0; i + 1 < frames; i++) {
    const moved = Math.abs(excursionAt(heartbeat, i + 1, FPS) - excursionAt(heartbeat, i, FPS));
    motion[i] = 2 + 0.1 * (random() - 0.5) + strokeGain * moved;
  }
  return { motion, truth: endDiastolicFrames(heartbeat, frames, FPS) };
}

describe('detectEndDiastole', () => {
  it('finds every end-diastole within a frame at slow, normal and fast heart rates', () => {
    for (const bpm of [50, 72, 100]) {
      const { motion, truth } = beatingSignal(bpm, bpm, 600, 6);
      const result = detectEndDiastole(motion, { frameRateHz: FPS });
      expect(result.kind).toBe('gated');
      if (result.kind !== 'gated') continue;
      const interior = truth.filter((f) => f >= 6 && f < 594);
      const score = scoreGating(interior, result.endDiastolicFrames.filter((f) => f >= 5 && f < 595));
      expect(score.hits).toBe(score.cycles);
      expect(score.falseFrames).toBe(0);
      expect(Math.abs(result.heartRateBpm - bpm)).toBeLessThan(0.15 * bpm);
    }
  });

  it('answers "no cycle" rather than frames when nothing beats', () => {
    const random = seededRandom(7);
    const still = Float64Array.from({ length: 599 }, () => 2 + 0.1 * random());
    const result = detectEndDiastole(still, { frameRateHz: FPS });
    expect(result.kind).toBe('no-cycle');
  });

  it('answers "no cycle" when the frames change only slowly along the pullback (no beat, as on the demo records)', () => {
    const random = seededRandom(17);
    let drift = 0;
    // Smoothly wandering change: its autocorrelation decays from lag 0 without ever rising to a peak.
    const slow = Float64Array.from({ length: 299 }, (_, i) => {
      drift = 0.9 * drift + 0.05 * (random() - 0.5);
      return 3 + 0.1 * Math.sin((2 * Math.PI * i) / 250) + drift;
    });
    expect(detectEndDiastole(slow, { frameRateHz: FPS }).kind).toBe('no-cycle');
  });

  it('answers "no cycle" on frames that are already gated (one per beat: their changes do not repeat)', () => {
    const { motion, truth } = beatingSignal(3, 75, 1800, 6);
    const random = seededRandom(11);
    // Between two end-diastoles the anatomy is back where it was; what changes is the pullback and speckle.
    const gated = Float64Array.from({ length: truth.length - 1 }, () => 2 + 0.3 * random());
    expect(motion.length).toBeGreaterThan(gated.length);
    expect(detectEndDiastole(gated, { frameRateHz: FPS }).kind).toBe('no-cycle');
  });

  it('answers "no cycle" when frames were dropped at random (the beat no longer repeats)', () => {
    const { motion } = beatingSignal(5, 75, 900, 6);
    const random = seededRandom(13);
    const kept = Array.from(motion).filter(() => random() < 0.4);
    expect(detectEndDiastole(Float64Array.from(kept), { frameRateHz: FPS }).kind).toBe('no-cycle');
  });

  it('needs three slow cycles of frames', () => {
    const { motion } = beatingSignal(9, 60, 100, 6);
    const result = detectEndDiastole(motion, { frameRateHz: FPS });
    expect(result).toMatchObject({ kind: 'no-cycle', reason: expect.stringMatching(/too few/) });
    expect(() => detectEndDiastole(motion, { frameRateHz: 0 })).toThrow(RangeError);
  });
});

describe('gating rendered frames', () => {
  it('gates a beating pullback from its pixels, one frame per cycle at end-diastole', () => {
    const pullback = gatingCase(3103, 100, 'clean');
    // Four seconds: enough for a heart rate range of 60-150 bpm, few enough to render in a test.
    const frameCount = 120;
    const motion = motionSignal({ width: pullback.model.frameSizePx, height: pullback.model.frameSizePx, frameCount, frame: pullback.render });
    const result = detectEndDiastole(motion, { frameRateHz: FPS, minBpm: 60 });
    expect(result.kind).toBe('gated');
    if (result.kind !== 'gated') return;
    const interior = pullback.endDiastolicFrames.filter((f) => f >= 6 && f < frameCount - 6);
    const score = scoreGating(interior, result.endDiastolicFrames);
    expect(score.hits).toBe(score.cycles);
    expect(score.falseFrames).toBe(0);
  }, 120_000);
});

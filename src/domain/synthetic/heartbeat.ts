/**
 * A heart that beats at a chosen rate with beat-to-beat variation (issue 28, image-based gating):
 * the cardiac phase of every frame is known, so end-diastole is known, and a gating detector can be
 * scored against it.
 *
 * The rate varies smoothly (respiratory sinus arrhythmia, a slower drift and a near-alternation of
 * long and short beats), so the phase is a closed-form integral: any frame can be computed on its
 * own and the parameters stay plain data, as the rest of the model.
 *
 * Within a beat (u from 0 at end-diastole to 1 at the next), the anatomy's excursion follows the
 * cath lab's picture: a quick systolic stroke that starts at full speed (the contraction after the
 * R wave), then a diastolic return that slows down exponentially into a nearly still diastasis.
 * End-diastole is therefore the last frame of the still stretch and the frame of the largest lumen.
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';

export interface HeartbeatOptions {
  /** Mean heart rate, in beats per minute (30 to 180). */
  readonly bpm: number;
  /** Largest relative change of the instantaneous rate (0 to 0.3); 0.08 by default. */
  readonly variability?: number;
}

export interface RateVariation {
  /** Relative amplitude of this term of the instantaneous rate. */
  readonly amplitude: number;
  readonly periodS: number;
  readonly phaseRad: number;
}

export interface HeartbeatParameters {
  readonly meanRateHz: number;
  readonly variations: readonly RateVariation[];
  /** Where in its beat the heart is at the first frame (0: end-diastole). */
  readonly startBeatFraction: number;
}

/** Share of the beat taken by the systolic stroke. */
export const SYSTOLE_FRACTION = 0.28;
/** Time constant of the diastolic return, as a share of the beat. */
const DIASTOLE_DECAY = 0.11;
const HEARTBEAT_STREAM = 0x4ea7;

export function drawHeartbeat(seed: number, options: HeartbeatOptions): HeartbeatParameters {
  const variability = options.variability ?? 0.08;
  if (!(options.bpm >= 30 && options.bpm <= 180)) throw new RangeError(`heartbeat bpm must lie in [30, 180], got ${options.bpm}`);
  if (!(variability >= 0 && variability <= 0.3)) throw new RangeError(`heartbeat variability must lie in [0, 0.3], got ${variability}`);
  const random = seededRandom(deriveSeed(seed, HEARTBEAT_STREAM));
  const between = (low: number, high: number): number => low + (high - low) * random();
  const meanRateHz = options.bpm / 60;
  const breathing = between(0.45, 0.6);
  const drift = between(0.15, 0.3);
  return {
    meanRateHz,
    variations: [
      { amplitude: variability * breathing, periodS: between(3, 5), phaseRad: between(0, 2 * Math.PI) },
      { amplitude: variability * drift, periodS: between(8, 14), phaseRad: between(0, 2 * Math.PI) },
      // Close to two beats: long and short beats nearly alternate, and the pattern drifts.
      { amplitude: variability * (1 - breathing - drift), periodS: between(1.8, 2.3) / meanRateHz, phaseRad: between(0, 2 * Math.PI) },
    ],
    startBeatFraction: random(),
  };
}

/**
 * Beats elapsed at time t (s) since the heart was at end-diastole: the integral of the
 * instantaneous rate f0 (1 + Σ a cos(2π t / P + φ)). Increasing, since Σ a ≤ 0.3 < 1.
 */
export function beatsAt(heartbeat: HeartbeatParameters, timeS: number): number {
  let beats = heartbeat.startBeatFraction + heartbeat.meanRateHz * timeS;
  for (const v of heartbeat.variations) {
    const w = (2 * Math.PI) / v.periodS;
    beats += (heartbeat.meanRateHz * v.amplitude * (Math.sin(w * timeS + v.phaseRad) - Math.sin(v.phaseRad))) / w;
  }
  return beats;
}

/**
 * The anatomy's excursion at a point u ∈ [0, 1) of the beat: 0 at end-diastole, 1 at end-systole.
 * The stroke starts at full speed; the return is an exponential that reaches exactly 0 at u = 1.
 */
export function beatExcursion(u: number): number {
  if (u < SYSTOLE_FRACTION) return Math.sin((0.5 * Math.PI * u) / SYSTOLE_FRACTION);
  const tail = Math.exp(-(1 - SYSTOLE_FRACTION) / DIASTOLE_DECAY);
  return (Math.exp(-(u - SYSTOLE_FRACTION) / DIASTOLE_DECAY) - tail) / (1 - tail);
}

export function excursionAt(heartbeat: HeartbeatParameters, frameIndex: number, frameRateHz: number): number {
  const beats = beatsAt(heartbeat, frameIndex / frameRateHz);
  return beatExcursion(beats - Math.floor(beats));
}

/**
 * The truth: the end-diastolic frame of every beat that starts within the frames, i.e. the last
 * frame before each contraction begins (frame i when a beat starts between frames i and i + 1).
 */
export function endDiastolicFrames(heartbeat: HeartbeatParameters, frameCount: number, frameRateHz: number): number[] {
  const frames: number[] = [];
  let previous = Math.floor(beatsAt(heartbeat, 0));
  for (let i = 0; i + 1 < frameCount; i++) {
    const next = Math.floor(beatsAt(heartbeat, (i + 1) / frameRateHz));
    if (next > previous) frames.push(i);
    previous = next;
  }
  return frames;
}

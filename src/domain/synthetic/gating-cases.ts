/**
 * Pullbacks for evaluating image-based gating (issue 28): a beating heart at a known rate
 * (heartbeat.ts), with its end-diastolic frames as truth, under a few kinds of difficulty.
 *
 * Tune on GATING_TUNING_SEEDS, report on GATING_EVALUATION_SEEDS (disjoint). Every case is a
 * 20 s pullback (600 frames at 30 frames/s) at 256 px and 0.025 mm/px: wide enough for the
 * catheter's cardiac displacement, small enough that a bench renders dozens of pullbacks.
 */
import { seededRandom } from '../random.ts';
import { createBmodeRenderer } from './bmode-frame.ts';
import type { HardCaseOptions } from './hard-cases.ts';
import { deriveSeed } from './hash.ts';
import { endDiastolicFrames } from './heartbeat.ts';
import type { ImagingLookName } from './imaging-look.ts';
import { createPullbackModel, type PullbackModel } from './pullback-model.ts';

export const GATING_HEART_RATES_BPM = [50, 75, 100] as const;
export const GATING_DIFFICULTIES = ['clean', 'bright-blood', 'weak-motion', 'nurd'] as const;
export type GatingDifficulty = (typeof GATING_DIFFICULTIES)[number];

export const GATING_TUNING_SEEDS: readonly number[] = [3101, 3102, 3103, 3104];
export const GATING_EVALUATION_SEEDS: readonly number[] = [4201, 4202, 4203, 4204];

export const GATING_FRAME_RATE_HZ = 30;
export const GATING_FRAME_COUNT = 600;
const FRAME_SIZE_PX = 256;
const PIXEL_SPACING_MM = 0.025;
const CASE_STREAM = 0x9a7e;

const DIFFICULTY_FEATURES: { readonly [d in GatingDifficulty]: HardCaseOptions } = {
  clean: { cardiacMotion: 1 },
  // Blood speckle, new in every frame, is the noise of the motion signal.
  'bright-blood': { cardiacMotion: 1, bloodEchoGain: 2.5 },
  'weak-motion': { cardiacMotion: 0.5 },
  // The catheter's uneven rotation changes the frame without any heartbeat.
  nurd: { cardiacMotion: 1, nurd: 0.25 },
};

export interface GatingCase {
  readonly seed: number;
  readonly bpm: number;
  readonly difficulty: GatingDifficulty;
  readonly model: PullbackModel;
  /** The last frame before each contraction (the truth a detector is scored against). */
  readonly endDiastolicFrames: readonly number[];
  /** A new array each call: frame `index`'s 8-bit pixels. */
  render(index: number): Uint8Array;
}

export function gatingCase(seed: number, bpm: number, difficulty: GatingDifficulty): GatingCase {
  const random = seededRandom(deriveSeed(seed ^ CASE_STREAM, bpm * 16 + GATING_DIFFICULTIES.indexOf(difficulty)));
  const modelSeed = Math.floor(random() * 0x7fffffff);
  const look: ImagingLookName = random() < 0.5 ? '20mhz' : '60mhz';
  const variability = 0.05 + 0.07 * random();
  const model = createPullbackModel({
    seed: modelSeed,
    frameCount: GATING_FRAME_COUNT,
    frameSizePx: FRAME_SIZE_PX,
    pixelSpacingMm: PIXEL_SPACING_MM,
    frameRateHz: GATING_FRAME_RATE_HZ,
    look,
    hardCases: { ...DIFFICULTY_FEATURES[difficulty], heartbeat: { bpm, variability } },
  });
  const heartbeat = model.hardCases?.cardiac?.heartbeat;
  if (heartbeat === undefined) throw new Error('a gating case has a beating heart');
  const renderer = createBmodeRenderer(model);
  return {
    seed,
    bpm,
    difficulty,
    model,
    endDiastolicFrames: endDiastolicFrames(heartbeat, model.frameCount, model.frameRateHz),
    render: (index) => renderer.renderFrame(index),
  };
}

/**
 * Stented pullbacks for the stent bench and tests (issue 28): 40 mm of pullback with a deployed
 * stent over the lesion (deployed-stent.ts), at a frame size, pixel size and look drawn from the
 * seed as the evaluation cases draw theirs. Tune on TUNING_SEEDS, report on EVALUATION_SEEDS
 * (evaluation-cases.ts): every draw comes from the seed, so the two sets are different pullbacks.
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';
import type { ImagingLookName } from './imaging-look.ts';
import { createPullbackModel, type PullbackModel } from './pullback-model.ts';

const STENT_CASE_STREAM = 0x5e47;
const FRAME_RATE_HZ = 30;
const PULLBACK_SPEED_MM_PER_S = 0.5;
/** 40 mm: the longest stent (24 mm) with 7 mm of native vessel on each side and some room. */
const LENGTH_MM = 40;
const FRAME_SIZES_PX = [384, 500, 512] as const;

export interface StentCase {
  readonly seed: number;
  readonly look: ImagingLookName;
  readonly model: PullbackModel;
}

/** `cardiacMotion` adds the heart's motion (hard-cases.ts) to the stented pullback; none by default. */
export function stentCase(seed: number, cardiacMotion = 0): StentCase {
  const random = seededRandom(deriveSeed(seed, STENT_CASE_STREAM));
  const modelSeed = Math.floor(random() * 0x7fffffff);
  const look: ImagingLookName = random() < 0.5 ? '20mhz' : '60mhz';
  const frameSizePx = FRAME_SIZES_PX[Math.floor(random() * FRAME_SIZES_PX.length)]!;
  const pixelSpacingMm = Math.round((0.02 + 0.015 * random()) * 10_000) / 10_000;
  const model = createPullbackModel({
    seed: modelSeed,
    frameCount: Math.round((LENGTH_MM / PULLBACK_SPEED_MM_PER_S) * FRAME_RATE_HZ),
    frameSizePx,
    pixelSpacingMm,
    frameRateHz: FRAME_RATE_HZ,
    pullbackSpeedMmPerS: PULLBACK_SPEED_MM_PER_S,
    look,
    hardCases: cardiacMotion > 0 ? { deployedStent: true, cardiacMotion } : { deployedStent: true },
  });
  return { seed, look, model };
}

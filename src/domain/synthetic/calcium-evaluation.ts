/**
 * Pullbacks for evaluating calcium detection and the IVUS calcium score (issue 28): one per case
 * kind and seed, each a 30 mm pullback sampled every SAMPLE_STEP_MM along its length (the score
 * needs the whole pullback; every frame would cost ten times the time for little more), with the
 * generator's truth per sampled frame. Seeds are TUNING_SEEDS and EVALUATION_SEEDS of
 * evaluation-cases.ts (disjoint: tune on one, report on the other).
 */
import { seededRandom } from '../random.ts';
import { calciumTruthAt, noduleTruthAt, vesselDiameterTruthMm, type CalciumArcTruth } from './calcium-truth.ts';
import type { CalciumCaseKind } from './calcium-cases.ts';
import { deriveSeed } from './hash.ts';
import type { HardCaseOptions } from './hard-cases.ts';
import type { ImagingLookName } from './imaging-look.ts';
import { createPullbackModel, framePositionMm, type PullbackModel } from './pullback-model.ts';

/** 'plain' is the anatomy's own calcium (as every existing seed has it); the others switch on one score component. */
export const CALCIUM_EVALUATION_KINDS = ['plain', 'extensive', 'circumferential', 'nodule', 'small-vessel'] as const;
export type CalciumEvaluationKind = (typeof CALCIUM_EVALUATION_KINDS)[number];

const FRAME_RATE_HZ = 30;
const PULLBACK_SPEED_MM_PER_S = 0.5;
const FRAME_COUNT = 1800;
/** Sampled frames lie this far apart along the pullback. */
export const SAMPLE_STEP_MM = 0.25;
/** A nodule counts in the truth where it stands this far into the lumen. */
export const NODULE_TRUTH_MIN_HEIGHT_MM = 0.15;
const LOOKS: readonly ImagingLookName[] = ['20mhz', '60mhz', '20mhz-coronary'];
const GEOMETRIES = [
  { sizePx: 384, spacingMm: 0.03 },
  { sizePx: 500, spacingMm: 0.02 },
  { sizePx: 512, spacingMm: 0.025 },
] as const;
const STREAM = 0xca1e;

export interface CalciumEvaluationFrame {
  readonly frameIndex: number;
  readonly positionMm: number;
  readonly truth: CalciumArcTruth | null;
  readonly noduleTruth: boolean;
  readonly vesselDiameterMm: number;
}

export interface CalciumEvaluationPullback {
  readonly kind: CalciumEvaluationKind;
  readonly seed: number;
  readonly model: PullbackModel;
  readonly frames: readonly CalciumEvaluationFrame[];
}

export function calciumEvaluationPullback(kind: CalciumEvaluationKind, seed: number): CalciumEvaluationPullback {
  const random = seededRandom(deriveSeed(seed ^ STREAM, CALCIUM_EVALUATION_KINDS.indexOf(kind)));
  const modelSeed = Math.floor(random() * 0x7fffffff);
  const look = LOOKS[Math.floor(random() * LOOKS.length)]!;
  const geometry = GEOMETRIES[Math.floor(random() * GEOMETRIES.length)]!;
  const features: HardCaseOptions =
    kind === 'plain' ? {} : kind === 'small-vessel' ? { smallVessel: true } : { calcium: kind satisfies CalciumCaseKind };
  const model = createPullbackModel({
    seed: modelSeed,
    frameCount: FRAME_COUNT,
    frameSizePx: geometry.sizePx,
    pixelSpacingMm: geometry.spacingMm,
    frameRateHz: FRAME_RATE_HZ,
    pullbackSpeedMmPerS: PULLBACK_SPEED_MM_PER_S,
    look,
    hardCases: look === '20mhz-coronary' ? { ...features, tissueLevels: 'typical' } : features,
  });
  const stepFrames = Math.round((SAMPLE_STEP_MM / PULLBACK_SPEED_MM_PER_S) * FRAME_RATE_HZ);
  const frames: CalciumEvaluationFrame[] = [];
  for (let frameIndex = Math.floor(stepFrames / 2); frameIndex < FRAME_COUNT; frameIndex += stepFrames) {
    frames.push({
      frameIndex,
      positionMm: framePositionMm(model, frameIndex),
      truth: calciumTruthAt(model, frameIndex),
      noduleTruth: noduleTruthAt(model, frameIndex, NODULE_TRUTH_MIN_HEIGHT_MM),
      vesselDiameterMm: vesselDiameterTruthMm(model, frameIndex),
    });
  }
  return { kind, seed, model, frames };
}

/**
 * Named evaluation cases for automatic border detection (issue 15). Each case type switches on one
 * hard-case feature of the generator (or all of them, in the mixed cases) at realistic frame sizes
 * (384, 500 or 512 px at 0.02-0.035 mm/px) and returns a short consecutive run of frames where the
 * feature is present, with the true lumen and vessel borders and the catheter centre of each frame.
 *
 * Tune on TUNING_SEEDS, report on EVALUATION_SEEDS: the two sets are disjoint, and every draw (the
 * anatomy, the features, the frame geometry, the look, where the run lies) comes from the seed, so
 * a detector tuned on one set meets unseen pullbacks on the other.
 *
 * 'baseline' is the demo generator exactly as the demo records use it (512 px at 0.01 mm/px, the
 * demo look), the data the legacy lumen detector was made on.
 *
 * The 'coronary-20mhz', 'bright-adventitia' and 'low-signal-arc' cases (issue 23) use the look
 * calibrated on real 20 MHz coronary frames, at the real set's geometry (500 px at 0.02 mm/px):
 * typical grey levels; a very bright adventitia against which the plaque looks dark; a calcium
 * shadow or a side branch's ostium over up to a third of the circumference, the true EEM going on
 * smoothly across it.
 */
import { seededRandom } from '../random.ts';
import { createBmodeRenderer, type BmodeRenderer } from './bmode-frame.ts';
import { catheterCentrePx, truthContours, type TruthContours } from './contours.ts';
import type { HardCaseOptions } from './hard-cases.ts';
import { deriveSeed } from './hash.ts';
import type { ImagePoint } from '../image-point.ts';
import type { ImagingLookName } from './imaging-look.ts';
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from './pullback-model.ts';

export const EVALUATION_CASE_TYPES = [
  'baseline',
  'plain-look',
  'echolucent-plaque',
  'bright-blood',
  'eccentric-catheter',
  'side-branch',
  'stent',
  'nurd',
  'cardiac-motion',
  'mixed-20mhz',
  'mixed-60mhz',
  'coronary-20mhz',
  'bright-adventitia',
  'low-signal-arc',
] as const;

export type EvaluationCaseType = (typeof EVALUATION_CASE_TYPES)[number];

/** Seeds to tune detectors on. */
export const TUNING_SEEDS: readonly number[] = [1101, 1102, 1103, 1104, 1105, 1106, 1107, 1108];
/** Seeds to report on; never tune on these. */
export const EVALUATION_SEEDS: readonly number[] = [2201, 2202, 2203, 2204];

/** Frames per run: about half a second of pullback at 30 frames/s. */
export const RUN_FRAMES = 16;

export interface EvaluationFrame {
  /** Index of the frame in the case's model. */
  readonly frameIndex: number;
  readonly truth: TruthContours;
  /** The catheter's centre in image coordinates (pass it to the detector, or test its default). */
  readonly catheterCentre: ImagePoint;
}

export interface EvaluationCase {
  readonly type: EvaluationCaseType;
  readonly seed: number;
  readonly look: ImagingLookName;
  readonly model: PullbackModel;
  /** What the model was built from: the same with another seed is another pullback of this kind (a second run). */
  readonly modelOptions: PullbackModelOptions;
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  /** Consecutive frames, in pullback order. */
  readonly frames: readonly EvaluationFrame[];
  /** The pixels of frames[k] (frameWidth x frameHeight, row-major, 8-bit): a new array each call. */
  render(k: number): Uint8Array;
}

const FRAME_RATE_HZ = 30;
const PULLBACK_SPEED_MM_PER_S = 0.5;
/** 30 mm of pullback: room for a lesion, a stent and a branch apart from one another. */
const FRAME_COUNT = 1800;
const FRAME_SIZES_PX = [384, 500, 512] as const;
const CASE_STREAM = 0xca5e;

interface CaseRecipe {
  readonly look: ImagingLookName | 'either';
  readonly features: HardCaseOptions;
  /** Where to put the run: around a feature's middle, or anywhere (a random point clear of the ends). */
  readonly around: 'anywhere' | 'echolucent' | 'branch' | 'stent' | 'one-of-them' | 'calcium-or-branch';
  /** The real set's geometry instead of a drawn one. */
  readonly geometry?: { readonly sizePx: number; readonly spacingMm: number };
}

/** The real 20 MHz set of issue 23: 500 x 500 px at 0.02 mm/px. */
const REAL_SET_GEOMETRY = { sizePx: 500, spacingMm: 0.02 } as const;

const RECIPES: { readonly [type in EvaluationCaseType]: CaseRecipe } = {
  baseline: { look: 'demo', features: {}, around: 'anywhere' },
  'plain-look': { look: 'either', features: {}, around: 'anywhere' },
  'echolucent-plaque': { look: 'either', features: { echolucentPlaque: true }, around: 'echolucent' },
  'bright-blood': { look: '60mhz', features: { bloodEchoGain: 1.6 }, around: 'anywhere' },
  'eccentric-catheter': { look: 'either', features: { eccentricCatheter: 0.33 }, around: 'anywhere' },
  'side-branch': { look: 'either', features: { sideBranch: true }, around: 'branch' },
  stent: { look: 'either', features: { stent: true }, around: 'stent' },
  nurd: { look: 'either', features: { nurd: 0.3 }, around: 'anywhere' },
  'cardiac-motion': { look: 'either', features: { cardiacMotion: 1 }, around: 'anywhere' },
  'mixed-20mhz': { look: '20mhz', features: allFeatures(), around: 'one-of-them' },
  'mixed-60mhz': { look: '60mhz', features: allFeatures(), around: 'one-of-them' },
  'coronary-20mhz': { look: '20mhz-coronary', features: { tissueLevels: 'typical' }, around: 'anywhere', geometry: REAL_SET_GEOMETRY },
  'bright-adventitia': { look: '20mhz-coronary', features: { tissueLevels: 'bright-adventitia' }, around: 'anywhere', geometry: REAL_SET_GEOMETRY },
  'low-signal-arc': {
    look: '20mhz-coronary',
    features: { tissueLevels: 'typical', wideArcs: true, sideBranch: true },
    around: 'calcium-or-branch',
    geometry: REAL_SET_GEOMETRY,
  },
};

function allFeatures(): HardCaseOptions {
  return { echolucentPlaque: true, eccentricCatheter: 0.25, sideBranch: true, stent: true, nurd: 0.2, cardiacMotion: 1 };
}

/** Builds the case: its model, its run of frames with their truth, and a renderer for them. */
export function evaluationCase(type: EvaluationCaseType, seed: number): EvaluationCase {
  const recipe = RECIPES[type];
  const typeIndex = EVALUATION_CASE_TYPES.indexOf(type);
  // Case types do not share anatomy: each draws its model's seed from (seed, type).
  const random = seededRandom(deriveSeed(seed ^ CASE_STREAM, typeIndex));
  const modelSeed = Math.floor(random() * 0x7fffffff);
  const look: ImagingLookName = recipe.look === 'either' ? (random() < 0.5 ? '20mhz' : '60mhz') : recipe.look;
  const drawnSizePx = FRAME_SIZES_PX[Math.floor(random() * FRAME_SIZES_PX.length)]!;
  const drawnSpacingMm = Math.round((0.02 + 0.015 * random()) * 10_000) / 10_000;
  const sizePx = recipe.geometry?.sizePx ?? drawnSizePx;
  const spacingMm = recipe.geometry?.spacingMm ?? drawnSpacingMm;
  const panned = type.startsWith('mixed');
  const offset = { x: Math.round(24 * random() - 12), y: Math.round(24 * random() - 12) };
  const picks = { target: random(), within: random(), anywhere: random() };

  const modelOptions: PullbackModelOptions =
    type === 'baseline'
      ? { seed: modelSeed, frameCount: FRAME_COUNT, frameRateHz: FRAME_RATE_HZ, pullbackSpeedMmPerS: PULLBACK_SPEED_MM_PER_S }
      : {
          seed: modelSeed,
          frameCount: FRAME_COUNT,
          frameSizePx: sizePx,
          pixelSpacingMm: spacingMm,
          frameRateHz: FRAME_RATE_HZ,
          pullbackSpeedMmPerS: PULLBACK_SPEED_MM_PER_S,
          look,
          hardCases: panned ? { ...recipe.features, imageOffsetPx: offset } : recipe.features,
        };
  const model = createPullbackModel(modelOptions);

  const middleMm = runMiddleMm(model, recipe.around, picks);
  const middleFrame = Math.round((middleMm / PULLBACK_SPEED_MM_PER_S) * FRAME_RATE_HZ);
  const first = Math.max(0, Math.min(FRAME_COUNT - RUN_FRAMES, middleFrame - RUN_FRAMES / 2));
  const catheterCentre = catheterCentrePx(model);
  const frames: EvaluationFrame[] = [];
  for (let k = 0; k < RUN_FRAMES; k++) {
    frames.push({ frameIndex: first + k, truth: truthContours(model, first + k), catheterCentre });
  }
  let renderer: BmodeRenderer | null = null;
  return {
    type,
    seed,
    look: model.look ?? 'demo',
    model,
    modelOptions,
    frameWidth: model.frameSizePx,
    frameHeight: model.frameSizePx,
    pixelSpacingMm: model.pixelSpacingMm,
    frames,
    render(k) {
      const frame = frames[k];
      if (frame === undefined) throw new RangeError(`frame ${k} is outside the run of ${frames.length}`);
      renderer ??= createBmodeRenderer(model);
      return renderer.renderFrame(frame.frameIndex);
    },
  };
}

/** Middle of the run, in mm along the pullback: inside the feature the case is about. */
function runMiddleMm(model: PullbackModel, around: CaseRecipe['around'], picks: { target: number; within: number; anywhere: number }): number {
  const hard = model.hardCases;
  const anywhere = model.lengthMm * (0.1 + 0.8 * picks.anywhere);
  const aroundPick = picks.within;
  const target =
    around === 'one-of-them'
      ? (['echolucent', 'branch', 'stent'] as const)[Math.floor(picks.target * 3)]!
      : around === 'calcium-or-branch'
        ? (['calcium', 'branch'] as const)[Math.floor(picks.target * 2)]!
        : around;
  switch (target) {
    case 'calcium': {
      // Near the calcium's middle, where its arc (and shadow) is widest.
      const calcium = model.anatomy.calcium;
      return calcium.centreMm + (aroundPick - 0.5) * 0.3 * calcium.halfLengthMm;
    }
    case 'echolucent':
      // Within the middle third of its stretch, where the sector is wide.
      return hard?.echolucent ? hard.echolucent.centreMm + (aroundPick - 0.5) * 0.6 * hard.echolucent.halfLengthMm : anywhere;
    case 'branch':
      return hard?.branch ? hard.branch.centreMm + (aroundPick - 0.5) * 0.6 * hard.branch.halfLengthMm : anywhere;
    case 'stent':
      return hard?.stent ? hard.stent.startMm + 0.5 + aroundPick * (hard.stent.endMm - hard.stent.startMm - 1) : anywhere;
    default:
      return anywhere;
  }
}

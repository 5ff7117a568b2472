/**
 * `npm run bench:calcium`: calcium detection and the IVUS calcium score (issue 28) on the
 * generator's calcium pullbacks (src/domain/synthetic/calcium-evaluation.ts), one per kind (plain
 * calcium as every seed has it, > 270° over > 5 mm, 360°, a nodule, a small vessel) and seed: each
 * 30 mm pullback sampled every SAMPLE_STEP_MM, each frame's borders detected alone (the product's
 * border detector), then its calcium arc on the border's smooth curve as the server finds it
 * (src/domain/calcium/slice-calcium.ts), scored against the generator's truth.
 *
 * Prints per kind and overall: arc error in degrees over frames with true calcium (mean, p90; aim
 * ≤ 20°), frame sensitivity (true arcs of 30° or more found), false calcium regions per pullback
 * (runs of detected calcium on frames without any), and agreement of the score and each of its
 * components with the score of the truth. Prints figures; asserts nothing.
 *
 *   --tuning        TUNING_SEEDS instead of EVALUATION_SEEDS
 *   --seeds 1,2     these seeds
 *   --kinds a,b     only these kinds
 *   --speed-only    only the calcium reader's speed per case type (bench/reader-speed.ts), ms a frame and frames/s per core
 */
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import { measureDetection } from '../src/domain/contours/detect-sequence.ts';
import { createCalciumArcDetector } from '../src/domain/calcium/calcium-arc.ts';
import { withCalcium } from '../src/domain/calcium/slice-calcium.ts';
import { calciumScore, meanDiameterMm, type CalciumScore, type CalciumSlice } from '../src/domain/calcium/calcium-score.ts';
import { renderBmodeFrame } from '../src/domain/synthetic/bmode-frame.ts';
import {
  CALCIUM_EVALUATION_KINDS,
  SAMPLE_STEP_MM,
  calciumEvaluationPullback,
  type CalciumEvaluationKind,
} from '../src/domain/synthetic/calcium-evaluation.ts';
import { EVALUATION_SEEDS, TUNING_SEEDS } from '../src/domain/synthetic/evaluation-cases.ts';
import { calciumSpeed } from './reader-speed.ts';

const args = process.argv.slice(2);
if (args.includes('--speed-only')) {
  calciumSpeed();
  process.exit(0);
}
const listArgument = (name: string): string[] | null => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? '').split(',').filter((s) => s !== '') : null;
};
const seeds = listArgument('--seeds')?.map(Number) ?? [...(args.includes('--tuning') ? TUNING_SEEDS : EVALUATION_SEEDS)];
const kinds = (listArgument('--kinds') ?? [...CALCIUM_EVALUATION_KINDS]) as CalciumEvaluationKind[];
for (const kind of kinds) if (!CALCIUM_EVALUATION_KINDS.includes(kind)) throw new Error(`unknown kind ${kind}; known: ${CALCIUM_EVALUATION_KINDS.join(', ')}`);

/** True arcs at least this wide count for sensitivity (narrower ones are the arc's fading ends). */
const SENSITIVITY_MIN_ARC_DEG = 30;
const COMPONENTS = ['longArc', 'circumferential', 'nodule', 'smallVessel'] as const;

interface Tally {
  errors: number[];
  found: number;
  trueFrames: number;
  falseRegions: number;
  pullbacks: number;
  scoreAgree: number;
  componentAgree: Record<(typeof COMPONENTS)[number], number>;
  lines: string[];
}
const newTally = (): Tally => ({
  errors: [],
  found: 0,
  trueFrames: 0,
  falseRegions: 0,
  pullbacks: 0,
  scoreAgree: 0,
  componentAgree: { longArc: 0, circumferential: 0, nodule: 0, smallVessel: 0 },
  lines: [],
});

function runPullback(kind: CalciumEvaluationKind, seed: number, tally: Tally): void {
  const pullback = calciumEvaluationPullback(kind, seed);
  const { model } = pullback;
  const geometry = { frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, pixelSpacingMm: model.pixelSpacingMm };
  const borders = createBorderDetector(geometry);
  const calcium = createCalciumArcDetector(geometry);
  const detected: CalciumSlice[] = [];
  const truth: CalciumSlice[] = [];
  for (const frame of pullback.frames) {
    const pixels = renderBmodeFrame(model, frame.frameIndex);
    const detection = borders.detect(pixels, null, null);
    const measured = measureDetection(detection, model.pixelSpacingMm);
    // As the server does it (src/server/contours/detect-chunk.ts): on the border's smooth curve.
    const arc = withCalcium(calcium, [measured], pixels, pixels.length, { x: model.frameSizePx / 2, y: model.frameSizePx / 2 })[0]!.calcium ?? null;
    detected.push({
      positionMm: frame.positionMm,
      arcDeg: arc === null ? null : arc.arcDeg,
      nodule: arc?.nodule ?? false,
      vesselDiameterMm: arc === null ? null : meanDiameterMm(measured.vessel.areaMm2),
    });
    truth.push({ positionMm: frame.positionMm, arcDeg: frame.truth?.arcDeg ?? 0, nodule: frame.noduleTruth, vesselDiameterMm: frame.vesselDiameterMm });
    const trueArc = frame.truth?.arcDeg ?? 0;
    if (trueArc > 0 && arc !== null) tally.errors.push(Math.abs(arc.arcDeg - trueArc));
    if (trueArc >= SENSITIVITY_MIN_ARC_DEG) {
      tally.trueFrames++;
      if (arc !== null && arc.arcDeg > 0) tally.found++;
    }
  }
  tally.falseRegions += falseRegions(detected, truth);
  const detectedScore = calciumScore(detected, SAMPLE_STEP_MM);
  const trueScore = calciumScore(truth, SAMPLE_STEP_MM);
  tally.pullbacks++;
  if (detectedScore.total === trueScore.total) tally.scoreAgree++;
  for (const c of COMPONENTS) if (detectedScore[c].point === trueScore[c].point) tally.componentAgree[c]++;
  tally.lines.push(`  ${kind.padEnd(16)} seed ${seed} ${model.look?.padEnd(15)} score ${describe(detectedScore)}  truth ${describe(trueScore)}`);
}

/** Runs of frames with detected calcium none of whose frames has true calcium. */
function falseRegions(detected: readonly CalciumSlice[], truth: readonly CalciumSlice[]): number {
  let count = 0;
  let inRun = false;
  let runHasTruth = false;
  for (let k = 0; k <= detected.length; k++) {
    const on = k < detected.length && (detected[k]!.arcDeg ?? 0) > 0;
    if (on) {
      inRun = true;
      runHasTruth ||= (truth[k]!.arcDeg ?? 0) > 0;
    } else if (inRun) {
      if (!runHasTruth) count++;
      inRun = false;
      runHasTruth = false;
    }
  }
  return count;
}

function describe(score: CalciumScore): string {
  const diameter = score.smallVessel.diameterMm === null ? '-' : score.smallVessel.diameterMm.toFixed(2);
  return `${score.total} [>270° ${score.longArc.run?.lengthMm.toFixed(1) ?? '0'} mm, 360° ${score.circumferential.point}, nodule ${score.nodule.point}, EEM ${diameter} mm, max ${score.maxArc?.arcDeg.toFixed(0) ?? 0}°]`;
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function row(name: string, t: Tally): string {
  const mean = t.errors.reduce((s, e) => s + e, 0) / Math.max(1, t.errors.length);
  const components = COMPONENTS.map((c) => `${c} ${t.componentAgree[c]}/${t.pullbacks}`).join(', ');
  return `${name.padEnd(16)} arc error mean ${mean.toFixed(1)}° p90 ${quantile(t.errors, 0.9).toFixed(1)}° (${t.errors.length} frames)  sensitivity ${(t.found / Math.max(1, t.trueFrames)).toFixed(3)}  false regions/pullback ${(t.falseRegions / Math.max(1, t.pullbacks)).toFixed(2)}  score agrees ${t.scoreAgree}/${t.pullbacks} (${components})`;
}

const all = newTally();
const started = performance.now();
console.log(`bench:calcium on ${args.includes('--tuning') ? 'tuning' : 'evaluation'} seeds ${seeds.join(', ')}; frames every ${SAMPLE_STEP_MM} mm of 30 mm pullbacks, each detected alone`);
for (const kind of kinds) {
  const tally = newTally();
  for (const seed of seeds) runPullback(kind, seed, tally);
  console.log(tally.lines.join('\n'));
  console.log(row(kind, tally));
  all.errors.push(...tally.errors);
  all.found += tally.found;
  all.trueFrames += tally.trueFrames;
  all.falseRegions += tally.falseRegions;
  all.pullbacks += tally.pullbacks;
  all.scoreAgree += tally.scoreAgree;
  for (const c of COMPONENTS) all.componentAgree[c] += tally.componentAgree[c];
}
console.log(row('overall', all));
const mean = all.errors.reduce((s, e) => s + e, 0) / Math.max(1, all.errors.length);
console.log(`aim: calcium arc within 20° -> mean ${mean.toFixed(1)}°, p90 ${quantile(all.errors, 0.9).toFixed(1)}° (${mean <= 20 ? 'met' : 'NOT met'} on the mean)`);
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);

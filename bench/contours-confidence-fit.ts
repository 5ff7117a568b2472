/**
 * Refits the confidence's logistic weights (src/domain/contours/confidence.ts) on frames dumped by
 * `npm run -s bench:contours-order -- --tuning --dump tuning.jsonl` (TUNING_SEEDS only: never fit on
 * the evaluation seeds), and reports the AUC (frames with lumen Dice < 0.85 against the rest) of the
 * current weights and of the refitted ones on each given dump.
 *
 *   node bench/contours-confidence-fit.ts tuning.jsonl [evaluation.jsonl]
 *
 * The fit: logistic regression of "lumen Dice ≥ 0.85" on the confidence's inputs (Newton's method,
 * a light ridge, the two classes weighted equally), the first file only.
 */
import fs from 'node:fs';
import { frameConfidence, type ConfidenceInputs } from '../src/domain/contours/confidence.ts';

interface Frame {
  readonly lumen: number;
  readonly inputs: ConfidenceInputs;
}

const GOOD_DICE = 0.85;
const RIDGE = 0.01;

function read(file: string): Frame[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Frame)
    .filter((frame) => frame.inputs !== null);
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

/** The features of confidence.ts, in its order, with a leading 1 for the intercept. */
function features(inputs: ConfidenceInputs): number[] {
  const { bloodContrast, vesselEdge, lumenBlindShare, vesselBlindShare, changeMm } = inputs;
  return [1, clamp(bloodContrast, -5, 5), clamp(vesselEdge, -8, 8), lumenBlindShare, vesselBlindShare, changeMm === null ? 0 : clamp(changeMm / 0.05, 0, 6), changeMm === null ? 1 : 0];
}

const seen = (share: number): number => clamp((1 - share) / 0.8, 0, 1);

function scoreWith(weights: readonly number[], inputs: ConfidenceInputs): number {
  const x = features(inputs);
  const z = x.reduce((sum, value, i) => sum + value * weights[i]!, 0);
  return (1 / (1 + Math.exp(-z))) * seen(inputs.lumenBlindShare) * seen(inputs.vesselBlindShare);
}

function auc(scored: readonly { score: number; good: boolean }[]): number {
  let pairs = 0;
  let wins = 0;
  for (const good of scored) {
    if (!good.good) continue;
    for (const bad of scored) {
      if (bad.good) continue;
      pairs++;
      wins += good.score > bad.score ? 1 : good.score === bad.score ? 0.5 : 0;
    }
  }
  return pairs > 0 ? wins / pairs : NaN;
}

/** Solves A x = b (small, symmetric positive definite) by Gaussian elimination. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

function fit(frames: readonly Frame[]): number[] {
  const xs = frames.map((frame) => features(frame.inputs));
  const ys = frames.map((frame) => (frame.lumen >= GOOD_DICE ? 1 : 0));
  const goodCount = ys.filter((y) => y === 1).length;
  const weightOf = (y: number): number => (y === 1 ? frames.length / (2 * goodCount) : frames.length / (2 * (frames.length - goodCount)));
  const d = xs[0]!.length;
  let w = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-x.reduce((sum, value, j) => sum + value * w[j]!, 0)));
      const c = weightOf(ys[i]!);
      for (let j = 0; j < d; j++) {
        gradient[j]! += c * (ys[i]! - p) * x[j]!;
        for (let k = 0; k < d; k++) hessian[j]![k]! += c * p * (1 - p) * x[j]! * x[k]!;
      }
    });
    for (let j = 1; j < d; j++) {
      gradient[j]! -= RIDGE * frames.length * w[j]!;
      hessian[j]![j]! += RIDGE * frames.length;
    }
    const step = solve(hessian, gradient);
    w = w.map((value, j) => value + step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

const [tuningFile, ...others] = process.argv.slice(2);
if (tuningFile === undefined) throw new Error('usage: node bench/contours-confidence-fit.ts tuning.jsonl [evaluation.jsonl]');
const tuningFrames = read(tuningFile);
const weights = fit(tuningFrames);
console.info(`refitted on ${tuningFile} (${tuningFrames.length} frames, ${tuningFrames.filter((f) => f.lumen < GOOD_DICE).length} with lumen Dice < ${GOOD_DICE}):`);
console.info(`  intercept ${weights[0]!.toFixed(2)}, B ${weights[1]!.toFixed(2)}, E ${weights[2]!.toFixed(2)}, b_l ${weights[3]!.toFixed(2)}, b_v ${weights[4]!.toFixed(2)}, Δ ${weights[5]!.toFixed(3)}, n ${weights[6]!.toFixed(2)}`);
for (const file of [tuningFile, ...others]) {
  const frames = read(file);
  const current = auc(frames.map((frame) => ({ score: frameConfidence(frame.inputs), good: frame.lumen >= GOOD_DICE })));
  const refitted = auc(frames.map((frame) => ({ score: scoreWith(weights, frame.inputs), good: frame.lumen >= GOOD_DICE })));
  console.info(`  ${file}: AUC current ${current.toFixed(3)}, refitted ${refitted.toFixed(3)} (${frames.length} frames)`);
}

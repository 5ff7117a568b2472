/**
 * `npm run bench:stent`: the stent analysis (issue 28) on stented pullbacks of the generator
 * (src/domain/synthetic/stent-cases.ts) it was not tuned on (EVALUATION_SEEDS; --tuning for
 * TUNING_SEEDS), scored against the generator's truth (bench/stent-scoring.ts). Every 6th frame is
 * read (0.1 mm apart), the whole 40 mm pullback.
 *
 * Per pullback: stent-border Dice (mean, worst frame; frames of the true stent with a border),
 * MSA (true, detected, error %), the stented segment's edges (error in mm), expansion (true,
 * detected), malapposed regions (true, found, false). Then the issue's aims: Dice ≥ 0.95, MSA within
 * 5 %, malapposition sensitivity ≥ 0.9 with ≤ 1 false region per pullback. Prints; asserts nothing.
 *
 *   --tuning        TUNING_SEEDS instead
 *   --seeds 1,2     these seeds
 *   --stride n      read every n-th frame (default 6)
 *   --motion m      with cardiac motion of strength m (1 nominal; the stent cases have none by default)
 *   --speed-only    only the strut detector's speed per case type (bench/reader-speed.ts), ms a frame and frames/s per core
 */
import { EVALUATION_SEEDS, TUNING_SEEDS } from '../src/domain/synthetic/evaluation-cases.ts';
import { stentCase } from '../src/domain/synthetic/stent-cases.ts';
import { strutSpeed } from './reader-speed.ts';
import { scoreStentCase, type StentScores } from './stent-scoring.ts';

const args = process.argv.slice(2);
if (args.includes('--speed-only')) {
  strutSpeed();
  process.exit(0);
}
const at = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const tuning = args.includes('--tuning');
const seeds = at('--seeds')?.split(',').map(Number) ?? [...(tuning ? TUNING_SEEDS : EVALUATION_SEEDS)];
const stride = Number(at('--stride') ?? 6);
const motion = Number(at('--motion') ?? 0);

const f = (v: number | null, digits: number, width: number): string => (v === null ? 'n/a' : v.toFixed(digits)).padStart(width);
console.log(`stent analysis on ${tuning ? 'TUNING' : 'EVALUATION'} seeds ${seeds.join(', ')}, every ${stride}th frame${motion > 0 ? `, cardiac motion ${motion}` : ''}`);
console.log('seed  look   frames  Dice  worst  cover  MSA true  MSA det  err %  edge d mm  edge p mm  exp true  exp det  mal true  found  false  read s');
const all: StentScores[] = [];
for (const seed of seeds) {
  const s = scoreStentCase(stentCase(seed, motion), stride);
  all.push(s);
  console.log(
    String(seed).padEnd(6) +
      s.look.padEnd(6) +
      String(s.framesRead).padStart(7) +
      f(s.meanDice, 3, 6) +
      f(s.worstDice, 3, 7) +
      f(s.borderCoverage, 2, 7) +
      f(s.truthMsaMm2, 2, 10) +
      f(s.detectedMsaMm2, 2, 9) +
      f(s.msaErrorPercent, 1, 7) +
      f(s.edgeErrorMm.distal, 2, 11) +
      f(s.edgeErrorMm.proximal, 2, 11) +
      f(s.truthExpansion, 2, 10) +
      f(s.detectedExpansion, 2, 9) +
      String(s.truthRegions).padStart(10) +
      String(s.foundRegions).padStart(7) +
      String(s.falseRegions).padStart(7) +
      f(s.readSeconds, 1, 8),
  );
}
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const dice = mean(all.map((s) => s.meanDice));
const msaErrors = all.map((s) => Math.abs(s.msaErrorPercent ?? Infinity));
const truthRegions = all.reduce((n, s) => n + s.truthRegions, 0);
const found = all.reduce((n, s) => n + s.foundRegions, 0);
const falsePer = all.reduce((n, s) => n + s.falseRegions, 0) / Math.max(1, all.length);
const sensitivity = truthRegions === 0 ? null : found / truthRegions;
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
console.log('');
console.log(`stent-border Dice (mean over pullbacks): ${dice.toFixed(3)}  aim ≥ 0.95: ${verdict(dice >= 0.95)}`);
console.log(`MSA error: mean |err| ${mean(msaErrors).toFixed(1)} %, max ${Math.max(...msaErrors).toFixed(1)} %  aim within 5 %: ${verdict(Math.max(...msaErrors) <= 5)}`);
console.log(
  `malapposition: sensitivity ${sensitivity === null ? 'n/a' : sensitivity.toFixed(2)} (${found}/${truthRegions} regions), false regions per pullback ${falsePer.toFixed(2)}  ` +
    `aim ≥ 0.9 with ≤ 1: ${verdict(sensitivity !== null && sensitivity >= 0.9 && falsePer <= 1)}`,
);

/**
 * `npm run bench:contours`: accuracy and speed of automatic border detection (issue 15) on the
 * generator's evaluation cases (src/domain/imaging/evaluation-cases.ts), which the detector was not
 * tuned on: per case type, a short run of frames for each of EVALUATION_SEEDS, scored frame by frame
 * against the generator's exact truth (bench/contours-scoring.ts).
 *
 * Per case type: lumen Dice (mean, worst frame), lumen area error (mean, max, %), vessel Dice and
 * area error, Hausdorff distance (mm, mean and max; lumen, and the vessel's mean), detection
 * frames/s on one thread (rendering timed apart). Then the overall row and the goals, and
 * the legacy lumen detector (lumen-detector.ts, lumen only) on the same frames, so the change is
 * visible. Prints figures; asserts nothing.
 *
 *   --tuning           run on TUNING_SEEDS instead (what detectors may be tuned on)
 *   --types a,b        only these case types
 *   --seeds 1,2        these seeds instead
 */
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import type { BorderDetector } from '../src/domain/contours/border-detection.ts';
import { createLumenDetector } from '../src/domain/contours/lumen-detector.ts';
import {
  EVALUATION_CASE_TYPES,
  EVALUATION_SEEDS,
  RUN_FRAMES,
  TUNING_SEEDS,
  evaluationCase,
  type EvaluationCase,
  type EvaluationCaseType,
} from '../src/domain/imaging/evaluation-cases.ts';
import { addRow, emptyRow, renderRun, scoreBorderDetector, scoreLumenDetector, type BorderScores, type RowScores } from './contours-scoring.ts';

const args = process.argv.slice(2);
function listArgument(name: string): string[] | null {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? '').split(',').filter((s) => s !== '') : null;
}
const tuning = args.includes('--tuning');
const types = (listArgument('--types') ?? [...EVALUATION_CASE_TYPES]) as EvaluationCaseType[];
for (const type of types) {
  if (!EVALUATION_CASE_TYPES.includes(type)) throw new Error(`unknown case type ${type}; known: ${EVALUATION_CASE_TYPES.join(', ')}`);
}
const seeds = listArgument('--seeds')?.map(Number) ?? [...(tuning ? TUNING_SEEDS : EVALUATION_SEEDS)];
if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error('usage: bench/contours.ts [--tuning] [--types a,b] [--seeds 1,2]');

/** The detector under test, built for one case's frame geometry and catheter centre. */
function borderDetectorFor(evaluation: EvaluationCase): BorderDetector {
  const centre = evaluation.frames[0]!.catheterCentre;
  return createBorderDetector({
    frameWidth: evaluation.frameWidth,
    frameHeight: evaluation.frameHeight,
    pixelSpacingMm: evaluation.pixelSpacingMm,
    centreX: centre.x,
    centreY: centre.y,
  });
}

function legacyDetectorFor(evaluation: EvaluationCase): ReturnType<typeof createLumenDetector> {
  const centre = evaluation.frames[0]!.catheterCentre;
  return createLumenDetector({ frameSizePx: evaluation.frameWidth, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
}

const seedSet = tuning ? 'TUNING_SEEDS' : 'EVALUATION_SEEDS';
console.info(`border detection on the generator's evaluation cases: ${types.length} case types x ${seeds.length} seeds (${seedSet}: ${seeds.join(', ')}) x ${RUN_FRAMES} frames`);
if (tuning) console.info('(tuning seeds: figures a detector may be tuned on, not its report)');
console.info('');

const rows = new Map<EvaluationCaseType, RowScores>();
const legacyRows = new Map<EvaluationCaseType, RowScores>();
const geometries = new Map<EvaluationCaseType, string[]>();
const started = performance.now();
for (const type of types) {
  const row = emptyRow(true);
  const legacy = emptyRow(false);
  const geometry: string[] = [];
  for (const seed of seeds) {
    const evaluation = evaluationCase(type, seed);
    geometry.push(`${evaluation.look} ${evaluation.frameWidth}px@${evaluation.pixelSpacingMm}`);
    const { frames, seconds } = renderRun(evaluation);
    row.renderSeconds += seconds;
    scoreBorderDetector(borderDetectorFor(evaluation), evaluation, frames, row);
    scoreLumenDetector(legacyDetectorFor(evaluation), evaluation, frames, legacy);
  }
  rows.set(type, row);
  legacyRows.set(type, legacy);
  geometries.set(type, geometry);
}
const elapsedSeconds = (performance.now() - started) / 1000;

const f = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const mean = (sum: number, scores: BorderScores): number => sum / Math.max(1, scores.frames);
function vesselColumns(vessel: BorderScores | null): string {
  if (vessel === null) return `${'–'.padStart(7)}${'–'.padStart(7)}${'–'.padStart(8)}${'–'.padStart(8)}${'–'.padStart(8)}`;
  return (
    f(mean(vessel.dice, vessel), 4, 7) +
    f(vessel.worstDice, 3, 7) +
    f(mean(vessel.areaErrorPercent, vessel), 2, 8) +
    f(vessel.maxAreaErrorPercent, 1, 8) +
    f(mean(vessel.hausdorffMm, vessel), 3, 8)
  );
}
function line(name: string, row: RowScores): string {
  const { lumen } = row;
  return (
    name.padEnd(20) +
    f(lumen.frames, 0, 6) +
    f(mean(lumen.dice, lumen), 4, 8) +
    f(lumen.worstDice, 3, 7) +
    f(lumen.below080, 0, 5) +
    f(mean(lumen.areaErrorPercent, lumen), 2, 8) +
    f(lumen.maxAreaErrorPercent, 1, 8) +
    f(mean(lumen.hausdorffMm, lumen), 3, 8) +
    f(lumen.maxHausdorffMm, 3, 7) +
    '  ' +
    vesselColumns(row.vessel) +
    f(lumen.frames / Math.max(1e-9, row.detectSeconds), 0, 10)
  );
}
const header =
  'case type'.padEnd(20) +
  'frames'.padStart(6) +
  'lumen Dice'.padStart(11) +
  'worst'.padStart(7) +
  '<.80'.padStart(5) +
  'area %'.padStart(8) +
  'max %'.padStart(8) +
  'HD mm'.padStart(8) +
  'max'.padStart(7) +
  '  ' +
  'vessel'.padStart(7) +
  'worst'.padStart(7) +
  'area %'.padStart(8) +
  'max %'.padStart(8) +
  'HD mm'.padStart(8) +
  'frames/s'.padStart(10);

function table(title: string, table: Map<EvaluationCaseType, RowScores>, withVessel: boolean): RowScores {
  console.info(title);
  console.info(header);
  const overall = emptyRow(withVessel);
  for (const type of types) {
    const row = table.get(type)!;
    console.info(line(type, row));
    addRow(overall, row);
  }
  console.info(line('overall', overall));
  console.info('');
  return overall;
}

const overall = table('border detector (border-detector.ts), both borders:', rows, true);
const legacyOverall = table('legacy lumen detector (lumen-detector.ts), lumen only, same frames:', legacyRows, false);

console.info('case geometry (look, frame size @ mm/px) per seed:');
for (const type of types) console.info(`  ${type.padEnd(20)}${geometries.get(type)!.join('; ')}`);
console.info('');

const { lumen, vessel } = overall;
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
const meanLumenDice = mean(lumen.dice, lumen);
const meanAreaError = mean(lumen.areaErrorPercent, lumen);
const meanVesselDice = vessel === null ? NaN : mean(vessel.dice, vessel);
console.info(`goals (issue 15), over all ${lumen.frames} frames of ${seedSet}:`);
console.info(`  mean lumen Dice ≥ 0.92          ${meanLumenDice.toFixed(4)}   ${verdict(meanLumenDice >= 0.92)}   (legacy ${mean(legacyOverall.lumen.dice, legacyOverall.lumen).toFixed(4)})`);
console.info(`  no frame below lumen Dice 0.80  worst ${lumen.worstDice.toFixed(3)}, ${lumen.below080} frames below   ${verdict(lumen.below080 === 0)}   (legacy ${legacyOverall.lumen.below080} below)`);
console.info(`  mean lumen area error ≤ 8 %     ${meanAreaError.toFixed(2)} %   ${verdict(meanAreaError <= 8)}   (legacy ${mean(legacyOverall.lumen.areaErrorPercent, legacyOverall.lumen).toFixed(2)} %)`);
console.info(`  mean vessel Dice ≥ 0.92         ${meanVesselDice.toFixed(4)}   ${verdict(meanVesselDice >= 0.92)}`);
const renderSeconds = [...rows.values()].reduce((sum, row) => sum + row.renderSeconds, 0);
console.info('');
console.info(`${elapsedSeconds.toFixed(1)} s in all (rendering ${renderSeconds.toFixed(1)} s), one thread`);

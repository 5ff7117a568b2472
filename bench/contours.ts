/**
 * `npm run bench:contours`: accuracy and speed of automatic border detection (issue 15) on the
 * generator's evaluation cases (src/domain/synthetic/evaluation-cases.ts), which the detector was not
 * tuned on: per case type, a short run of frames for each of EVALUATION_SEEDS, scored frame by frame
 * against the generator's exact truth (bench/contours-scoring.ts).
 *
 * Per case type: lumen Dice (mean, worst frame), lumen area error (mean, max, %), vessel Dice and
 * area error, Hausdorff distance (mm, mean and max; lumen, and the vessel's mean), detection
 * frames/s on one thread (rendering timed apart). Then the overall row and the issue's goals, and
 * the legacy lumen detector (bench/legacy/lumen-detector.ts, lumen only) on the same frames, so the change is
 * visible. Then (issue 23) the same cases as sequences of each kind (bench/contours-sequences.ts):
 * per case type and kind, both borders' Dice, area error and Hausdorff, and the single-vs-sequence
 * difference (each frame detected alone against inside the sequence: mean and max |ΔDice|).
 * Prints figures; asserts nothing.
 *
 *   --tuning           run on TUNING_SEEDS instead (what detectors may be tuned on)
 *   --types a,b        only these case types
 *   --seeds 1,2        these seeds instead
 *   --kinds a,b        only these sequence kinds (consecutive, gated, shuffled, dropped, stitched)
 *   --frames n         frames per sequence (default RUN_FRAMES); fewer is quicker
 *   --no-sequences     only the per-case tables (the bench as it was before issue 23)
 *   --sequences-only   only the sequence tables
 *   --speed-only       only the detection speed per case type (bench/contours-speed.ts), no scoring
 *   --repeat n         with --speed-only: detect each run n times (default 3)
 */
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import type { BorderDetector } from '../src/domain/contours/border-detection.ts';
import { createLumenDetector } from './legacy/lumen-detector.ts';
import {
  EVALUATION_CASE_TYPES,
  EVALUATION_SEEDS,
  RUN_FRAMES,
  TUNING_SEEDS,
  evaluationCase,
  type EvaluationCase,
  type EvaluationCaseType,
} from '../src/domain/synthetic/evaluation-cases.ts';
import { SEQUENCE_KINDS, type SequenceKind } from '../src/domain/synthetic/sequence-kinds.ts';
import {
  SEQUENCE_HEADER,
  addSequenceRow,
  aloneRow,
  emptySequenceRow,
  newSequenceWork,
  scoreSequence,
  sequenceLine,
  type SequenceRow,
} from './contours-sequences.ts';
import { speedTable } from './contours-speed.ts';
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
const usage = 'usage: bench/contours.ts [--tuning] [--types a,b] [--seeds 1,2] [--kinds a,b] [--frames n] [--no-sequences | --sequences-only | --speed-only [--repeat n]]';
if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error(usage);
const kinds = (listArgument('--kinds') ?? [...SEQUENCE_KINDS]) as SequenceKind[];
for (const kind of kinds) {
  if (!SEQUENCE_KINDS.includes(kind)) throw new Error(`unknown sequence kind ${kind}; known: ${SEQUENCE_KINDS.join(', ')}`);
}
const sequenceFrames = Number(listArgument('--frames')?.[0] ?? RUN_FRAMES);
if (!Number.isInteger(sequenceFrames) || sequenceFrames < 2) throw new Error(usage);
const speedOnly = args.includes('--speed-only');
const repeat = Number(listArgument('--repeat')?.[0] ?? 3);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(usage);
const withSequences = !speedOnly && !args.includes('--no-sequences');
const withCases = !speedOnly && !args.includes('--sequences-only');

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
const benchStarted = performance.now();
if (speedOnly) speedTable(types, seeds, repeat);
if (withCases) caseTables();
if (withSequences) sequenceTables();
console.info(`bench:contours took ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);

function caseTables(): void {
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
  const legacyOverall = table('legacy lumen detector (bench/legacy), lumen only, same frames:', legacyRows, false);

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
}

/** Issue 23: every case as each kind of sequence, against the same frames detected alone. */
function sequenceTables(): void {
  console.info(
    `sequences (issue 23): ${types.length} case types x ${seeds.length} seeds x ${kinds.length} kinds x ${sequenceFrames} frames; ` +
      'each frame detected inside the sequence (in the order given, as the CLI) and alone; |ΔDice| = |sequence - alone| per frame',
  );
  const started = performance.now();
  const overall = new Map<SequenceKind | 'alone', SequenceRow>([['alone', emptySequenceRow()], ...kinds.map((kind) => [kind, emptySequenceRow()] as const)]);
  let renderSeconds = 0;
  let detectSeconds = 0;
  let detectCpuSeconds = 0;
  let detections = 0;
  for (const type of types) {
    const rowsByKind = new Map<SequenceKind | 'alone', SequenceRow>([['alone', emptySequenceRow()], ...kinds.map((kind) => [kind, emptySequenceRow()] as const)]);
    for (const seed of seeds) {
      const evaluation = evaluationCase(type, seed);
      const work = newSequenceWork();
      const aloneDetector = borderDetectorFor(evaluation);
      for (const kind of kinds) scoreSequence(evaluation, kind, sequenceFrames, borderDetectorFor(evaluation), aloneDetector, work, rowsByKind.get(kind)!);
      // The consecutive run's frames alone: what "each frame alone" scores on this case.
      if (!kinds.includes('consecutive')) scoreSequence(evaluation, 'consecutive', sequenceFrames, borderDetectorFor(evaluation), aloneDetector, work, emptySequenceRow());
      aloneRow(evaluation, sequenceFrames, work, rowsByKind.get('alone')!);
      renderSeconds += work.renderSeconds;
      detectSeconds += work.detectSeconds;
      detectCpuSeconds += work.detectCpuSeconds;
      detections += work.detections;
    }
    console.info(type);
    console.info(SEQUENCE_HEADER);
    for (const [kind, row] of rowsByKind) {
      console.info(sequenceLine(kind, row, kind !== 'alone'));
      addSequenceRow(overall.get(kind)!, row);
    }
  }
  console.info(`all ${types.length} case types`);
  console.info(SEQUENCE_HEADER);
  for (const [kind, row] of overall) console.info(sequenceLine(kind, row, kind !== 'alone'));
  // The limit holds where the reference frame is no temporal neighbour; between neighbours
  // the temporal cue is meant to change the result (bench/contours-sequences.ts).
  const worst = (of: (row: SequenceRow) => number): number => Math.max(...kinds.map((kind) => of(overall.get(kind)!)));
  const nonNeighbourDelta = worst((row) => row.nonNeighbourDeltaMax);
  console.info(
    `goal (issue 23): a frame after a non-neighbour differs from its result alone by ≤ 0.02 Dice (lumen and vessel, every case type and kind): ` +
      `worst ${nonNeighbourDelta.toFixed(3)}, worst loss ${worst((row) => row.nonNeighbourDropMax).toFixed(3)}   ${nonNeighbourDelta <= 0.02 ? 'met' : 'NOT met'}`,
  );
  console.info(`  every frame: |ΔDice| lumen up to ${worst((row) => row.lumenDeltaMax).toFixed(3)}; frames after a temporal neighbour (the cue applies): largest loss against alone ${worst((row) => row.neighbourDropMax).toFixed(3)}`);
  const seconds = (performance.now() - started) / 1000;
  console.info(
    `sequences: ${seconds.toFixed(1)} s (rendering ${renderSeconds.toFixed(1)} s, detection ${detectSeconds.toFixed(1)} s: ` +
      `${detections} detections, ${(detections / Math.max(1e-9, detectSeconds)).toFixed(0)} frames/s wall, ` +
      `${(detections / Math.max(1e-9, detectCpuSeconds)).toFixed(0)} frames/s per core by CPU time, one thread)`,
  );
  console.info('');
}

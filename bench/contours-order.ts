/**
 * `npm run bench:contours-order`: border detection in any frame order (issue 23). From each
 * evaluation case's pullback model (src/domain/synthetic/evaluation-cases.ts) it builds sequences of
 * frames as real exports give them, detects each through detectBorderSequence (the path of the
 * server and the CLI) and each frame alone, and prints per kind the lumen and vessel Dice and the
 * single-vs-sequence difference |Dice in the sequence − Dice alone| (issue 23: ≤ 0.02 wherever the
 * frame before is not a temporal neighbour).
 *
 * Kinds (frame indices into the case's 1,800-frame model, run start r):
 *   consecutive  r … r+15
 *   drops        r … r+23 with a third of the frames dropped (16 kept)
 *   gated        r, r+30, r+60, … (one frame per heartbeat at 30 frames/s and ~60 beats/min), 12 frames
 *   shuffled     the consecutive 16 in a random order
 *   stitched     r … r+7, then 8 consecutive frames 10 mm away (two runs, one jump)
 *   interleaved  the two runs of `stitched` alternating (a jump at every frame)
 * For consecutive frames and drops the temporal cue is valid, and "vs alone" is its gain, not a
 * fault; "non-nb" counts the frames whose reference (the frame before, or for the first frame the
 * one after) lies more than 3 frames away in the pullback, where the difference must stay ≤ 0.02;
 * "worse" and "better" count those more than 0.02 Dice worse or better than alone, "max drop" is
 * the largest loss (a frame 4–8 frames from its reference may still read as a neighbour, and then
 * gains by the temporal cue). "nb drop" is the largest loss against alone of the other frames, whose
 * reference is a neighbour (continuity must never carry a failure). Below the table: how many
 * sequence frames took detectInSequence's second opinion (detected alone as well), and on how many
 * the EEM the previous frame carried was searched again without continuity (carried-eem.ts).
 *
 *   --scores       print the neighbour score (frame-neighbours.ts) by frame gap instead
 *   --tuning       TUNING_SEEDS (what the neighbour threshold is fitted on) instead of EVALUATION_SEEDS
 *   --types a,b    only these case types
 *   --seeds a,b    these seeds (a holdout set neither TUNING_SEEDS nor EVALUATION_SEEDS uses)
 *   --dump file    write every frame's confidence, its inputs (confidence.ts), its neighbour score, its
 *                  carried-EEM check (carriedEem: residuals in mm, replaced), and
 *                  its Dice and confidence in the sequence and alone, as JSON lines
 *
 * Then the confidence's AUC (issue 23): how well it ranks frames with lumen Dice ≥ 0.85 above those
 * below, over all frames of all kinds.
 */
import fs from 'node:fs';
import { diceCoefficient } from '../src/domain/contours/agreement.ts';
import type { BorderDetector } from '../src/domain/contours/border-detection.ts';
import { createBorderDetector, type InspectableBorderDetector } from '../src/domain/contours/border-detector.ts';
import type { ConfidenceInputs } from '../src/domain/contours/confidence.ts';
import type { CarriedEemCheck } from '../src/domain/contours/carried-eem.ts';
import { detectBorderSequence } from '../src/domain/contours/detect-sequence.ts';
import { wallHugShare } from '../src/domain/contours/lumen-on-eem.ts';
import { NEIGHBOUR_SCORE } from '../src/domain/contours/frame-neighbours.ts';
import { measuredOutline } from '../src/domain/contours/measurements.ts';
import type { SliceDetection } from '../src/domain/contours/api.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../src/domain/synthetic/contours.ts';
import { EVALUATION_CASE_TYPES, evaluationCase, type EvaluationCase } from '../src/domain/synthetic/evaluation-cases.ts';
import { caseSelection } from './case-selection.ts';
import { seededRandom } from '../src/domain/random.ts';

const args = process.argv.slice(2);
const { types, seeds, label } = caseSelection(args);

const KINDS = ['consecutive', 'drops', 'gated', 'shuffled', 'stitched', 'interleaved'] as const;
type Kind = (typeof KINDS)[number];
/** Frames at most this far apart in the pullback count as temporal neighbours. */
const NEIGHBOUR_GAP = 3;
const MODEL_FRAMES = 1800;

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Frame indices of each kind of sequence for one case. */
function sequences(evaluation: EvaluationCase): Record<Kind, number[]> {
  const random = seededRandom(evaluation.seed * 31 + EVALUATION_CASE_TYPES.indexOf(evaluation.type));
  const r = Math.min(evaluation.frames[0]!.frameIndex, MODEL_FRAMES - 40);
  const run = (from: number, count: number): number[] => Array.from({ length: count }, (_, k) => from + k);
  const far = r + 600 + 8 <= MODEL_FRAMES ? r + 600 : r - 600;
  const beats = r + 11 * 30 < MODEL_FRAMES ? r : r - 11 * 30;
  const kept = shuffle(run(r + 1, 23), random).slice(0, 15).sort((a, b) => a - b);
  const interleaved: number[] = [];
  for (let k = 0; k < 8; k++) interleaved.push(r + k, far + k);
  return {
    consecutive: run(r, 16),
    drops: [r, ...kept],
    gated: Array.from({ length: 12 }, (_, j) => beats + 30 * j),
    shuffled: shuffle(run(r, 16), random),
    stitched: [...run(r, 8), ...run(far, 8)],
    interleaved,
  };
}

function diceOf(detection: SliceDetection, truth: ReturnType<typeof truthContours>, size: number): { lumen: number; vessel: number } {
  return {
    lumen: diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, size),
    vessel: diceCoefficient(measuredOutline(detection.vessel!.controlPoints), truth.vessel, size),
  };
}

interface KindScores {
  frames: number;
  lumen: number;
  vessel: number;
  lumenAlone: number;
  /** |Dice in sequence − Dice alone|, lumen and vessel: mean and max over all frames, max over non-neighbour frames. */
  diffSum: number;
  diffMax: number;
  nonNeighbours: number;
  nonNeighbourDiffMax: number;
  /** Non-neighbour frames more than 0.02 Dice (lumen or vessel) worse, or better, in the sequence than alone. */
  worse: number;
  better: number;
  worstDrop: number;
  /** The largest loss against alone on frames whose reference is a temporal neighbour (continuity must never carry a failure). */
  neighbourDrop: number;
}

function detectorFor(evaluation: EvaluationCase): InspectableBorderDetector {
  const centre = evaluation.frames[0]!.catheterCentre;
  return createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
}

/**
 * The detector, recording what each frame's confidence was computed from and its neighbour score. A
 * second call on the same frame is the sequence's second opinion (detect-sequence.ts), counted; the
 * frame's inputs are those of the call whose confidence the sequence kept.
 */
function recording(detector: InspectableBorderDetector, pixelSpacingMm: number): { detector: BorderDetector; inputs: (confidence: number, k: number) => ConfidenceInputs | null; hug: (confidence: number, k: number) => { hug: number; lumenMm: number }; scores: (number | null)[]; secondOpinions: () => number; carriedEem: (k: number) => CarriedEemCheck | null } {
  const calls: { confidence: number; inputs: ConfidenceInputs | null; hug: { hug: number; lumenMm: number }; carriedEem: CarriedEemCheck | null }[][] = [];
  const scores: (number | null)[] = [];
  let lastFrame: Uint8Array | null = null;
  let secondOpinions = 0;
  return {
    inputs: (confidence, k) => (calls[k]!.find((call) => call.confidence === confidence) ?? calls[k]![0]!).inputs,
    hug: (confidence, k) => (calls[k]!.find((call) => call.confidence === confidence) ?? calls[k]![0]!).hug,
    scores,
    secondOpinions: () => secondOpinions,
    // The sequence's own detection of the frame (its first call), whichever result the sequence kept.
    carriedEem: (k) => calls[k]![0]!.carriedEem,
    detector: {
      detect(frame, previous, previousFrame) {
        const detection = detector.detect(frame, previous, previousFrame);
        const call = { confidence: detection.confidence, inputs: detector.confidenceInputs(), hug: { hug: wallHugShare(detection, pixelSpacingMm), lumenMm: meanRadiusMm(detection.lumen.radiiPx, pixelSpacingMm) }, carriedEem: detector.carriedEemCheck() };
        if (frame === lastFrame) {
          secondOpinions++;
          calls[calls.length - 1]!.push(call);
        } else {
          calls.push([call]);
          scores.push(detector.neighbourScore());
        }
        lastFrame = frame;
        return detection;
      },
    },
  };
}

/** Mean of a border's radii in mm. */
function meanRadiusMm(radiiPx: Float32Array, pixelSpacingMm: number): number {
  let sum = 0;
  for (const r of radiiPx) sum += r;
  return (sum / Math.max(1, radiiPx.length)) * pixelSpacingMm;
}

/** Area under the ROC curve of `score` separating good (true) from bad (false) frames: P(score_good > score_bad), ties counting half. */
function auc(frames: readonly { score: number; good: boolean }[]): number {
  const sorted = [...frames].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let good = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) j++;
    const rank = (i + j + 1) / 2;
    for (let m = i; m < j; m++) {
      if (sorted[m]!.good) {
        rankSum += rank;
        good++;
      }
    }
    i = j;
  }
  const bad = sorted.length - good;
  return good > 0 && bad > 0 ? (rankSum - (good * (good + 1)) / 2) / (good * bad) : NaN;
}

function printScores(): void {
  const gaps = [1, 2, 3, 5, 10, 30, 600];
  const byGap = new Map<number, number[]>(gaps.map((gap) => [gap, []]));
  for (const type of types) {
    for (const seed of seeds) {
      const evaluation = evaluationCase(type, seed);
      const renderer = createBmodeRenderer(evaluation.model);
      const detector = detectorFor(evaluation);
      const r = Math.min(evaluation.frames[0]!.frameIndex, MODEL_FRAMES - 40);
      const base = renderer.renderFrame(r).slice();
      for (const gap of gaps) {
        const other = r + gap < MODEL_FRAMES ? r + gap : r - gap;
        detector.detect(base, null, renderer.renderFrame(other).slice());
        byGap.get(gap)!.push(detector.neighbourScore() ?? NaN);
      }
    }
  }
  console.info(`neighbour score by frame gap (${label}; threshold ${NEIGHBOUR_SCORE}): min / 10th pct / median / 90th pct / max`);
  for (const gap of gaps) {
    const values = byGap.get(gap)!.sort((a, b) => a - b);
    const q = (p: number): string => values[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(3).padStart(7);
    const neighbours = values.filter((v) => v >= NEIGHBOUR_SCORE).length;
    console.info(`  gap ${String(gap).padStart(4)}: ${q(0)}${q(0.1)}${q(0.5)}${q(0.9)}${values[values.length - 1]!.toFixed(3).padStart(7)}   read as neighbours ${neighbours}/${values.length}`);
  }
}

function printOrder(): void {
  const rows = new Map<Kind, KindScores>(KINDS.map((kind) => [kind, { frames: 0, lumen: 0, vessel: 0, lumenAlone: 0, diffSum: 0, diffMax: 0, nonNeighbours: 0, nonNeighbourDiffMax: 0, worse: 0, better: 0, worstDrop: 0, neighbourDrop: 0 }]));
  const started = performance.now();
  let detected = 0;
  let sequenceFrames = 0;
  let secondOpinions = 0;
  const carried = { searched: 0, replaced: 0 };
  const dumpAt = args.indexOf('--dump');
  const dump = dumpAt >= 0 ? fs.openSync(args[dumpAt + 1]!, 'w') : null;
  const ranked: { score: number; good: boolean }[] = [];
  for (const type of types) {
    for (const seed of seeds) {
      const evaluation = evaluationCase(type, seed);
      const renderer = createBmodeRenderer(evaluation.model);
      const detector = detectorFor(evaluation);
      const geometry = { frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm };
      const pixels = new Map<number, Uint8Array>();
      const alone = new Map<number, { lumen: number; vessel: number; confidence: number; hug: number; lumenMm: number }>();
      const frameOf = (index: number): Uint8Array => {
        let frame = pixels.get(index);
        if (frame === undefined) pixels.set(index, (frame = renderer.renderFrame(index).slice()));
        return frame;
      };
      const aloneDice = (index: number) => {
        let dice = alone.get(index);
        if (dice === undefined) {
          const { detections } = detectBorderSequence(detector, frameOf(index), geometry);
          detected++;
          const single = detector.detect(frameOf(index), null, null);
          const hug = wallHugShare(single, evaluation.pixelSpacingMm);
          const lumenMm = meanRadiusMm(single.lumen.radiiPx, evaluation.pixelSpacingMm);
          alone.set(index, (dice = { ...diceOf(detections[0]!, truthContours(evaluation.model, index), evaluation.frameWidth), confidence: detections[0]!.confidence ?? 0, hug, lumenMm }));
        }
        return dice;
      };
      for (const [kind, indices] of Object.entries(sequences(evaluation)) as [Kind, number[]][]) {
        const frames = new Uint8Array(indices.length * evaluation.frameWidth * evaluation.frameHeight);
        indices.forEach((index, k) => frames.set(frameOf(index), k * evaluation.frameWidth * evaluation.frameHeight));
        const recorder = recording(detector, evaluation.pixelSpacingMm);
        const { detections } = detectBorderSequence(recorder.detector, frames, geometry);
        detected += indices.length + recorder.secondOpinions();
        sequenceFrames += indices.length;
        secondOpinions += recorder.secondOpinions();
        indices.forEach((_, k) => {
          const check = recorder.carriedEem(k);
          if (check?.freeMm != null) carried.searched++;
          if (check?.replaced === true) carried.replaced++;
        });
        const row = rows.get(kind)!;
        indices.forEach((index, k) => {
          const dice = diceOf(detections[k]!, truthContours(evaluation.model, index), evaluation.frameWidth);
          const single = aloneDice(index);
          const diff = Math.max(Math.abs(dice.lumen - single.lumen), Math.abs(dice.vessel - single.vessel));
          const reference = k === 0 ? indices[1] : indices[k - 1];
          const nonNeighbour = reference === undefined || Math.abs(reference - index) > NEIGHBOUR_GAP;
          ranked.push({ score: detections[k]!.confidence ?? 0, good: dice.lumen >= 0.85 });
          if (dump !== null) fs.writeSync(dump, `${JSON.stringify({ type, seed, kind, index, reference, lumen: dice.lumen, vessel: dice.vessel, lumenAlone: single.lumen, vesselAlone: single.vessel, confidenceAlone: single.confidence, hugAlone: single.hug, lumenMmAlone: single.lumenMm, ...recorder.hug(detections[k]!.confidence ?? 0, k), carriedEem: recorder.carriedEem(k), confidence: detections[k]!.confidence, neighbourScore: recorder.scores[k], inputs: recorder.inputs(detections[k]!.confidence, k) })}\n`);
          row.frames++;
          row.lumen += dice.lumen;
          row.vessel += dice.vessel;
          row.lumenAlone += single.lumen;
          row.diffSum += diff;
          row.diffMax = Math.max(row.diffMax, diff);
          if (!nonNeighbour) row.neighbourDrop = Math.max(row.neighbourDrop, single.lumen - dice.lumen, single.vessel - dice.vessel);
          if (nonNeighbour) {
            row.nonNeighbours++;
            row.nonNeighbourDiffMax = Math.max(row.nonNeighbourDiffMax, diff);
            const drop = Math.max(single.lumen - dice.lumen, single.vessel - dice.vessel);
            row.worstDrop = Math.max(row.worstDrop, drop);
            if (drop > 0.02) row.worse++;
            else if (diff > 0.02) row.better++;
          }
        });
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const f = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
  console.info(`border detection in any frame order: ${types.length} case types x ${seeds.length} seeds (${label}: ${seeds.join(', ')})`);
  console.info('Dice: mean over the kind\'s frames; vs alone: max(|lumen|, |vessel|) Dice difference from the frame detected alone');
  console.info(`${'kind'.padEnd(13)}${'frames'.padStart(7)}${'lumen'.padStart(8)}${'vessel'.padStart(8)}${'lumen alone'.padStart(12)}${'vs alone mean'.padStart(14)}${'max'.padStart(7)}${'non-nb'.padStart(8)}${'non-nb max'.padStart(11)}${'worse'.padStart(7)}${'better'.padStart(7)}${'max drop'.padStart(9)}${'nb drop'.padStart(9)}`);
  for (const kind of KINDS) {
    const row = rows.get(kind)!;
    const n = Math.max(1, row.frames);
    console.info(
      kind.padEnd(13) +
        f(row.frames, 0, 7) +
        f(row.lumen / n, 4, 8) +
        f(row.vessel / n, 4, 8) +
        f(row.lumenAlone / n, 4, 12) +
        f(row.diffSum / n, 4, 14) +
        f(row.diffMax, 3, 7) +
        f(row.nonNeighbours, 0, 8) +
        f(row.nonNeighbourDiffMax, 4, 11) +
        f(row.worse, 0, 7) +
        f(row.better, 0, 7) +
        f(row.worstDrop, 4, 9) +
        f(row.neighbourDrop, 4, 9),
    );
  }
  if (dump !== null) fs.closeSync(dump);
  const bad = ranked.filter((frame) => !frame.good).length;
  console.info(`\nconfidence AUC (lumen Dice < 0.85 vs the rest, all ${ranked.length} frames of all kinds, ${bad} below): ${auc(ranked).toFixed(3)}`);
  console.info(`\nsecond opinions (a low-confidence frame shaped by its reference detected alone as well, detect-sequence.ts): ${secondOpinions} of ${sequenceFrames} sequence frames (${((100 * secondOpinions) / Math.max(1, sequenceFrames)).toFixed(1)} %)`);
  console.info(`carried EEMs searched again without continuity (carried-eem.ts): ${carried.searched} of ${sequenceFrames} sequence frames (${((100 * carried.searched) / Math.max(1, sequenceFrames)).toFixed(1)} %), replaced ${carried.replaced}`);
  console.info(`\n${detected} detections (and their rendering) in ${seconds.toFixed(1)} s, one thread`);
}

if (args.includes('--scores')) printScores();
else printOrder();

/**
 * `node bench/contours-neighbour-diagnosis.ts TYPE SEED FROM COUNT [--first-after]`: why a run of
 * consecutive frames loses against each frame alone (issue 23, "continuity never carries a
 * failure"). For frames FROM … FROM+COUNT−1 of one evaluation case it prints, per frame, the lumen
 * and vessel Dice and the lumen area against the truth of four detections:
 *   alone   the frame with no reference and no previous borders;
 *   cue     the frame with the frame before as temporal reference, no previous borders (the cue only);
 *   prior   the chain with the cue but no continuity cost (the previous borders weigh nothing);
 *   seq     detectBorderSequence over the run (cue, continuity and the second opinion), as the server runs it;
 * with, for the first three, the share of rays whose lumen lies within HUG_MM of the vessel (h, detect-sequence.ts),
 * and the mean radial distance (mm) between cue and alone and the lumen area ratios of seq to alone and to cue.
 * The first frame's reference is the frame after it, as detectBorderSequence gives it.
 */
import { diceCoefficient } from '../src/domain/contours/agreement.ts';
import type { BorderDetection } from '../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import { detectBorderSequence } from '../src/domain/contours/detect-sequence.ts';
import { wallHugShare } from '../src/domain/contours/lumen-on-eem.ts';
import { lumenAreaMm2, measuredOutline } from '../src/domain/contours/measurements.ts';
import { truthContours } from '../src/domain/synthetic/contours.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { evaluationCase, type EvaluationCaseType } from '../src/domain/synthetic/evaluation-cases.ts';

const [type, seedText, fromText, countText] = process.argv.slice(2);
if (!type || !seedText || !fromText) throw new Error('usage: bench/contours-neighbour-diagnosis.ts TYPE SEED FROM [COUNT]');
const evaluation = evaluationCase(type as EvaluationCaseType, Number(seedText));
const from = Number(fromText);
const count = Number(countText ?? 10);
const renderer = createBmodeRenderer(evaluation.model);
const centre = evaluation.frames[0]!.catheterCentre;
const options = { frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y };
const geometry = { frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm };
const mm = evaluation.pixelSpacingMm;
const size = evaluation.frameWidth;
const frames = Array.from({ length: count }, (_, k) => renderer.renderFrame(from + k).slice());
const truths = frames.map((_, k) => truthContours(evaluation.model, from + k));

const plain = createBorderDetector(options);
const noPrior = createBorderDetector({ ...options, tuning: { continuityCost: 0 } });
const alone = frames.map((frame) => plain.detect(frame, null, null));
const cue = frames.map((frame, k) => plain.detect(frame, null, k === 0 ? (frames[1] ?? null) : frames[k - 1]!));
const prior: BorderDetection[] = [];
frames.forEach((frame, k) => prior.push(noPrior.detect(frame, prior[k - 1] ?? null, k === 0 ? (frames[1] ?? null) : frames[k - 1]!)));
const all = new Uint8Array(count * frames[0]!.length);
frames.forEach((frame, k) => all.set(frame, k * frame.length));
const seq = detectBorderSequence(createBorderDetector(options), all, geometry).detections;

const truthArea = (k: number): number => lumenAreaMm2(truths[k]!.lumen, mm);
const radial = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return (sum / a.length) * mm;
};
const cell = (lumen: readonly { x: number; y: number }[], vessel: readonly { x: number; y: number }[], k: number, confidence: number): string => {
  const l = diceCoefficient(measuredOutline(lumen as never), truths[k]!.lumen, size);
  const v = diceCoefficient(measuredOutline(vessel as never), truths[k]!.vessel, size);
  const area = lumenAreaMm2(measuredOutline(lumen as never), mm) / truthArea(k);
  return `${l.toFixed(3)} ${v.toFixed(3)} ${area.toFixed(2)} ${confidence.toFixed(2)} |`;
};
console.info(`${type} ${seedText}, frames ${from}–${from + count - 1}; each cell: lumen Dice, vessel Dice, lumen area / truth, confidence, share of rays whose lumen lies on the EEM (h)`);
console.info('frame | alone | cue | prior (no continuity) | seq | cue-alone mean radial distance mm (lumen, vessel) | seq lumen area / alone, / cue');
for (let k = 0; k < count; k++) {
  const d = (x: BorderDetection): string => `${cell(x.lumen.controlPoints, x.vessel.controlPoints, k, x.confidence).slice(0, -2)} h${wallHugShare(x, mm).toFixed(2)} |`;
  const s = seq[k]!;
  const seqCell = cell(s.controlPoints, s.vessel!.controlPoints, k, s.confidence ?? 0);
  // A SliceDetection keeps control points, not radii: seq is compared by its lumen area.
  const areaOf = (points: readonly { x: number; y: number }[]): number => lumenAreaMm2(measuredOutline(points as never), mm);
  console.info(
    `${String(from + k).padStart(5)} | ${d(alone[k]!)} ${d(cue[k]!)} ${d(prior[k]!)} ${seqCell}  ` +
      `${radial(cue[k]!.lumen.radiiPx, alone[k]!.lumen.radiiPx).toFixed(3)} ${radial(cue[k]!.vessel.radiiPx, alone[k]!.vessel.radiiPx).toFixed(3)} (cue-alone)  ` +
      `lumen area seq/alone ${(areaOf(s.controlPoints) / areaOf(alone[k]!.lumen.controlPoints)).toFixed(2)} seq/cue ${(areaOf(s.controlPoints) / areaOf(cue[k]!.lumen.controlPoints)).toFixed(2)}`,
  );
}

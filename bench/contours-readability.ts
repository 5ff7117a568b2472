/**
 * `node bench/contours-readability.ts`: what "no border" falls on (issue 23). For every case type
 * and seed it detects each sequence kind of sequence-kinds.ts through detectBorderSequence (the
 * server's and the CLI's path) and, in one call each, the garbage frames of unreadable-frames.ts,
 * and prints per sequence kind how many good frames (lumen Dice ≥ 0.85), bad IVUS frames and
 * garbage frames get "no border" (frame-readability.ts), beside what the bare confidence cut
 * (UNREADABLE_CONFIDENCE) gave.
 *
 *   --tuning       TUNING_SEEDS (what the readability thresholds are fitted on) instead of EVALUATION_SEEDS
 *   --types a,b    only these case types
 *   --dump file    every frame's features, confidence, decision and Dice as JSON lines
 */
import fs from 'node:fs';
import { diceCoefficient } from '../src/domain/contours/agreement.ts';
import { isUnreadable, type BorderDetector } from '../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import { detectBorderSequence } from '../src/domain/contours/detect-sequence.ts';
import type { ReadabilityFeatures } from '../src/domain/contours/frame-readability.ts';
import { measuredOutline } from '../src/domain/contours/measurements.ts';
import { EVALUATION_CASE_TYPES, evaluationCase } from '../src/domain/synthetic/evaluation-cases.ts';
import { caseSelection } from './case-selection.ts';
import { frameSequence, SEQUENCE_KINDS } from '../src/domain/synthetic/sequence-kinds.ts';
import { UNREADABLE_FRAME_KINDS, unreadableFrame } from '../src/domain/synthetic/unreadable-frames.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';

const args = process.argv.slice(2);
const { tuning, types, seeds } = caseSelection(args);
const dumpAt = args.indexOf('--dump');
const dump = dumpAt >= 0 ? fs.openSync(args[dumpAt + 1]!, 'w') : null;

interface Row {
  frames: number;
  noBorder: number;
  belowCut: number;
}
const row = (): Row => ({ frames: 0, noBorder: 0, belowCut: 0 });
const good = new Map<string, Row>();
const bad = new Map<string, Row>();
const garbage = new Map<string, Row>();
const count = (table: Map<string, Row>, key: string, noBorder: boolean, confidence: number): void => {
  const entry = table.get(key) ?? row();
  table.set(key, entry);
  entry.frames++;
  if (noBorder) entry.noBorder++;
  if (isUnreadable(confidence)) entry.belowCut++;
};

const started = performance.now();
for (const type of types) {
  for (const seed of seeds) {
    const evaluation = evaluationCase(type, seed);
    const centre = evaluation.frames[0]!.catheterCentre;
    const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
    const features: (ReadabilityFeatures | null)[] = [];
    const recording: BorderDetector = {
      detect(frame, previous, previousFrame) {
        const detection = detector.detect(frame, previous, previousFrame);
        features.push(detector.readability());
        return detection;
      },
    };
    const geometry = { frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm };
    const size = evaluation.frameWidth * evaluation.frameHeight;
    for (const kind of SEQUENCE_KINDS) {
      const sequence = frameSequence(evaluation, kind);
      const frames = new Uint8Array(sequence.frames.length * size);
      sequence.frames.forEach((_, k) => frames.set(sequence.render(k), k * size));
      features.length = 0;
      const { detections } = detectBorderSequence(recording, frames, geometry);
      detections.forEach((detection, k) => {
        const truth = sequence.frames[k]!.truth;
        const lumen = diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, evaluation.frameWidth);
        const vessel = diceCoefficient(measuredOutline(detection.vessel.controlPoints), truth.vessel, evaluation.frameWidth);
        const noBorder = detection.readable === false;
        count(lumen >= 0.85 ? good : bad, kind, noBorder, detection.confidence);
        if (dump !== null) fs.writeSync(dump, `${JSON.stringify({ type, seed, kind, k, lumen, vessel, confidence: detection.confidence, readable: detection.readable, features: features[k] })}\n`);
      });
    }
    const renderer = createBmodeRenderer(evaluation.model);
    const far = (evaluation.frames[0]!.frameIndex + 900) % evaluation.model.frameCount;
    const source = { width: evaluation.frameWidth, height: evaluation.frameHeight, seed: seed * 97 + EVALUATION_CASE_TYPES.indexOf(type), model: evaluation.model, otherFrame: renderer.renderFrame(far).slice() };
    for (const kind of UNREADABLE_FRAME_KINDS) {
      features.length = 0;
      const { detections } = detectBorderSequence(recording, unreadableFrame(kind, source), geometry);
      const detection = detections[0]!;
      count(garbage, kind, detection.readable === false, detection.confidence);
      if (dump !== null) fs.writeSync(dump, `${JSON.stringify({ type, seed, kind: `garbage:${kind}`, k: 0, confidence: detection.confidence, readable: detection.readable, features: features[0] })}\n`);
    }
  }
}
if (dump !== null) fs.closeSync(dump);

const pct = (entry: Row, field: 'noBorder' | 'belowCut'): string => `${entry[field]}/${entry.frames} (${((100 * entry[field]) / Math.max(1, entry.frames)).toFixed(2)} %)`.padStart(20);
const print = (title: string, table: Map<string, Row>): void => {
  console.info(`\n${title}`);
  console.info(`${'kind'.padEnd(13)}${'no border'.padStart(20)}${'conf < 0.2 (before)'.padStart(22)}`);
  const total = row();
  for (const [key, entry] of table) {
    console.info(`${key.padEnd(13)}${pct(entry, 'noBorder')}  ${pct(entry, 'belowCut')}`);
    total.frames += entry.frames;
    total.noBorder += entry.noBorder;
    total.belowCut += entry.belowCut;
  }
  console.info(`${'all'.padEnd(13)}${pct(total, 'noBorder')}  ${pct(total, 'belowCut')}`);
};
console.info(`"no border" by frame class: ${types.length} case types x ${seeds.length} seeds (${tuning ? 'TUNING' : 'EVALUATION'}_SEEDS: ${seeds.join(', ')})`);
print('good frames (lumen Dice >= 0.85), by sequence kind', good);
print('bad IVUS frames (lumen Dice < 0.85), by sequence kind', bad);
print('garbage frames, by kind', garbage);
console.info(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);

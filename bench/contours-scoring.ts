/**
 * Scoring for bench/contours.ts: one evaluation case's run through a detector, frame by frame
 * against the generator's truth, and the sums that make a row of the table.
 *
 * A detected border is scored as the product shows and measures it: the smooth closed curve through
 * its control points (measuredOutline), not the detector's dense polygon.
 */
import { detectInSequence } from '../src/domain/contours/detect-sequence.ts';
import { diceCoefficient, hausdorffDistance } from '../src/domain/contours/agreement.ts';
import type { BorderDetection, BorderDetector } from '../src/domain/contours/border-detection.ts';
import type { LumenDetector } from './legacy/lumen-detector.ts';
import { lumenAreaMm2, measuredOutline } from '../src/domain/contours/measurements.ts';
import type { Point } from '../src/domain/annotations/manifest.ts';
import { polygonAreaMm2 } from '../src/domain/synthetic/contours.ts';
import type { EvaluationCase } from '../src/domain/synthetic/evaluation-cases.ts';
import type { ImagePoint } from '../src/domain/image-point.ts';

/** Per-border sums over frames. */
export interface BorderScores {
  frames: number;
  dice: number;
  worstDice: number;
  areaErrorPercent: number;
  maxAreaErrorPercent: number;
  hausdorffMm: number;
  maxHausdorffMm: number;
  /** Frames with a Dice below 0.80 (the floor). */
  below080: number;
}

export interface RowScores {
  lumen: BorderScores;
  /** Null when the detector finds no vessel border (the legacy lumen detector). */
  vessel: BorderScores | null;
  detectSeconds: number;
  renderSeconds: number;
}

export function emptyBorderScores(): BorderScores {
  return { frames: 0, dice: 0, worstDice: 1, areaErrorPercent: 0, maxAreaErrorPercent: 0, hausdorffMm: 0, maxHausdorffMm: 0, below080: 0 };
}

export function emptyRow(withVessel: boolean): RowScores {
  return { lumen: emptyBorderScores(), vessel: withVessel ? emptyBorderScores() : null, detectSeconds: 0, renderSeconds: 0 };
}

/** One detected border against the truth, as the product measures it. */
export interface BorderAgreement {
  readonly dice: number;
  /** |detected - true| area over the true area, %. */
  readonly areaErrorPercent: number;
  readonly hausdorffMm: number;
}

export function borderAgreement(controlPoints: readonly Point[], truth: readonly ImagePoint[], sizePx: number, spacingMm: number): BorderAgreement {
  const outline = measuredOutline(controlPoints);
  const trueArea = polygonAreaMm2(truth, spacingMm);
  return {
    dice: diceCoefficient(outline, truth, sizePx),
    areaErrorPercent: (100 * Math.abs(lumenAreaMm2(controlPoints, spacingMm) - trueArea)) / trueArea,
    hausdorffMm: hausdorffDistance(outline, truth) * spacingMm,
  };
}

export function addAgreement(scores: BorderScores, agreement: BorderAgreement): void {
  const { dice, areaErrorPercent: areaError, hausdorffMm: hausdorff } = agreement;
  scores.frames++;
  scores.dice += dice;
  scores.worstDice = Math.min(scores.worstDice, dice);
  scores.areaErrorPercent += areaError;
  scores.maxAreaErrorPercent = Math.max(scores.maxAreaErrorPercent, areaError);
  scores.hausdorffMm += hausdorff;
  scores.maxHausdorffMm = Math.max(scores.maxHausdorffMm, hausdorff);
  if (dice < 0.8) scores.below080++;
}

function scoreBorder(scores: BorderScores, controlPoints: readonly Point[], truth: readonly ImagePoint[], sizePx: number, spacingMm: number): void {
  addAgreement(scores, borderAgreement(controlPoints, truth, sizePx, spacingMm));
}

export function addBorderScores(into: BorderScores, from: BorderScores): void {
  into.frames += from.frames;
  into.dice += from.dice;
  into.worstDice = Math.min(into.worstDice, from.worstDice);
  into.areaErrorPercent += from.areaErrorPercent;
  into.maxAreaErrorPercent = Math.max(into.maxAreaErrorPercent, from.maxAreaErrorPercent);
  into.hausdorffMm += from.hausdorffMm;
  into.maxHausdorffMm = Math.max(into.maxHausdorffMm, from.maxHausdorffMm);
  into.below080 += from.below080;
}

export function addRow(into: RowScores, from: RowScores): void {
  addBorderScores(into.lumen, from.lumen);
  if (into.vessel !== null && from.vessel !== null) addBorderScores(into.vessel, from.vessel);
  into.detectSeconds += from.detectSeconds;
  into.renderSeconds += from.renderSeconds;
}

/** The run's frames, rendered once (timed apart from detection). */
export function renderRun(evaluation: EvaluationCase): { frames: Uint8Array[]; seconds: number } {
  const started = performance.now();
  const frames = evaluation.frames.map((_, k) => evaluation.render(k));
  return { frames, seconds: (performance.now() - started) / 1000 };
}

/** Both borders through the BorderDetector contract, each frame given the previous one. */
export function scoreBorderDetector(detector: BorderDetector, evaluation: EvaluationCase, frames: readonly Uint8Array[], into: RowScores): void {
  const detections: BorderDetection[] = [];
  const started = performance.now();
  let previous: BorderDetection | null = null;
  let previousFrame: Uint8Array | null = null;
  frames.forEach((frame, k) => {
    // The run's first frame has no frame before it: the one after serves for the temporal cue. As
    // detectBorderSequence does, a low-confidence frame its reference shaped is detected alone as well.
    previous = detectInSequence(detector, frame, previous, k === 0 ? (frames[1] ?? null) : previousFrame, evaluation.pixelSpacingMm);
    previousFrame = frame;
    detections.push(previous);
  });
  into.detectSeconds += (performance.now() - started) / 1000;
  detections.forEach((detection, k) => {
    const truth = evaluation.frames[k]!.truth;
    scoreBorder(into.lumen, detection.lumen.controlPoints, truth.lumen, evaluation.frameWidth, evaluation.pixelSpacingMm);
    if (into.vessel !== null) scoreBorder(into.vessel, detection.vessel.controlPoints, truth.vessel, evaluation.frameWidth, evaluation.pixelSpacingMm);
  });
}

/** The legacy lumen detector (lumen only), each frame seeded with the previous frame's radii. */
export function scoreLumenDetector(detector: LumenDetector, evaluation: EvaluationCase, frames: readonly Uint8Array[], into: RowScores): void {
  const controlPoints: Point[][] = [];
  const started = performance.now();
  let previous: Float32Array | null = null;
  for (const frame of frames) {
    const detection = detector.detect(frame, previous);
    previous = detection.radiiPx;
    controlPoints.push(detection.controlPoints);
  }
  into.detectSeconds += (performance.now() - started) / 1000;
  controlPoints.forEach((points, k) => {
    scoreBorder(into.lumen, points, evaluation.frames[k]!.truth.lumen, evaluation.frameWidth, evaluation.pixelSpacingMm);
  });
}

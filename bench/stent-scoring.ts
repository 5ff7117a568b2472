/**
 * Runs the stent analysis (src/domain/stent) on one stented pullback of the generator
 * (src/domain/synthetic/stent-cases.ts) and scores it against the generator's truth
 * (stent-truth.ts): stent-border Dice frame by frame, MSA error, the stented segment's edges,
 * expansion, and malapposed regions found and made up. Shared by bench/stent.ts and its test.
 */
import { analyseStent, type StentAnalysis } from '../src/domain/stent/stent-analysis.ts';
import { malappositionRegions, regionsMeet, type MalappositionRegion } from '../src/domain/stent/malapposition.ts';
import { stentRadiusAt } from '../src/domain/stent/stent-border.ts';
import { createStrutDetector, LINE_COUNT, type StentFrameReading } from '../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx, polygonAreaMm2, truthContours } from '../src/domain/synthetic/contours.ts';
import type { StentCase } from '../src/domain/synthetic/stent-cases.ts';
import { STENT_TRUTH_POINTS, truthMalapposedLines, truthStentFrame, type TruthStentFrame } from '../src/domain/synthetic/stent-truth.ts';

export interface StentScores {
  readonly seed: number;
  readonly look: string;
  readonly framesRead: number;
  /** Frames in the true stent with a detected border, over all frames in the true stent. */
  readonly borderCoverage: number;
  readonly meanDice: number;
  readonly worstDice: number;
  readonly truthMsaMm2: number;
  readonly detectedMsaMm2: number | null;
  readonly msaErrorPercent: number | null;
  readonly edgeErrorMm: { readonly distal: number | null; readonly proximal: number | null };
  readonly truthExpansion: number | null;
  readonly detectedExpansion: number | null;
  readonly truthRegions: number;
  readonly truthRegionList: readonly MalappositionRegion[];
  readonly foundRegions: number;
  readonly falseRegions: number;
  readonly analysis: StentAnalysis;
  readonly readSeconds: number;
}

/** Polar Dice of two curves given by radii at the same equally spaced angles. */
export function polarDice(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let both = 0;
  let sum = 0;
  for (let k = 0; k < a.length; k++) {
    const m = Math.min(a[k]!, b[k]!);
    both += m * m;
    sum += a[k]! * a[k]! + b[k]! * b[k]!;
  }
  return (2 * both) / sum;
}

/** What reading a case gives: each read frame's reading, truth and true lumen and vessel areas. */
export interface ReadStentCase {
  readonly seed: number;
  readonly look: string;
  readonly framesPerMm: number;
  readonly readings: readonly StentFrameReading[];
  readonly truths: readonly (TruthStentFrame | null)[];
  readonly lumenAreas: readonly number[];
  readonly vesselAreas: readonly number[];
  readonly readMs: number;
}

/** Reads every `stride`-th frame of the case (stride 6 is 0.1 mm at 60 frames/mm) and scores the analysis. */
export function scoreStentCase(stentCase: StentCase, stride: number): StentScores {
  return scoreReadCase(readStentCase(stentCase, stride));
}

export function readStentCase(stentCase: StentCase, stride: number): ReadStentCase {
  const model = stentCase.model;
  const centre = catheterCentrePx(model);
  const detector = createStrutDetector({ frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, centreX: centre.x, centreY: centre.y, pixelSpacingMm: model.pixelSpacingMm });
  const renderer = createBmodeRenderer(model);
  const framesPerMm = model.frameRateHz / model.pullbackSpeedMmPerS / stride;
  const readings: StentFrameReading[] = [];
  const truths: (TruthStentFrame | null)[] = [];
  const lumenAreas: number[] = [];
  const vesselAreas: number[] = [];
  const pixels = new Uint8Array(model.frameSizePx * model.frameSizePx);
  let readMs = 0;
  for (let frame = 0; frame < model.frameCount; frame += stride) {
    renderer.renderFrame(frame, pixels);
    const started = performance.now();
    readings.push(detector.detect(pixels));
    readMs += performance.now() - started;
    truths.push(truthStentFrame(model, frame));
    // The references and edges read the lumen and vessel areas; the bench gives the true ones, so
    // that the expansion's error is the MSA's alone (the contour bench scores those borders).
    const contours = truthContours(model, frame);
    lumenAreas.push(polygonAreaMm2(contours.lumen, model.pixelSpacingMm));
    vesselAreas.push(polygonAreaMm2(contours.vessel, model.pixelSpacingMm));
  }
  return { seed: stentCase.seed, look: stentCase.look, framesPerMm, readings, truths, lumenAreas, vesselAreas, readMs };
}

export function scoreReadCase(read: ReadStentCase): StentScores {
  const { readings, truths, lumenAreas, vesselAreas, framesPerMm, readMs } = read;
  const analysis = analyseStent({ readings, framesPerMm, lumenAreasMm2: lumenAreas, vesselAreasMm2: vesselAreas });

  const dice: number[] = [];
  let inStent = 0;
  let truthMsa = Infinity;
  truths.forEach((truth, i) => {
    if (truth === null) return;
    inStent++;
    truthMsa = Math.min(truthMsa, truth.areaMm2);
    const border = analysis.frames[i]?.border;
    if (border == null) return;
    const radii = Array.from({ length: STENT_TRUTH_POINTS }, (_, k) => stentRadiusAt(border, (2 * Math.PI * k) / STENT_TRUTH_POINTS));
    dice.push(polarDice(radii, truth.radiiMm));
  });
  const firstTruth = truths.findIndex((t) => t !== null);
  const lastTruth = truths.length - 1 - [...truths].reverse().findIndex((t) => t !== null);
  const segment = analysis.segment;
  const detectedMsa = analysis.msa?.areaMm2 ?? null;

  // Truth expansion: the true MSA over the same references (true lumen areas, the same frames' rule).
  const truthAnalysisReferences = analysis.references;
  const meanRef =
    truthAnalysisReferences.distal && truthAnalysisReferences.proximal
      ? (truthAnalysisReferences.distal.areaMm2 + truthAnalysisReferences.proximal.areaMm2) / 2
      : null;

  const truthRegions = malappositionRegions(
    truths.map((t) => (t === null ? null : resampleLines(truthMalapposedLines(t)))),
    framesPerMm,
  );
  const found = truthRegions.filter((t) => analysis.malapposition.some((d) => regionsMeet(d, t))).length;
  const falseRegions = analysis.malapposition.filter((d) => !truthRegions.some((t) => regionsMeet(d, t))).length;
  return {
    seed: read.seed,
    look: read.look,
    framesRead: readings.length,
    borderCoverage: inStent === 0 ? 0 : dice.length / inStent,
    meanDice: dice.length === 0 ? 0 : dice.reduce((a, b) => a + b, 0) / dice.length,
    worstDice: dice.length === 0 ? 0 : Math.min(...dice),
    truthMsaMm2: truthMsa,
    detectedMsaMm2: detectedMsa,
    msaErrorPercent: detectedMsa === null ? null : (100 * (detectedMsa - truthMsa)) / truthMsa,
    edgeErrorMm: {
      distal: segment === null || firstTruth < 0 ? null : (segment.distalFrame - firstTruth) / framesPerMm,
      proximal: segment === null || firstTruth < 0 ? null : (segment.proximalFrame - lastTruth) / framesPerMm,
    },
    truthExpansion: meanRef === null ? null : truthMsa / meanRef,
    detectedExpansion: analysis.expansionMean,
    truthRegions: truthRegions.length,
    truthRegionList: truthRegions,
    foundRegions: found,
    falseRegions,
    analysis,
    readSeconds: readMs / 1000,
  };
}

/** Truth lines (STENT_TRUTH_POINTS) onto the detector's lines (LINE_COUNT), nearest line. */
function resampleLines(lines: Uint8Array): Uint8Array {
  if (lines.length === LINE_COUNT) return lines;
  return Uint8Array.from({ length: LINE_COUNT }, (_, k) => lines[Math.floor((k * lines.length) / LINE_COUNT)]!);
}

export type { MalappositionRegion };

/**
 * The strut detector's output on a fixed set of generated frames, one digest per case type: what the
 * speed work on the struts (issue 23) must leave bit for bit unchanged. Case types: frames inside a
 * stent whose struts touch the wall ('stented'), inside a stent over a malapposed region
 * ('malapposed'), calcified frames of the calcium pullbacks (a bright arc with a shadow that is no
 * strut: 'calcified'), and native vessel without a stent, including the demo record's geometry
 * (512 px at 0.01 mm: 'plain'). Stented pullbacks of both looks and three frame sizes; every seed is
 * an evaluation seed (nothing is tuned on the digests).
 *
 * A digest is the SHA-256 of the exact bytes of every strut (angle, radius, shadow contrast as
 * float64), the wall bins, the polar image read, and the detector's per-line readings (contrast of
 * every line; echo, its sample and the step's height where the contrast is above 0), so a change of even the last bit
 * of a line that forms no strut shows.
 */
import { createHash } from 'node:crypto';
import { createStrutDetector, type StrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { calciumEvaluationPullback } from '../../../src/domain/synthetic/calcium-evaluation.ts';
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import { createPullbackModel, type PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthMalapposedLines, truthStentFrame, truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';

export const STRUT_CASE_TYPES = ['stented', 'malapposed', 'calcified', 'plain'] as const;
export type StrutCaseType = (typeof STRUT_CASE_TYPES)[number];

/** Evaluation seeds: 60 MHz at 500 px, 20 MHz at 384 px, 20 MHz at 512 px. */
const STENT_SEEDS = [2201, 2202, 2204];

export interface StrutGoldenFrames {
  readonly model: PullbackModel;
  readonly frames: readonly number[];
}

function isMalapposed(model: PullbackModel, frame: number): boolean {
  const truth = truthStentFrame(model, frame);
  return truth !== null && truthMalapposedLines(truth).some((line) => line > 0);
}

/** The pullbacks and frame indices of one case type. */
export function strutGoldenFrames(type: StrutCaseType): StrutGoldenFrames[] {
  if (type === 'calcified') {
    return (['extensive', 'nodule'] as const).map((kind, i) => {
      const pullback = calciumEvaluationPullback(kind, 2201 + i);
      const calcified = pullback.frames.filter((f) => (f.truth?.arcDeg ?? 0) >= 60).map((f) => f.frameIndex);
      return { model: pullback.model, frames: [0, 0.5, 1].map((q) => calcified[Math.floor(q * (calcified.length - 1))]!) };
    });
  }
  const stented = STENT_SEEDS.map((seed) => {
    const model = stentCase(seed).model;
    const span = truthStentFrames(model)!;
    if (type === 'plain') return { model, frames: [span.first - 200, span.last + 150] };
    const inside: number[] = [];
    for (let f = span.first + 30; f <= span.last - 30; f += 5) if (isMalapposed(model, f) === (type === 'malapposed')) inside.push(f);
    return { model, frames: [0.2, 0.5, 0.8].map((q) => inside[Math.floor(q * (inside.length - 1))]!) };
  });
  if (type !== 'plain') return stented;
  // The demo record's geometry (server/imaging: 512 px at 0.01 mm), where the speed is measured.
  const demo = createPullbackModel({ seed: 0, frameCount: 3600, frameSizePx: 512, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
  return [...stented, { model: demo, frames: [900, 2700] }];
}

export function strutDetectorFor(model: PullbackModel): StrutDetector {
  const centre = catheterCentrePx(model);
  return createStrutDetector({ frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, centreX: centre.x, centreY: centre.y, pixelSpacingMm: model.pixelSpacingMm });
}

const bytesOf = (values: Float32Array | Float64Array | Int32Array | Uint8Array): Uint8Array => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);

/** Every field of one frame's reading and the detector's per-line readings, into `hash`. */
export function addStrutReading(hash: ReturnType<typeof createHash>, detector: StrutDetector, frame: Uint8Array): void {
  const reading = detector.detect(frame);
  hash.update(bytesOf(Float64Array.from(reading.struts.flatMap((s) => [s.angleRad, s.radiusMm, s.shadowContrast]))));
  hash.update(String(reading.struts.length));
  hash.update(reading.wall);
  hash.update(bytesOf(detector.polar));
  const { contrast, peak, peakAt, step } = detector.lines;
  hash.update(bytesOf(contrast));
  const strutLines: number[] = [];
  for (let line = 0; line < contrast.length; line++) if (contrast[line]! > 0) strutLines.push(line, peak[line]!, peakAt[line]!, step[line]!);
  hash.update(bytesOf(Float64Array.from(strutLines)));
}

/** The digest of one case type, and how many frames and struts went into it. */
export function strutGoldenDigest(type: StrutCaseType): { digest: string; frames: number; struts: number } {
  const hash = createHash('sha256');
  let frames = 0;
  let struts = 0;
  for (const { model, frames: indices } of strutGoldenFrames(type)) {
    const detector = strutDetectorFor(model);
    const renderer = createBmodeRenderer(model);
    for (const index of indices) {
      const pixels = renderer.renderFrame(index);
      addStrutReading(hash, detector, pixels);
      struts += detector.detect(pixels).struts.length;
      frames++;
    }
  }
  return { digest: hash.digest('hex').slice(0, 24), frames, struts };
}

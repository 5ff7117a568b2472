/**
 * Speed of the per-frame stent and calcium readers (issue 23: the whole detection job under about
 * 8.3 ms a frame), per case type: `npm run bench:stent -- --speed-only`, `npm run bench:calcium --
 * --speed-only`. Frames are rendered once, untimed; then every frame is read PASSES times and this
 * thread's CPU is counted (not wall time: the machine is shared). Prints ms a frame and frames/s per
 * core; asserts nothing.
 *
 * Struts: frames inside a stent whose struts touch the wall, over a malapposed region, calcified
 * frames of the calcium pullbacks, native vessel, and the demo record's geometry (512 px at 0.01 mm,
 * as bench/cold-open-phases.ts). Calcium: each kind of the calcium pullbacks and stented frames, read
 * through withCalcium as the server calls it (the lumen radii from 16 control points included), on
 * the generator's true lumen (so the border detector's time and changes stay out).
 */
import { createCalciumArcDetector } from '../src/domain/calcium/calcium-arc.ts';
import { withCalcium } from '../src/domain/calcium/slice-calcium.ts';
import type { SliceDetection } from '../src/domain/contours/api.ts';
import { createStrutDetector } from '../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { CALCIUM_EVALUATION_KINDS, calciumEvaluationPullback } from '../src/domain/synthetic/calcium-evaluation.ts';
import { catheterCentrePx, truthContours } from '../src/domain/synthetic/contours.ts';
import { createPullbackModel, type PullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { stentCase } from '../src/domain/synthetic/stent-cases.ts';
import { truthMalapposedLines, truthStentFrame, truthStentFrames } from '../src/domain/synthetic/stent-truth.ts';

const PASSES = Number(process.env['SPEED_PASSES'] ?? 5);
const FRAMES_PER_CASE = 12;

interface CaseFrames {
  readonly name: string;
  readonly model: PullbackModel;
  readonly frames: readonly number[];
}

const spread = (indices: readonly number[], count: number): number[] =>
  Array.from({ length: Math.min(count, indices.length) }, (_, i) => indices[Math.floor((i * indices.length) / Math.min(count, indices.length))]!);

function stentFrames(seed: number, malapposed: boolean): CaseFrames {
  const model = stentCase(seed).model;
  const span = truthStentFrames(model)!;
  const inside: number[] = [];
  for (let f = span.first + 30; f <= span.last - 30; f += 3) {
    const truth = truthStentFrame(model, f);
    if (truth !== null && truthMalapposedLines(truth).some((line) => line > 0) === malapposed) inside.push(f);
  }
  return { name: malapposed ? 'malapposed' : 'stented', model, frames: spread(inside, FRAMES_PER_CASE) };
}

function calciumFrames(kind: (typeof CALCIUM_EVALUATION_KINDS)[number], seed: number): CaseFrames {
  const pullback = calciumEvaluationPullback(kind, seed);
  const calcified = pullback.frames.filter((f) => (f.truth?.arcDeg ?? 0) > 0).map((f) => f.frameIndex);
  return { name: kind, model: pullback.model, frames: spread(calcified.length > 0 ? calcified : pullback.frames.map((f) => f.frameIndex), FRAMES_PER_CASE) };
}

const demoModel = (): PullbackModel => createPullbackModel({ seed: 0, frameCount: 3600, frameSizePx: 512, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

function render(c: CaseFrames): Uint8Array[] {
  const renderer = createBmodeRenderer(c.model);
  return c.frames.map((f) => renderer.renderFrame(f));
}

/** This thread's CPU for `work`, in ms. */
function cpuMs(work: () => void): number {
  const start = process.threadCpuUsage();
  work();
  const used = process.threadCpuUsage(start);
  return (used.user + used.system) / 1000;
}

function line(name: string, model: PullbackModel, frames: number, ms: number): string {
  const perFrame = ms / (frames * PASSES);
  return `  ${name.padEnd(22)} ${`${model.frameSizePx} px ${model.pixelSpacingMm} mm`.padEnd(20)} ${String(frames).padStart(4)} frames  ${perFrame.toFixed(3).padStart(7)} ms/frame  ${(1000 / perFrame).toFixed(0).padStart(6)} frames/s per core`;
}

export function strutSpeed(): void {
  const cases: CaseFrames[] = [
    stentFrames(2201, false),
    stentFrames(2202, false),
    stentFrames(2201, true),
    stentFrames(2202, true),
    { ...calciumFrames('extensive', 2201), name: 'calcified' },
    { ...calciumFrames('nodule', 2202), name: 'calcified' },
    { name: 'plain', model: stentCase(2204).model, frames: spread(Array.from({ length: 600 }, (_, i) => i + 20), FRAMES_PER_CASE) },
    { name: 'plain (demo record)', model: demoModel(), frames: spread(Array.from({ length: 3600 }, (_, i) => i), FRAMES_PER_CASE) },
  ];
  console.log(`strut detection (strut-detection.ts: struts and wall bins), ${PASSES} passes over each case's frames, this thread's CPU:`);
  for (const c of cases) {
    const pixels = render(c);
    const centre = catheterCentrePx(c.model);
    const detector = createStrutDetector({ frameWidth: c.model.frameSizePx, frameHeight: c.model.frameSizePx, centreX: centre.x, centreY: centre.y, pixelSpacingMm: c.model.pixelSpacingMm });
    detector.detect(pixels[0]!); // tables and JIT warm up
    const ms = cpuMs(() => {
      for (let pass = 0; pass < PASSES; pass++) for (const frame of pixels) detector.detect(frame);
    });
    console.log(line(c.name, c.model, pixels.length, ms));
  }
}

export function calciumSpeed(): void {
  const cases: CaseFrames[] = [
    ...CALCIUM_EVALUATION_KINDS.map((kind) => calciumFrames(kind, 2201)),
    stentFrames(2202, false),
    { name: 'plain (demo record)', model: demoModel(), frames: spread(Array.from({ length: 3600 }, (_, i) => i), FRAMES_PER_CASE) },
  ];
  console.log(`calcium (withCalcium: lumen radii and calcium-arc.ts), ${PASSES} passes over each case's frames, this thread's CPU:`);
  for (const c of cases) {
    const pixels = render(c);
    const frameBytes = pixels[0]!.length;
    const all = new Uint8Array(frameBytes * pixels.length);
    pixels.forEach((p, i) => all.set(p, i * frameBytes));
    const centre = catheterCentrePx(c.model);
    const detector = createCalciumArcDetector({ frameWidth: c.model.frameSizePx, frameHeight: c.model.frameSizePx, pixelSpacingMm: c.model.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
    const detections: SliceDetection[] = c.frames.map((f) => ({
      controlPoints: truthContours(c.model, f, 16).lumen,
      areaMm2: 0,
      minDiameterMm: 0,
      maxDiameterMm: 0,
      vessel: { controlPoints: [], areaMm2: 0 },
      confidence: 0.9,
      readable: true,
    }));
    withCalcium(detector, detections.slice(0, 1), all, frameBytes, centre); // tables and JIT warm up
    const ms = cpuMs(() => {
      for (let pass = 0; pass < PASSES; pass++) withCalcium(detector, detections, all, frameBytes, centre);
    });
    console.log(line(c.name, c.model, pixels.length, ms));
  }
}

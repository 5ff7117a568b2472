/**
 * The calcium detector's output on a fixed set of generated frames, one digest per case type: what
 * the speed work on calcium (issue 23) must leave bit for bit unchanged. Case types: each kind of the
 * calcium pullbacks (plain, extensive, circumferential, nodule, small-vessel; calcium-evaluation.ts)
 * and stented frames (struts: bright with a narrow shadow, no calcium), each on an evaluation seed.
 *
 * The lumen borders are the generator's truth as the border detector gives them (16 control points,
 * through the smooth curve the review draws), so these digests do not move when the border detector
 * does; each frame is read on that border, on the border shrunk (the detector may put it short of the
 * calcium) and grown (behind it), and through withCalcium as the server calls it, with a readable
 * frame and an unreadable one.
 *
 * A digest is the SHA-256 of the exact bytes of the lumen radii (float32), the arc (arc, start, end,
 * protrusion as float64), the per-ray readings (float32) and the server's calcium fields.
 */
import { createHash } from 'node:crypto';
import type { SliceDetection } from '../../../src/domain/contours/api.ts';
import { createCalciumArcDetector, type CalciumArcDetector } from '../../../src/domain/calcium/calcium-arc.ts';
import { lumenRadiiOf, withCalcium } from '../../../src/domain/calcium/slice-calcium.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { CALCIUM_EVALUATION_KINDS, calciumEvaluationPullback } from '../../../src/domain/synthetic/calcium-evaluation.ts';
import { catheterCentrePx, truthContours } from '../../../src/domain/synthetic/contours.ts';
import type { PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';

export const CALCIUM_CASE_TYPES = [...CALCIUM_EVALUATION_KINDS, 'stented'] as const;
export type CalciumCaseType = (typeof CALCIUM_CASE_TYPES)[number];

/** Control points of a border as the border detector gives them (border-detection.ts DEFAULT_CONTROL_POINTS). */
const CONTROL_POINTS = 16;
/** The border as read, shrunk and grown about the catheter centre. */
const BORDER_SCALES = [1, 0.8, 1.15];

export interface CalciumGoldenFrames {
  readonly model: PullbackModel;
  readonly frames: readonly number[];
}

/** The pullback and frame indices of one case type: calcified frames (widest arcs and a middling one) and one without calcium. */
export function calciumGoldenFrames(type: CalciumCaseType): CalciumGoldenFrames {
  if (type === 'stented') {
    const model = stentCase(2202).model;
    const span = truthStentFrames(model)!;
    return { model, frames: [span.first + 100, Math.round((span.first + span.last) / 2), span.last - 100] };
  }
  const pullback = calciumEvaluationPullback(type, 2201);
  const byArc = [...pullback.frames].sort((a, b) => (b.truth?.arcDeg ?? 0) - (a.truth?.arcDeg ?? 0) || a.frameIndex - b.frameIndex);
  const calcified = byArc.filter((f) => (f.truth?.arcDeg ?? 0) > 0);
  const picks = [calcified[0], calcified[Math.floor(calcified.length / 2)], calcified.at(-1), byArc.at(-1)].filter((f) => f !== undefined);
  return { model: pullback.model, frames: picks.map((f) => f.frameIndex) };
}

export function calciumDetectorFor(model: PullbackModel): CalciumArcDetector {
  const centre = catheterCentrePx(model);
  return createCalciumArcDetector({ frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, pixelSpacingMm: model.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
}

/** The truth lumen as CONTROL_POINTS control points, scaled by `scale` about the catheter centre. */
export function lumenControlPoints(model: PullbackModel, frame: number, scale: number): { x: number; y: number }[] {
  const centre = catheterCentrePx(model);
  return truthContours(model, frame, CONTROL_POINTS).lumen.map((p) => ({ x: centre.x + scale * (p.x - centre.x), y: centre.y + scale * (p.y - centre.y) }));
}

const bytesOf = (values: Float32Array | Float64Array): Uint8Array => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);

function detectionOn(controlPoints: { x: number; y: number }[], readable: boolean): SliceDetection {
  return { controlPoints, areaMm2: 0, minDiameterMm: 0, maxDiameterMm: 0, vessel: { controlPoints: [], areaMm2: 0 }, confidence: readable ? 0.9 : 0, readable };
}

/** The digest of one case type, and how many frames and calcified readings went into it. */
export function calciumGoldenDigest(type: CalciumCaseType): { digest: string; frames: number; calcified: number } {
  const { model, frames } = calciumGoldenFrames(type);
  const centre = catheterCentrePx(model);
  const detector = calciumDetectorFor(model);
  const renderer = createBmodeRenderer(model);
  const hash = createHash('sha256');
  let calcified = 0;
  for (const index of frames) {
    const pixels = renderer.renderFrame(index);
    for (const scale of BORDER_SCALES) {
      const points = lumenControlPoints(model, index, scale);
      const radii = lumenRadiiOf(points, centre.x, centre.y);
      hash.update(radii === null ? 'no radii' : bytesOf(radii));
      const arc = detector.detect(pixels, radii);
      hash.update(arc === null ? 'no arc' : bytesOf(Float64Array.of(arc.arcDeg, arc.startDeg, arc.endDeg, arc.protrusionMm)));
      hash.update(bytesOf(detector.readings.edgeOverShadow));
      hash.update(bytesOf(detector.readings.shadowOverFloor));
      if (arc !== null && arc.arcDeg > 0) calcified++;
    }
    // As the server calls it: a readable frame gets its calcium, an unreadable one none.
    const detections = [detectionOn(lumenControlPoints(model, index, 1), true), detectionOn(lumenControlPoints(model, index, 1), false)];
    const twoFrames = new Uint8Array(2 * pixels.length);
    twoFrames.set(pixels, 0);
    twoFrames.set(pixels, pixels.length);
    hash.update(JSON.stringify(withCalcium(detector, detections, twoFrames, pixels.length, centre).map((d) => d.calcium ?? null)));
  }
  hash.update(String(detector.detect(renderer.renderFrame(frames[0]!), null)));
  return { digest: hash.digest('hex').slice(0, 24), frames: frames.length, calcified };
}

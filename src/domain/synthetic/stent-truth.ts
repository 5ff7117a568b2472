/**
 * What the generator knows of a deployed stent (deployed-stent.ts), frame by frame: the stent border
 * (the curve through the struts' middles), its area, the struts, the stented frames, and the
 * malapposed regions (where the wall lies more than 0.4 mm beyond the stent border) with their arc
 * and length. The stent benches and tests measure the detector against these.
 */
import { crossSectionAt } from './cross-section.ts';
import { catheterCentrePx } from './contours.ts';
import { MALAPPOSITION_THRESHOLD_MM, stentCovers } from './deployed-stent.ts';
import { imagePoint, type ImagePoint } from '../image-point.ts';
import { framePositionMm, type PullbackModel } from './pullback-model.ts';

export const STENT_TRUTH_POINTS = 360;

export interface TruthStentFrame {
  /** Stent radius by display angle (STENT_TRUTH_POINTS of them, from 0 towards +y), in mm. */
  readonly radiiMm: Float64Array;
  /** Lumen radius by the same angles: the wall where the struts are malapposed. */
  readonly lumenRadiiMm: Float64Array;
  readonly areaMm2: number;
  /** Struts: display angle and radius of their middle. */
  readonly struts: readonly { readonly angleRad: number; readonly radiusMm: number }[];
}

/** Truth of the frame, or null where the frame lies outside the stent. */
export function truthStentFrame(model: PullbackModel, frameIndex: number): TruthStentFrame | null {
  const section = crossSectionAt(model, frameIndex);
  const border = section.struts?.borderRadiusMm;
  if (section.struts === null || border === undefined) return null;
  const radiiMm = new Float64Array(STENT_TRUTH_POINTS);
  const lumenRadiiMm = new Float64Array(STENT_TRUTH_POINTS);
  for (let k = 0; k < STENT_TRUTH_POINTS; k++) {
    const scene = section.sceneAngleRad((2 * Math.PI * k) / STENT_TRUTH_POINTS);
    radiiMm[k] = border(scene);
    lumenRadiiMm[k] = section.lumenRadiusMm(scene);
  }
  // Under NURD the display angle differs from the scene angle; the struts are placed at their scene angles.
  const struts = section.struts.anglesRad.map((angleRad) => ({ angleRad, radiusMm: border(angleRad) }));
  return { radiiMm, lumenRadiiMm, areaMm2: polarAreaMm2(radiiMm), struts };
}

/** Area inside a closed curve given by equally spaced radii (a fan of triangles). */
export function polarAreaMm2(radiiMm: ArrayLike<number>): number {
  const n = radiiMm.length;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += radiiMm[k]! * radiiMm[(k + 1) % n]!;
  return 0.5 * Math.sin((2 * Math.PI) / n) * sum;
}

/** The stent border as a closed polygon in image pixels. */
export function truthStentBorder(model: PullbackModel, frameIndex: number): ImagePoint[] | null {
  const truth = truthStentFrame(model, frameIndex);
  if (truth === null) return null;
  const centre = catheterCentrePx(model);
  return Array.from(truth.radiiMm, (r, k) => {
    const angle = (2 * Math.PI * k) / STENT_TRUTH_POINTS;
    const px = r / model.pixelSpacingMm;
    return imagePoint(centre.x + px * Math.cos(angle), centre.y + px * Math.sin(angle));
  });
}

/** The frames the stent covers: first and last (the frame's own z, without the heart's back-and-forth). */
export function truthStentFrames(model: PullbackModel): { readonly first: number; readonly last: number } | null {
  const stent = model.hardCases?.deployedStent;
  if (stent === undefined) return null;
  let first = -1;
  let last = -1;
  for (let f = 0; f < model.frameCount; f++) {
    if (!stentCovers(stent, framePositionMm(model, f))) continue;
    if (first < 0) first = f;
    last = f;
  }
  return first < 0 ? null : { first, last };
}

/** Per frame, which display angles (of STENT_TRUTH_POINTS) have the wall beyond the malapposition threshold. */
export function truthMalapposedLines(truth: TruthStentFrame): Uint8Array {
  const lines = new Uint8Array(STENT_TRUTH_POINTS);
  for (let k = 0; k < STENT_TRUTH_POINTS; k++) lines[k] = truth.lumenRadiiMm[k]! - truth.radiiMm[k]! > MALAPPOSITION_THRESHOLD_MM ? 1 : 0;
  return lines;
}

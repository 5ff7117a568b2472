/**
 * What the generator knows of its calcium (issue 28): per frame the arc in degrees and where it
 * starts and ends, and the pullback's IVUS calcium score with its components, from the very
 * cross-sections the B-mode renderer draws. Calcium detection is measured against these.
 *
 * Angles are in image coordinates around the catheter, degrees in [0, 360): 0 along +x (right),
 * increasing towards +y (down, clockwise on screen); an arc runs from start to end in that sense.
 * Under NURD the image is warped against these scene angles (the calcium cases do not use NURD).
 */
import { crossSectionAt, CALCIUM_EDGE_RAD } from './cross-section.ts';
import { framePositionMm, type PullbackModel } from './pullback-model.ts';

export interface CalciumArcTruth {
  readonly arcDeg: number;
  readonly startDeg: number;
  readonly endDeg: number;
}

/** A frame's calcium, or null where it has none. Arcs narrower than the arc's faded ends are none. */
export function calciumTruthAt(model: PullbackModel, frameIndex: number): CalciumArcTruth | null {
  const arc = crossSectionAt(model, frameIndex).calcium;
  if (arc === null || arc.halfArcRad < CALCIUM_EDGE_RAD / 2) return null;
  const toDeg = (rad: number): number => (((rad * 180) / Math.PI) % 360 + 360) % 360;
  if (arc.halfArcRad >= Math.PI) return { arcDeg: 360, startDeg: 0, endDeg: 0 };
  return {
    arcDeg: (2 * arc.halfArcRad * 180) / Math.PI,
    startDeg: toDeg(arc.centreAngleRad - arc.halfArcRad),
    endDeg: toDeg(arc.centreAngleRad + arc.halfArcRad),
  };
}

/** Whether a calcified nodule stands into the lumen at this frame by at least `minHeightMm`. */
export function noduleTruthAt(model: PullbackModel, frameIndex: number, minHeightMm: number): boolean {
  return (crossSectionAt(model, frameIndex).noduleProtrusionMm ?? 0) >= minHeightMm;
}

/** The true EEM mean diameter (from its area) at a frame. */
export function vesselDiameterTruthMm(model: PullbackModel, frameIndex: number): number {
  const section = crossSectionAt(model, frameIndex);
  const n = 180;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += section.vesselRadiusMm((2 * Math.PI * k) / n) ** 2;
  const areaMm2 = (sum * Math.PI) / n;
  return 2 * Math.sqrt(areaMm2 / Math.PI);
}

/** Position of each listed frame along the pullback (mm), for scoring a subsampled run of frames. */
export function framePositionsMm(model: PullbackModel, frameIndices: readonly number[]): number[] {
  return frameIndices.map((frame) => framePositionMm(model, frame));
}

/**
 * Calcium for a run of detected frames (issue 28): each frame the border detector read gets its
 * calcium arc, found on the lumen border the clinician is shown (the smooth curve through the
 * detection's control points, as the contour tool draws it), so the arc agrees with the border on
 * screen. A frame without a border (not readable) gets no calcium: nothing is measured there.
 */
import type { Point } from '../annotations/manifest.ts';
import type { SliceCalcium, SliceDetection } from '../contours/api.ts';
import { isUnreadable } from '../contours/border-detection.ts';
import { measuredOutline, rayExit } from '../contours/measurements.ts';
import { CALCIUM_RAYS, isNodule, type CalciumArcDetector, type CalciumArc } from './calcium-arc.ts';

/** Radius of the closed border along each of CALCIUM_RAYS rays from the catheter centre, in pixels. */
export function lumenRadiiOf(controlPoints: readonly Point[], centreX: number, centreY: number): Float32Array | null {
  if (controlPoints.length < 3) return null;
  const outline = measuredOutline(controlPoints);
  const radii = new Float32Array(CALCIUM_RAYS);
  for (let a = 0; a < CALCIUM_RAYS; a++) {
    const angle = (2 * Math.PI * a) / CALCIUM_RAYS;
    const radius = rayExit(outline, { x: centreX, y: centreY }, Math.cos(angle), Math.sin(angle));
    // A border that does not surround the catheter centre is no border to read calcium against.
    if (!Number.isFinite(radius)) return null;
    radii[a] = radius;
  }
  return radii;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

export function toSliceCalcium(arc: CalciumArc): SliceCalcium {
  return { arcDeg: round1(arc.arcDeg), startDeg: round1(arc.startDeg), endDeg: round1(arc.endDeg), nodule: isNodule(arc) };
}

/**
 * The detections with their calcium. `frames` are the detections' frames, concatenated (frame i
 * of the run for detection i); the centre is the detector's catheter centre (the frame's middle on the server).
 */
export function withCalcium(
  detector: CalciumArcDetector,
  detections: readonly SliceDetection[],
  frames: Uint8Array,
  frameBytes: number,
  centre: { readonly x: number; readonly y: number },
): SliceDetection[] {
  return detections.map((detection, index) => {
    const unreadable = detection.readable === undefined ? isUnreadable(detection.confidence) : !detection.readable;
    if (unreadable) return detection;
    const radii = lumenRadiiOf(detection.controlPoints, centre.x, centre.y);
    const arc = detector.detect(frames.subarray(index * frameBytes, (index + 1) * frameBytes), radii);
    return arc === null ? detection : { ...detection, calcium: toSliceCalcium(arc) };
  });
}

/**
 * Calcium for a run of detected frames (issue 28): each frame the border detector read gets its
 * calcium arc, found on the lumen border the clinician is shown (the smooth curve through the
 * detection's control points, as the contour tool draws it), so the arc agrees with the border on
 * screen. A frame without a border (not readable) gets no calcium: nothing is measured there.
 */
import type { Point } from '../annotations/manifest.ts';
import type { SliceCalcium, SliceDetection } from '../contours/api.ts';
import { isUnreadable } from '../contours/border-detection.ts';
import { edgeHit, edgeRaySpan, measuredOutline, rayExit } from '../contours/measurements.ts';
import { CALCIUM_RAYS, isNodule, type CalciumArcDetector, type CalciumArc } from './calcium-arc.ts';

/** Radius of the closed border along each of CALCIUM_RAYS rays from the catheter centre, in pixels. */
export function lumenRadiiOf(controlPoints: readonly Point[], centreX: number, centreY: number): Float32Array | null {
  if (controlPoints.length < 3) return null;
  const outline = measuredOutline(controlPoints);
  const centre = { x: centreX, y: centreY };
  const radii = new Float32Array(CALCIUM_RAYS);
  // Each ray tests only the edges it can cross (edgesByRay), not all of the curve's 256: the same
  // nearest crossing to the bit (rayExit's edge test, the minimum over the same finite crossings),
  // and most of the calcium's time before. A curve with a point that is not finite is read as before.
  const byRay = outline.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)) ? edgesByRay(outline, centre) : null;
  for (let a = 0; a < CALCIUM_RAYS; a++) {
    const angle = (2 * Math.PI * a) / CALCIUM_RAYS;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    let radius: number;
    if (byRay === null) radius = rayExit(outline, centre, dx, dy);
    else {
      radius = Infinity;
      for (let e = byRay.start[a]!; e < byRay.start[a + 1]!; e++) {
        const i = byRay.edges[e]!;
        const t = edgeHit(outline[i]!, outline[(i + 1) % outline.length]!, centre, dx, dy);
        if (t < radius) radius = t;
      }
    }
    // A border that does not surround the catheter centre is no border to read calcium against.
    if (!Number.isFinite(radius)) return null;
    radii[a] = radius;
  }
  return radii;
}

/**
 * For each ray, the edges of the outline it could cross (ray a's are edges[start[a]] ..
 * edges[start[a + 1] − 1]), as contours/measurements.ts's edgeRaySpan brackets them; an edge passing
 * (nearly) through the centre may be crossed by any ray and goes to all.
 */
function edgesByRay(outline: readonly Point[], centre: Point): { start: Int32Array; edges: Int32Array } {
  const step = (2 * Math.PI) / CALCIUM_RAYS;
  const first = new Int32Array(outline.length);
  const last = new Int32Array(outline.length);
  const count = new Int32Array(CALCIUM_RAYS + 1);
  for (let i = 0; i < outline.length; i++) {
    const span = edgeRaySpan(outline[i]!, outline[(i + 1) % outline.length]!, centre, step);
    first[i] = span === null ? 0 : span.first;
    last[i] = span === null ? CALCIUM_RAYS - 1 : span.last;
    for (let j = first[i]!; j <= last[i]!; j++) count[(((j % CALCIUM_RAYS) + CALCIUM_RAYS) % CALCIUM_RAYS) + 1]!++;
  }
  for (let a = 0; a < CALCIUM_RAYS; a++) count[a + 1]! += count[a]!;
  const edges = new Int32Array(count[CALCIUM_RAYS]!);
  const fill = count.slice(0, CALCIUM_RAYS);
  for (let i = 0; i < outline.length; i++) {
    for (let j = first[i]!; j <= last[i]!; j++) edges[fill[((j % CALCIUM_RAYS) + CALCIUM_RAYS) % CALCIUM_RAYS]!++] = i;
  }
  return { start: count, edges };
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

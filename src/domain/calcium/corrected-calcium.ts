/**
 * Calcium on the borders the clinician corrected (issue 28). The server read each frame's arc on the
 * detected lumen border; where the clinician has since corrected that border (on the slice, or carried
 * there from a key frame), the arc is read again on the corrected border, from the frame's pixels,
 * by the same detector, so that the band, the score and the exports follow the correction. A frame
 * whose pixels are not at hand keeps its detected arc and is named as such (record-calcium.ts).
 */
import type { Point } from '../annotations/manifest.ts';
import type { SliceCalcium } from '../contours/api.ts';
import type { BorderSource } from '../annotations/contour-set.ts';
import type { CalciumArcDetector } from './calcium-arc.ts';
import { lumenRadiiOf, toSliceCalcium } from './slice-calcium.ts';

/** A slice's lumen border after corrections, as the corrected analysis gives it. */
export interface CorrectedLumen {
  readonly slice: number;
  readonly source: BorderSource | null;
  readonly controlPoints: readonly Point[];
}

/** Whether a lumen border is the clinician's (a key frame, or carried from one) rather than the detector's. */
export const isCorrectedBorder = (source: BorderSource | null | undefined): boolean => source === 'manual' || source === 'propagated';

/** The slices whose lumen border the clinician corrected, in slice order. */
export function correctedLumens(slices: readonly CorrectedLumen[]): CorrectedLumen[] {
  return slices.filter((slice) => isCorrectedBorder(slice.source) && slice.controlPoints.length >= 3);
}

/** What one re-measure of a slice rests on: the same border gives the same arc, so a caller may keep it. */
export function borderKey(controlPoints: readonly Point[]): string {
  return controlPoints.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(';');
}

/**
 * The arc of each corrected slice whose frame `frameAt` gives (gray pixels, frameWidth × frameHeight),
 * read on its corrected border round the catheter centre: null where that border does not surround the
 * centre (nothing to read calcium against). Slices whose frame is not at hand are left out.
 */
export function remeasureCalcium(
  detector: CalciumArcDetector,
  corrected: readonly CorrectedLumen[],
  frameAt: (slice: number) => Uint8Array | null,
  centre: { readonly x: number; readonly y: number },
): Map<number, SliceCalcium | null> {
  const arcs = new Map<number, SliceCalcium | null>();
  for (const { slice, controlPoints } of corrected) {
    const frame = frameAt(slice);
    if (frame === null) continue;
    const radii = lumenRadiiOf(controlPoints, centre.x, centre.y);
    const arc = radii === null ? null : detector.detect(frame, radii);
    arcs.set(slice, arc === null ? null : toSliceCalcium(arc));
  }
  return arcs;
}

/** Slices as short ranges for a line of text: [3, 4, 5, 9] → "3–5, 9". */
export function sliceRanges(slices: readonly number[]): string {
  const sorted = [...slices].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]!;
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1) i++;
    parts.push(first === sorted[i] ? `${first}` : `${first}–${sorted[i]}`);
  }
  return parts.join(', ');
}

/**
 * The pullback's figures on gated frames only (issue 28): the MLA, the references, the area
 * stenosis, the lesion length and the largest plaque burden, searched among the end-diastolic
 * frames, so that cardiac motion (a lumen that shrinks in systole, a transducer that slides back and
 * forth) does not pick a systolic frame as the MLA. Each slice keeps its own measurements; only the
 * choice of frames changes. Pure.
 */
import { analysePullback, findMaxPlaqueBurden } from '../contours/measurements.ts';
import { framesPerMm, type CorrectedAnalysis, type PullbackGeometry } from '../contours/corrected-analysis.ts';

/** `gatedFrames` are 0-based frame indices (slice − 1), as the gating gives them. */
export function gatedAnalysis(result: CorrectedAnalysis, gatedFrames: readonly number[], geometry: PullbackGeometry): CorrectedAnalysis {
  const gated = new Set(gatedFrames);
  const only = (value: number | null, index: number) => (gated.has(index) && value !== null ? value : Number.NaN);
  return {
    ...result,
    analysis: analysePullback(
      result.slices.map((slice, index) => only(slice.areaMm2, index)),
      framesPerMm(geometry),
    ),
    maxPlaqueBurden: findMaxPlaqueBurden(result.slices.map((slice, index) => (slice.bordersCross ? Number.NaN : only(slice.plaqueBurden, index)))),
  };
}

/** The gated frame after (+1) or before (−1) a 1-based slice, as a 1-based slice; null past the last one. */
export function nextGatedSlice(slice: number, gatedFrames: readonly number[], direction: 1 | -1): number | null {
  const slices = gatedFrames.map((f) => f + 1);
  if (direction > 0) return slices.find((s) => s > slice) ?? null;
  return [...slices].reverse().find((s) => s < slice) ?? null;
}

/**
 * The gated L-mode: for every frame's column, the column of the gated frame it falls in (the last
 * end-diastole at or before it; the first before the first one). Drawn so, the L-mode shows only
 * gated frames, each stretched over its cycle along the pullback: no saw-tooth of cardiac motion.
 */
export function gatedColumns(frameCount: number, gatedFrames: readonly number[]): Int32Array {
  const columns = Int32Array.from({ length: frameCount }, (_, i) => i);
  if (gatedFrames.length === 0) return columns;
  let k = 0;
  for (let i = 0; i < frameCount; i++) {
    while (k + 1 < gatedFrames.length && gatedFrames[k + 1]! <= i) k++;
    columns[i] = Math.min(frameCount - 1, gatedFrames[k]!);
  }
  return columns;
}

/**
 * The slices the clinician should check: those whose automatic borders the detector did not trust
 * (confidence below LOW_CONFIDENCE, border-detection.ts). The review lists them, marks them on the
 * pullback plot, and steps through them. Slices are 1-based, as everywhere in the review. Pure.
 */
import { LOW_CONFIDENCE } from './border-detection.ts';

/** The 1-based slices whose confidence is below `threshold`, ascending (slice i + 1 has confidences[i]). */
export function lowConfidenceSlices(confidences: ArrayLike<number>, threshold: number = LOW_CONFIDENCE): number[] {
  const slices: number[] = [];
  for (let i = 0; i < confidences.length; i++) if (confidences[i]! < threshold) slices.push(i + 1);
  return slices;
}

/**
 * The slice to check after (direction 1) or before (direction −1) `current`, from an ascending list;
 * null when there is none that way (the review does not wrap round, so the end of the list shows).
 */
export function nextSliceToCheck(slices: readonly number[], current: number, direction: 1 | -1): number | null {
  if (direction === 1) {
    // Binary search: the first slice after `current`.
    let low = 0;
    let high = slices.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (slices[mid]! <= current) low = mid + 1;
      else high = mid;
    }
    return slices[low] ?? null;
  }
  let low = 0;
  let high = slices.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (slices[mid]! < current) low = mid + 1;
    else high = mid;
  }
  return low > 0 ? slices[low - 1]! : null;
}

/** Runs of consecutive slices in an ascending list, for drawing them as bands rather than one mark each. */
export function sliceRuns(slices: readonly number[]): { first: number; last: number }[] {
  const runs: { first: number; last: number }[] = [];
  for (const slice of slices) {
    const run = runs.at(-1);
    if (run && slice === run.last + 1) run.last = slice;
    else runs.push({ first: slice, last: slice });
  }
  return runs;
}

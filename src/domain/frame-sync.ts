/**
 * Which frame of the angiography run goes with which slice of the pullback: both series span the
 * same pullback, so they are matched proportionally. Used by the review and its service worker for
 * every record, demo or imported. Pure.
 */

/** The angio frame shown with a B-mode slice: both series span the same pullback, proportionally. */
export function angioFrameForSlice(slice: number, bmodeCount: number, angioCount: number): number {
  return Math.min(angioCount - 1, Math.max(0, Math.floor((slice * angioCount) / bmodeCount)));
}

/** The first B-mode slice that maps to an angio frame. */
export function firstSliceForAngioFrame(angioIndex: number, bmodeCount: number, angioCount: number): number {
  return Math.min(bmodeCount - 1, Math.ceil((angioIndex * bmodeCount) / angioCount));
}

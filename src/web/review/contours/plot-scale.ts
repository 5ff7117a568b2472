/**
 * The pullback plot's x axis, shared by everything drawn on it (the plot, the L-mode strip above it,
 * their slice lines) and by every click that reads a slice off it. One mapping both ways: a marker
 * drawn at sliceToX(s) must read back as s when clicked, at any width. (Issue 26: on a laptop a
 * click on the MLA went to another slice, because the click read the pointer's x, a label's width
 * away from the marker's line; markers now move the cursor to their own slice.)
 */

/** Where the plot area lies, in pixels from the left of the element drawn on, and how many slices it spans. */
export interface PlotAxis {
  /** The plot area's left edge. */
  readonly left: number;
  /** The plot area's width. */
  readonly width: number;
  /** Slices along the axis (1..count). */
  readonly count: number;
}

/** x of a 1-based slice: slice 1 at the left edge, the last slice at the right edge. */
export function sliceToX(slice: number, { left, width, count }: PlotAxis): number {
  return left + (count > 1 ? ((slice - 1) / (count - 1)) * width : 0);
}

/** The 1-based slice nearest to x (clamped to 1..count): the inverse of sliceToX. */
export function xToSlice(x: number, { left, width, count }: PlotAxis): number {
  if (count <= 1 || !(width > 0)) return 1;
  const fraction = Math.min(1, Math.max(0, (x - left) / width));
  return Math.round(fraction * (count - 1)) + 1;
}

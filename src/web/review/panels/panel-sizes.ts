import { DEFAULT_PANEL_WIDTHS_PERCENT } from '../../../domain/constants.ts';

/** Panel sizes as set by the user (angio, B-mode, L-mode), in percent of the panels' width. */
export type PanelSizes = readonly [number, number, number];

/** Spec section 2: 30, 45 and 20 percent of the window width until the user sets sizes. */
export const DEFAULT_PANEL_SIZES: PanelSizes = Object.freeze([...DEFAULT_PANEL_WIDTHS_PERCENT] as const);

/** No panel may be dragged narrower than this (percent), so none disappears under a splitter. */
export const MIN_PANEL_PERCENT = 10;

/**
 * Spec section 2: "When panel sizes are set, the B-mode share is the second value minus 5 if that
 * value is below 50, otherwise minus 2." The B-mode panel is laid out at this share, not at the
 * set value: the points it gives up stay free at the end of the row, room for the splitters and
 * the right toolbar, so that the set sizes (which sum to 95 by default) never overflow the window.
 */
export function bmodeShare(sizes: PanelSizes): number {
  const bmode = sizes[1];
  return bmode < 50 ? bmode - 5 : bmode - 2;
}

/**
 * The widths the panels are laid out at (percent): the defaults as they are, set sizes with the
 * B-mode share applied. Sizes are set by moveSplitter, which always makes a new array, so the
 * default array itself means none have been set (sizes dragged back to 30/45/20 are set ones).
 */
export function panelWidths(sizes: PanelSizes): PanelSizes {
  return sizes === DEFAULT_PANEL_SIZES ? sizes : [sizes[0], bmodeShare(sizes), sizes[2]];
}

/**
 * Moves splitter `splitter` (0: between angio and B-mode, 1: between B-mode and L-mode) by
 * `deltaPercent`: the panel before it grows and the one after it shrinks by the same amount,
 * neither below MIN_PANEL_PERCENT.
 */
export function moveSplitter(sizes: PanelSizes, splitter: 0 | 1, deltaPercent: number): PanelSizes {
  const before = sizes[splitter];
  const after = sizes[splitter + 1]!;
  const delta = Math.min(after - MIN_PANEL_PERCENT, Math.max(MIN_PANEL_PERCENT - before, deltaPercent));
  // Whole tenths keep aria-valuenow and the layout free of float noise.
  const round = (value: number) => Math.round(value * 10) / 10;
  const next: [number, number, number] = [...sizes];
  next[splitter] = round(before + delta);
  next[splitter + 1] = round(after - delta);
  return next;
}

/**
 * The widths with the panels a record lacks taken out (issue 26: a missing series collapses its
 * panel): each shown panel gets the missing ones' width in proportion to its own, so an
 * angiography run alone fills the row and a loop without angio splits it between B-mode and L-mode.
 */
export function collapseMissing(widths: PanelSizes, shown: readonly [boolean, boolean, boolean]): PanelSizes {
  const total = widths[0] + widths[1] + widths[2];
  const kept = widths.reduce((sum, width, index) => sum + (shown[index] ? width : 0), 0);
  if (kept === total) return widths;
  const grown = (index: 0 | 1 | 2) => (shown[index] && kept > 0 ? Math.round(((widths[index] * total) / kept) * 10) / 10 : 0);
  return [grown(0), grown(1), grown(2)];
}

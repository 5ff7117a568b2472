/**
 * Where a box (the frame readout, the contour card) goes in the B-mode panel: one of the panel's
 * corners, the first that covers neither a border nor its handles, preferring one outside the
 * circular field of view too (issue 26: the 12 px card in the top-left corner covered the vessel
 * border and a control point on a laptop). Screen pixels, pure.
 */
import { smoothClosedCurve } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { Size } from '../view/view-transform.ts';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Circle {
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
}

export interface Obstacles {
  /** What must never be covered: boxes already placed (the scale bar, the readout). */
  readonly rects: readonly Rect[];
  /** The borders as drawn (their curves and handles): a box keeps `pointPadding` clear of every one. */
  readonly points: readonly Point[];
  readonly pointPadding: number;
  /** The circular field of view: covered only when no corner is clear of it. */
  readonly fieldOfView: Circle | null;
}

/** Space kept between a box and the panel's edge. */
export const PANEL_MARGIN_PX = 8;
/** The corners tried, in order of preference: top-left first, like a console's readout. */
export const CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type Corner = (typeof CORNERS)[number];

function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function meetsCircle(rect: Rect, { cx, cy, r }: Circle): boolean {
  const nearestX = Math.max(rect.x, Math.min(cx, rect.x + rect.width));
  const nearestY = Math.max(rect.y, Math.min(cy, rect.y + rect.height));
  return Math.hypot(nearestX - cx, nearestY - cy) < r;
}

/** How many of the points lie within `padding` of the rectangle. */
function pointsNear(rect: Rect, points: readonly Point[], padding: number): number {
  let count = 0;
  for (const p of points) {
    if (p.x > rect.x - padding && p.x < rect.x + rect.width + padding && p.y > rect.y - padding && p.y < rect.y + rect.height + padding) count++;
  }
  return count;
}

export function cornerRect(corner: Corner, panel: Size, box: Size, margin = PANEL_MARGIN_PX): Rect {
  const left = corner.endsWith('left');
  const top = corner.startsWith('top');
  return {
    x: left ? margin : panel.width - margin - box.width,
    y: top ? margin : panel.height - margin - box.height,
    width: box.width,
    height: box.height,
  };
}

export interface Placement {
  readonly corner: Corner;
  readonly rect: Rect;
  /** It covers a border, a handle or a box: no corner was clear of them all. */
  readonly covers: boolean;
  /** How much it covers (border points plus box area): the least covering placement wins. */
  readonly covered: number;
  /** Its rank, lower is better: 0 clear of everything, 1 clear but over the field of view, 2 + covered. */
  readonly rank: number;
}

/**
 * The corner for a box of `size`: clear of every obstacle and of the field of view if one is, else
 * clear of every obstacle, else the one covering the least of them. `corners` limits the choice.
 */
export function placeBox(panel: Size, size: Size, obstacles: Obstacles, corners: readonly Corner[] = CORNERS): Placement {
  let best: { placement: Placement; score: number } | null = null;
  for (const corner of corners) {
    const rect = cornerRect(corner, panel, size);
    const covered = obstacles.rects.reduce((sum, obstacle) => sum + overlapArea(rect, obstacle), 0) + pointsNear(rect, obstacles.points, obstacles.pointPadding);
    // Covering a border always costs more than entering the field of view.
    const score = covered > 0 ? 2 + covered : obstacles.fieldOfView && meetsCircle(rect, obstacles.fieldOfView) ? 1 : 0;
    if (best === null || score < best.score) best = { placement: { corner, rect, covers: covered > 0, covered, rank: score }, score };
  }
  return best!.placement;
}

/** Beyond a handle's radius and stroke. */
const BORDER_PADDING_PX = 8;

/**
 * What a box in the B-mode panel keeps clear of: the borders as drawn, through their control
 * points (screen), with their handles; what else is already there (the scale bar); and, where it
 * can, the circular field of view (the circle inscribed in the frame, whose corners hold no image).
 */
export function frameObstacles(borders: readonly (readonly Point[])[], fieldOfView: Circle | null, others: readonly Rect[]): Obstacles {
  const points = borders.flatMap((controlPoints) => (controlPoints.length >= 3 ? [...controlPoints, ...smoothClosedCurve(controlPoints)] : controlPoints));
  return { rects: others, points, pointPadding: BORDER_PADDING_PX, fieldOfView };
}

/** How far the cut handle's focus ring (2 px outline, 2 px offset) reaches beyond the handle. */
const FOCUS_RING_PX = 4;

/**
 * The L-mode cut line's handle on the B-mode (its centre on screen and its diameter), with its focus
 * ring, as a box to keep clear of: a readout or a card over it would hide the handle that turns the
 * L-mode's cut, and take the presses meant for it.
 */
export function cutHandleRect(centre: Point, sizePx: number): Rect {
  const half = sizePx / 2 + FOCUS_RING_PX;
  return { x: centre.x - half, y: centre.y - half, width: 2 * half, height: 2 * half };
}

/**
 * Where the annotation cards go on the panel (issue 26, item 7): never over a handle (an
 * annotation's, a contour control point, the L-mode cut line's), a lumen or vessel border line, or
 * a box already on the frame (the figures readout, the contour card, the scale bar), so that a card
 * never hides the point the clinician means to drag or the border being judged, and never out of
 * the panel. Pure screen-space geometry (CSS pixels of the panel), tested without a browser;
 * label-cards.tsx measures the cards and the panel and places them with it.
 */
export interface ScreenSize {
  width: number;
  height: number;
}

export interface ScreenRect extends ScreenSize {
  /** Top-left corner. */
  x: number;
  y: number;
}

/** A handle as drawn: its centre and the radius of its circle (stroke included). */
export interface HandleCircle {
  x: number;
  y: number;
  radius: number;
}

export interface LabelToPlace {
  id: string;
  /** The point the card describes (screen pixels). */
  anchor: { x: number; y: number };
  size: ScreenSize;
}

/** What a card keeps clear of, besides the cards placed before it. */
export interface LabelObstacles {
  readonly handles: readonly HandleCircle[];
  /** Lines drawn on the frame (the borders), each a closed polyline of screen points. */
  readonly lines: readonly (readonly { x: number; y: number }[])[];
  /** Boxes already on the frame. */
  readonly boxes: readonly ScreenRect[];
}

/** Room kept between a card and a handle, so the handle stays easy to grab beside the card. */
export const HANDLE_CLEARANCE_PX = 3;
/** Room kept between a card and a border line: half its 2 px stroke and a little more, so the line stays visible beside the card. */
export const LINE_CLEARANCE_PX = 3;
/** How far a card stands off its anchor. */
const GAP_PX = 10;
/** The first place tried is the one cards always had: right of the anchor, a little above it. */
const DEFAULT_RISE_PX = 12;
/** Rings of candidates further out, tried when every nearer place is taken. */
const RINGS = [1, 2, 3.5, 5];

/**
 * The card's top-left corners to try, nearest first: right of the anchor (as before), then below
 * and above on the right, the same on the left, then straight above and below; the same again
 * further out.
 */
export function candidatePositions(anchor: { x: number; y: number }, size: ScreenSize): { x: number; y: number }[] {
  const { width: w, height: h } = size;
  const positions: { x: number; y: number }[] = [];
  for (const ring of RINGS) {
    const g = GAP_PX * ring;
    const offsets = [
      [g, -DEFAULT_RISE_PX * ring],
      [g, g],
      [g, -h - g],
      [-g - w, -DEFAULT_RISE_PX * ring],
      [-g - w, g],
      [-g - w, -h - g],
      [-w / 2, -h - g],
      [-w / 2, g],
    ] as const;
    for (const [dx, dy] of offsets) positions.push({ x: anchor.x + dx, y: anchor.y + dy });
  }
  return positions;
}

function rectHitsCircle(rect: ScreenRect, circle: HandleCircle, clearance: number): boolean {
  const nearestX = Math.max(rect.x, Math.min(circle.x, rect.x + rect.width));
  const nearestY = Math.max(rect.y, Math.min(circle.y, rect.y + rect.height));
  return Math.hypot(circle.x - nearestX, circle.y - nearestY) < circle.radius + clearance;
}

function overlapArea(a: ScreenRect, b: ScreenRect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The length of the segment a–b inside the rectangle (Liang–Barsky clipping). */
function lengthInside(rect: ScreenRect, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, a.x - rect.x],
    [dx, rect.x + rect.width - a.x],
    [-dy, a.y - rect.y],
    [dy, rect.y + rect.height - a.y],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return 0;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return 0;
    }
  }
  return (t1 - t0) * Math.hypot(dx, dy);
}

/** How much of the closed polyline lies within the rectangle (in px of line). */
function lineCovered(rect: ScreenRect, line: readonly { x: number; y: number }[]): number {
  let length = 0;
  for (let i = 0; i < line.length; i++) length += lengthInside(rect, line[i]!, line[(i + 1) % line.length]!);
  return length;
}

/**
 * What a card at `rect` covers, worst first: handles (a hidden handle cannot be grabbed), then
 * area of boxes and cards (hidden text), then length of border line (a hidden piece of border).
 */
function coverage(rect: ScreenRect, obstacles: LabelObstacles, placed: readonly ScreenRect[]): [number, number, number] {
  const handles = obstacles.handles.filter((handle) => rectHitsCircle(rect, handle, HANDLE_CLEARANCE_PX)).length;
  const boxes = [...obstacles.boxes, ...placed].reduce((sum, box) => sum + overlapArea(rect, box), 0);
  const padded = { x: rect.x - LINE_CLEARANCE_PX, y: rect.y - LINE_CLEARANCE_PX, width: rect.width + 2 * LINE_CLEARANCE_PX, height: rect.height + 2 * LINE_CLEARANCE_PX };
  const lines = obstacles.lines.reduce((sum, line) => sum + lineCovered(padded, line), 0);
  return [handles, boxes, lines];
}

const lessThan = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** Inside the panel; a panel not measured yet (0 × 0) bounds nothing. */
function inPanel(rect: ScreenRect, panel: ScreenSize): boolean {
  if (panel.width <= 0 || panel.height <= 0) return true;
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= panel.width && rect.y + rect.height <= panel.height;
}

function clampToPanel(rect: ScreenRect, panel: ScreenSize): ScreenRect {
  if (panel.width <= 0 || panel.height <= 0) return rect;
  return {
    ...rect,
    x: Math.max(0, Math.min(rect.x, panel.width - rect.width)),
    y: Math.max(0, Math.min(rect.y, panel.height - rect.height)),
  };
}

/** Nothing in the way: a card only keeps clear of the cards placed before it. */
export const NO_OBSTACLES: LabelObstacles = { handles: [], lines: [], boxes: [] };

/**
 * One card: the first candidate inside the panel that covers no handle, no border line, no box and
 * no card already placed. When every candidate covers something, the one covering least (fewest
 * handles, then least box area, then least border length; the nearer on a tie). Candidates are
 * moved into the panel when none fits in it as it is.
 */
export function placeLabel(label: LabelToPlace, obstacles: LabelObstacles, placed: readonly ScreenRect[], panel: ScreenSize): ScreenRect {
  const rects = candidatePositions(label.anchor, label.size).map((p) => ({ ...p, ...label.size }));
  const inside = rects.filter((rect) => inPanel(rect, panel));
  const candidates = inside.length > 0 ? inside : rects.map((rect) => clampToPanel(rect, panel));
  let best: { rect: ScreenRect; covered: [number, number, number] } | null = null;
  for (const rect of candidates) {
    const covered = coverage(rect, obstacles, placed);
    if (covered.every((amount) => amount === 0)) return rect;
    if (best === null || lessThan(covered, best.covered)) best = { rect, covered };
  }
  return best!.rect;
}

/** Every card of the slice, in drawing order: each one placed avoids the obstacles and the cards placed before it. */
export function placeLabels(labels: readonly LabelToPlace[], obstacles: LabelObstacles, panel: ScreenSize): Map<string, ScreenRect> {
  const placements = new Map<string, ScreenRect>();
  for (const label of labels) placements.set(label.id, placeLabel(label, obstacles, [...placements.values()], panel));
  return placements;
}

/**
 * Where the annotation cards go on the panel (issue 26, item 7): never over a handle of any
 * annotation on the slice, so that a card never hides the point the clinician means to drag, and
 * never out of the panel. Pure screen-space geometry (CSS pixels of the panel), tested without a
 * browser; label-cards.tsx measures the cards and the panel and places them with it.
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

/** Room kept between a card and a handle, so the handle stays easy to grab beside the card. */
export const HANDLE_CLEARANCE_PX = 3;
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

function rectsOverlap(a: ScreenRect, b: ScreenRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

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

/**
 * One card: the first candidate inside the panel that covers no handle and no card already
 * placed. When every candidate covers something, the first that at least covers no handle, then
 * the first inside the panel; the default place, moved into the panel, if nothing else fits.
 */
export function placeLabel(label: LabelToPlace, handles: readonly HandleCircle[], placed: readonly ScreenRect[], panel: ScreenSize): ScreenRect {
  const rects = candidatePositions(label.anchor, label.size).map((p) => ({ ...p, ...label.size }));
  const clearOfHandles = (rect: ScreenRect) => handles.every((handle) => !rectHitsCircle(rect, handle, HANDLE_CLEARANCE_PX));
  const clearOfCards = (rect: ScreenRect) => placed.every((other) => !rectsOverlap(rect, other));
  const inside = rects.filter((rect) => inPanel(rect, panel));
  return (
    inside.find((rect) => clearOfHandles(rect) && clearOfCards(rect)) ??
    inside.find(clearOfHandles) ??
    inside[0] ??
    clampToPanel(rects[0]!, panel)
  );
}

/** Every card of the slice, in drawing order: each one placed avoids the handles and the cards placed before it. */
export function placeLabels(labels: readonly LabelToPlace[], handles: readonly HandleCircle[], panel: ScreenSize): Map<string, ScreenRect> {
  const placements = new Map<string, ScreenRect>();
  for (const label of labels) placements.set(label.id, placeLabel(label, handles, [...placements.values()], panel));
  return placements;
}

/**
 * What an ultrasound loop's pixels say it is (issue 26): an IVUS catheter makes a circular image
 * centred in the frame, dark at the corners, with the catheter's ring-down (a small bright ring at
 * the centre that stays put while the vessel moves); a phased-array (echo) or convex (obstetric)
 * probe makes a fan that widens away from its apex; a linear (vascular) probe makes a rectangle.
 *
 * Bounded and safe on any input: the frames are averaged over a grid of at most GRID x GRID cells,
 * each from at most CELL_SAMPLES x CELL_SAMPLES pixels, and the ring-down is read on a fixed polar
 * grid, so the work does not grow with the frame's size. Integer arithmetic only (the trigonometry
 * is a table of integers), so no NaN can appear whatever the dimensions or values.
 */

export type FieldOfViewShape = 'circle' | 'fan' | 'rectangle' | 'unclear';

export interface FieldOfView {
  readonly shape: FieldOfViewShape;
  /** A centred circle with a bright ring at its centre, in the same place on every frame looked at. */
  readonly ringDown: boolean;
}

/** Decoded 8-bit gray frames of one series (each rows x columns, row-major). */
export interface GrayFrames {
  readonly rows: number;
  readonly columns: number;
  readonly frames: readonly Uint8Array[];
}

const GRID = 64;
const CELL_SAMPLES = 4;
/** A cell is signal above this mean (of 255), or a fifth of the bright cells' level if higher. */
const MIN_SIGNAL = 12;
const ANGLES = 32;
const RADII = 24;
/** The polar grid reaches this fraction (in 1/100) of the field's radius; the ring-down lies well inside. */
const POLAR_REACH = 60;
/** The ring-down is looked for inside this fraction (1/100) of the radius: catheters are about 1 mm across a field of 6–10 mm. */
const RING_ZONE = 30;

/** cos and sin of ANGLES angles, times 1024. */
const COS = Array.from({ length: ANGLES }, (_, a) => Math.round(1024 * Math.cos((2 * Math.PI * a) / ANGLES)));
const SIN = Array.from({ length: ANGLES }, (_, a) => Math.round(1024 * Math.sin((2 * Math.PI * a) / ANGLES)));

const UNCLEAR: FieldOfView = { shape: 'unclear', ringDown: false };

type Grid = { width: number; height: number; cells: Int32Array };

/** The frames' mean over a grid of cells, each the mean of a few evenly spread pixels. */
function meanGrid({ rows, columns, frames }: GrayFrames): Grid {
  const width = Math.min(GRID, columns);
  const height = Math.min(GRID, rows);
  const cells = new Int32Array(width * height);
  for (let gy = 0; gy < height; gy++) {
    const y0 = Math.floor((gy * rows) / height);
    const y1 = Math.floor(((gy + 1) * rows) / height);
    const stepY = Math.max(1, Math.floor((y1 - y0) / CELL_SAMPLES));
    for (let gx = 0; gx < width; gx++) {
      const x0 = Math.floor((gx * columns) / width);
      const x1 = Math.floor(((gx + 1) * columns) / width);
      const stepX = Math.max(1, Math.floor((x1 - x0) / CELL_SAMPLES));
      let sum = 0;
      let count = 0;
      for (const frame of frames) {
        for (let y = y0; y < y1; y += stepY) {
          for (let x = x0; x < x1; x += stepX) {
            sum += frame[y * columns + x]!;
            count++;
          }
        }
      }
      cells[gy * width + gx] = count === 0 ? 0 : Math.floor(sum / count);
    }
  }
  return { width, height, cells };
}

/** The signal level: MIN_SIGNAL, or a fifth of the 90th percentile of the cells when that is higher. */
function signalThreshold(cells: Int32Array): number {
  const sorted = Int32Array.from(cells).sort();
  return Math.max(MIN_SIGNAL, Math.floor(sorted[Math.floor((sorted.length * 9) / 10)]! / 5));
}

/** The largest 4-connected set of signal cells (text and ECG traces in the margins are left out). */
function largestRegion({ width, height, cells }: Grid, threshold: number): Uint8Array {
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  let best = 0;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < cells.length; start++) {
    if (cells[start]! <= threshold || label[start] !== 0) continue;
    next++;
    let size = 0;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    while (top > 0) {
      const at = stack[--top]!;
      size++;
      const x = at % width;
      const neighbours = [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width];
      for (const n of neighbours) {
        if (n < 0 || n >= cells.length || label[n] !== 0 || cells[n]! <= threshold) continue;
        label[n] = next;
        stack[top++] = n;
      }
    }
    if (size > bestSize) [best, bestSize] = [next, size];
  }
  return Uint8Array.from(label, (l) => (l === best && best !== 0 ? 1 : 0));
}

/** The region's bounding box, and the span (leftmost to rightmost cell) of each of its rows: a dark lumen inside a circle does not narrow it. */
type Region = { x0: number; x1: number; y0: number; y1: number; area: number; widths: Int32Array };

function regionOf(mask: Uint8Array, width: number, height: number): Region | null {
  let [x0, x1, y0, y1, area] = [width, -1, height, -1, 0];
  const widths = new Int32Array(height);
  for (let y = 0; y < height; y++) {
    let left = -1;
    let right = -1;
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      if (left < 0) left = x;
      right = x;
    }
    if (left < 0) continue;
    widths[y] = right - left + 1;
    area += right - left + 1;
    x0 = Math.min(x0, left);
    x1 = Math.max(x1, right);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return area === 0 ? null : { x0, x1, y0, y1, area, widths };
}

/** The mean width (in cells) of the region's rows between two fractions (1/100) of its height. */
function bandWidth(region: Region, from: number, to: number): number {
  const height = region.y1 - region.y0 + 1;
  const start = region.y0 + Math.floor((height * from) / 100);
  const end = Math.max(start + 1, region.y0 + Math.floor((height * to) / 100));
  let sum = 0;
  for (let y = start; y < end; y++) sum += region.widths[y] ?? 0;
  return Math.floor((sum * 16) / (end - start));
}

/** The shape of the region in the grid, and where (in pixels) a circle's centre and radius are. */
function shapeOf(grid: Grid, region: Region, frames: GrayFrames, threshold: number): { shape: FieldOfViewShape; cx: number; cy: number; radius: number } {
  const { width, height, cells } = grid;
  const boxW = region.x1 - region.x0 + 1;
  const boxH = region.y1 - region.y0 + 1;
  const none = { shape: 'unclear' as const, cx: 0, cy: 0, radius: 0 };
  // A region of less than a twentieth of the frame, or a grid too coarse to see a shape, says nothing.
  if (region.area * 20 < width * height || boxW < 8 || boxH < 8) return none;
  const top = bandWidth(region, 0, 20);
  const middle = bandWidth(region, 40, 60);
  const bottom = bandWidth(region, 80, 100);
  const fillPercent = Math.floor((region.area * 100) / (boxW * boxH));
  if (fillPercent >= 88 && top * 100 >= middle * 85 && bottom * 100 >= middle * 85) return { ...none, shape: 'rectangle' };
  // A fan is narrow at its apex (the top, or the bottom on a flipped display) and wide across the
  // far field; its far edge is an arc, so its widest rows may be above its bottom ones.
  const fromApex = (apex: number, far: number) => apex * 100 < far * 70 && apex * 100 < middle * 70;
  if (fromApex(top, bottom) || fromApex(bottom, top)) return { ...none, shape: 'fan' };
  // A centred circle: round in pixels, as wide at the top as at the bottom and widest between, its centre near the frame's, the corners dark.
  const boxWPx = Math.floor((boxW * frames.columns) / width);
  const boxHPx = Math.floor((boxH * frames.rows) / height);
  const cx = Math.floor(((region.x0 + region.x1 + 1) * frames.columns) / (2 * width));
  const cy = Math.floor(((region.y0 + region.y1 + 1) * frames.rows) / (2 * height));
  const round = boxWPx * 100 >= boxHPx * 80 && boxHPx * 100 >= boxWPx * 80;
  const bulging = top * 100 < middle * 80 && bottom * 100 < middle * 80 && top * 100 >= bottom * 70 && bottom * 100 >= top * 70;
  const centred = Math.abs(2 * cx - frames.columns) * 100 <= frames.columns * 30 && Math.abs(2 * cy - frames.rows) * 100 <= frames.rows * 30;
  const corners = [0, width - 1, (height - 1) * width, height * width - 1];
  const darkCorners = corners.every((c) => cells[c]! <= threshold);
  if (round && bulging && centred && darkCorners && fillPercent >= 60 && fillPercent <= 92) {
    return { shape: 'circle', cx, cy, radius: Math.floor((boxWPx + boxHPx) / 4) };
  }
  return none;
}

/** Mean gray of each polar ring (RADII of them out to POLAR_REACH of the radius), whole and per quadrant, for one frame. */
function polarProfile(frame: Uint8Array, frames: GrayFrames, cx: number, cy: number, radius: number): { whole: Int32Array; quadrants: Int32Array[] } {
  const whole = new Int32Array(RADII);
  const quadrants = [0, 1, 2, 3].map(() => new Int32Array(RADII));
  const reach = Math.floor((radius * POLAR_REACH) / 100);
  for (let k = 0; k < RADII; k++) {
    const r = Math.floor((reach * k) / RADII);
    let sum = 0;
    const quarter = [0, 0, 0, 0];
    for (let a = 0; a < ANGLES; a++) {
      const x = Math.min(frames.columns - 1, Math.max(0, cx + Math.trunc((r * COS[a]!) / 1024)));
      const y = Math.min(frames.rows - 1, Math.max(0, cy + Math.trunc((r * SIN[a]!) / 1024)));
      const value = frame[y * frames.columns + x]!;
      sum += value;
      quarter[Math.floor((a * 4) / ANGLES)]! += value;
    }
    whole[k] = Math.floor(sum / ANGLES);
    for (let q = 0; q < 4; q++) quadrants[q]![k] = Math.floor((quarter[q]! * 4) / ANGLES);
  }
  return { whole, quadrants };
}

/**
 * A catheter ring-down: inside the inner RING_ZONE of the radius, a ring brighter (by half again,
 * and at least 48 of 255) than the lumen just outside it, bright all the way round, and at the same
 * radius and as bright on every frame looked at (the vessel moves, the catheter's echo does not).
 */
function hasRingDown(frames: GrayFrames, cx: number, cy: number, radius: number): boolean {
  if (frames.frames.length < 2 || radius < 16) return false;
  const profiles = frames.frames.map((f) => polarProfile(f, frames, cx, cy, radius));
  const mean = new Int32Array(RADII);
  for (const p of profiles) for (let k = 0; k < RADII; k++) mean[k]! += p.whole[k]!;
  for (let k = 0; k < RADII; k++) mean[k] = Math.floor(mean[k]! / profiles.length);
  const zone = Math.max(2, Math.floor((RADII * RING_ZONE) / POLAR_REACH));
  let peak = 0;
  for (let k = 1; k < zone; k++) if (mean[k]! > mean[peak]!) peak = k;
  const level = mean[peak]!;
  let lumen = 255;
  for (let k = peak + 1; k < Math.min(RADII, peak + 1 + zone); k++) lumen = Math.min(lumen, mean[k]!);
  if (level < 48 || level * 2 < lumen * 3) return false;
  return profiles.every((p) => {
    let own = 0;
    for (let k = 0; k < zone; k++) if (p.whole[k]! > p.whole[own]!) own = k;
    const still = Math.abs(own - peak) <= 1 && p.whole[peak]! * 10 >= level * 7;
    const allRound = p.quadrants.every((q) => Math.max(q[peak]!, q[own]!) * 10 >= level * 6);
    return still && allRound;
  });
}

/** The field of view of a few frames of one series (see the module comment). */
export function fieldOfView(frames: GrayFrames): FieldOfView {
  const { rows, columns } = frames;
  if (!Number.isSafeInteger(rows) || !Number.isSafeInteger(columns) || rows < 16 || columns < 16 || frames.frames.length === 0) return UNCLEAR;
  if (frames.frames.some((f) => f.length < rows * columns)) return UNCLEAR;
  const grid = meanGrid(frames);
  const threshold = signalThreshold(grid.cells);
  const region = regionOf(largestRegion(grid, threshold), grid.width, grid.height);
  if (!region) return UNCLEAR;
  const { shape, cx, cy, radius } = shapeOf(grid, region, frames, threshold);
  return { shape, ringDown: shape === 'circle' && hasRingDown(frames, cx, cy, radius) };
}

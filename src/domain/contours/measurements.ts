/**
 * Lumen and vessel measurements of one slice and of a whole pullback, as in the IVUS consensus
 * documents (lumen area, minimum and maximum lumen diameter through the centroid, eccentricity,
 * vessel (EEM) area, plaque + media area and plaque burden, minimal lumen area, reference segments,
 * area stenosis, maximal plaque burden). Contours are in image pixels; results are in millimetres.
 *
 * A contour is given by its control points and measured on the smooth closed curve the contour tool
 * draws through them (centripetal Catmull-Rom, annotations/curves.ts), so what is shown and what is
 * measured agree. A dense polygon (hundreds of points) can be passed as well: the curve through it
 * is the polygon itself, to within a fraction of a pixel.
 */
import { smoothClosedCurve } from '../annotations/curves.ts';
import type { Point } from '../annotations/manifest.ts';
import { shoelaceArea, signedShoelaceArea } from '../annotations/measurements.ts';

/** Directions of the diameter search through the centroid: one per degree over a half turn. */
const DIAMETER_DIRECTIONS = 180;
/** The reference segments lie within this distance of the minimal lumen area, on each side. */
export const REFERENCE_WINDOW_MM = 10;

/**
 * The closed polygon actually measured: the drawn curve through 3 or more control points, sampled
 * like every other smooth curve (curves.ts: CURVE_SAMPLES_PER_SEGMENT).
 */
export function measuredOutline(points: readonly Point[]): Point[] {
  if (points.length < 3) return points.map(({ x, y }) => ({ x, y }));
  // Dense input is measured as it is: the spline through it adds nothing but time.
  return points.length >= 64 ? points.map(({ x, y }) => ({ x, y })) : smoothClosedCurve(points);
}

/**
 * Lumen area in mm²: the shoelace area of the drawn curve, A = ½ |Σ (x_i y_{i+1} − x_{i+1} y_i)|,
 * in px², times the pixel spacing squared. 0 under 3 points. Not rounded.
 */
export function lumenAreaMm2(points: readonly Point[], pixelSpacingMm: number): number {
  if (points.length < 3) return 0;
  return shoelaceArea(measuredOutline(points)) * pixelSpacingMm * pixelSpacingMm;
}

/**
 * Area centroid of a closed polygon:
 *   C_x = Σ (x_i + x_{i+1}) (x_i y_{i+1} − x_{i+1} y_i) / (6 A),  C_y likewise with y,
 * A the signed area. A degenerate (zero-area) polygon gives the mean of its vertices.
 */
export function polygonCentroid(polygon: readonly Point[]): Point {
  const area = signedShoelaceArea(polygon);
  if (polygon.length === 0) return { x: 0, y: 0 };
  // Zero to rounding: twice the area under 1e-12 px².
  if (Math.abs(area) < 0.5e-12) {
    const sum = polygon.reduce((s, p) => ({ x: s.x + p.x, y: s.y + p.y }), { x: 0, y: 0 });
    return { x: sum.x / polygon.length, y: sum.y / polygon.length };
  }
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    const cross = a.x * b.y - b.x * a.y;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  return { x: cx / (6 * area), y: cy / (6 * area) };
}

/**
 * Distance from `origin` along the unit direction (dx, dy) to the edge P + s (Q − P), s ∈ [0, 1),
 * solved against origin + t (dx, dy), t > 0, by Cramer's rule; Infinity if the ray misses it.
 */
export function edgeHit(p: Point, q: Point, origin: Point, dx: number, dy: number): number {
  const ex = q.x - p.x;
  const ey = q.y - p.y;
  const denominator = ex * dy - ey * dx;
  if (denominator === 0) return Infinity;
  const wx = p.x - origin.x;
  const wy = p.y - origin.y;
  const s = (dx * wy - dy * wx) / denominator;
  if (s < 0 || s >= 1) return Infinity;
  const t = (ex * wy - ey * wx) / denominator;
  return t > 0 ? t : Infinity;
}

/**
 * Distance from `origin` along the unit direction (dx, dy) to the nearest crossing of the polygon's
 * edges, or Infinity if the ray meets none.
 */
export function rayExit(polygon: readonly Point[], origin: Point, dx: number, dy: number): number {
  let nearest = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const t = edgeHit(polygon[i]!, polygon[(i + 1) % polygon.length]!, origin, dx, dy);
    if (t < nearest) nearest = t;
  }
  return nearest;
}

/** Angular slack (radians) when sorting edges into rays: far above rounding, far below the 1° between rays. */
const RAY_SLACK = 1e-6;

/**
 * The rays (index j: direction j·step, not wrapped) the outline edge P→Q could cross, seen from
 * `centre`: those its endpoints bracket with RAY_SLACK to spare (an edge not through the centre
 * subtends less than a half turn); null if it passes (nearly) through the centre, when any ray may.
 */
export function edgeRaySpan(p: Point, q: Point, centre: Point, step: number): { first: number; last: number } | null {
  const a = Math.atan2(p.y - centre.y, p.x - centre.x);
  let span = Math.atan2(q.y - centre.y, q.x - centre.x) - a;
  if (span > Math.PI) span -= 2 * Math.PI;
  if (span <= -Math.PI) span += 2 * Math.PI;
  const throughCentre = Math.abs(span) > Math.PI - 1e-3 || Math.hypot(p.x - centre.x, p.y - centre.y) < 1e-9 || Math.hypot(q.x - centre.x, q.y - centre.y) < 1e-9;
  if (throughCentre) return null;
  return { first: Math.ceil((Math.min(a, a + span) - RAY_SLACK) / step), last: Math.floor((Math.max(a, a + span) + RAY_SLACK) / step) };
}

/**
 * For each of the 2 · DIAMETER_DIRECTIONS rays from `centre` (ray j at πj / DIAMETER_DIRECTIONS),
 * the edges of the outline it could cross: those whose endpoints, seen from the centre, bracket the
 * ray's direction (an edge not through the centre subtends less than a half turn). An edge passing
 * (nearly) through the centre may be crossed by any ray and goes to all. A ray then tests a few edges
 * instead of every one: the same nearest crossing, bit for bit, some 30 times faster on a 256-edge curve.
 */
function edgesByRay(outline: readonly Point[], centre: Point): number[][] {
  const rays = 2 * DIAMETER_DIRECTIONS;
  const step = Math.PI / DIAMETER_DIRECTIONS;
  const lists: number[][] = Array.from({ length: rays }, () => []);
  for (let i = 0; i < outline.length; i++) {
    const span = edgeRaySpan(outline[i]!, outline[(i + 1) % outline.length]!, centre, step);
    if (span === null) {
      for (const list of lists) list.push(i);
      continue;
    }
    const { first, last } = span;
    for (let j = first; j <= last; j++) lists[((j % rays) + rays) % rays]!.push(i);
  }
  return lists;
}

export interface Diameters {
  readonly min: number;
  readonly max: number;
}

/**
 * Minimum and maximum lumen diameter through the centroid, in mm: for each direction φ (one per
 * degree over a half turn) the chord through the centroid C is d(φ) = t₊(φ) + t₋(φ), the distances
 * from C to the contour along +φ and −φ (nearest crossing each way, so the chord stays inside the
 * lumen); min and max of d over φ, times the pixel spacing. Both 0 under 3 points.
 */
export function diametersThroughCentroid(points: readonly Point[], pixelSpacingMm: number): Diameters {
  if (points.length < 3) return { min: 0, max: 0 };
  const outline = measuredOutline(points);
  const centre = polygonCentroid(outline);
  const candidates = edgesByRay(outline, centre);
  // rayExit over the edges the ray could cross only (edgesByRay): the same nearest crossing.
  const exit = (ray: number, dx: number, dy: number) => {
    let nearest = Infinity;
    for (const i of candidates[ray]!) {
      const t = edgeHit(outline[i]!, outline[(i + 1) % outline.length]!, centre, dx, dy);
      if (t < nearest) nearest = t;
    }
    return nearest;
  };
  let min = Infinity;
  let max = 0;
  for (let k = 0; k < DIAMETER_DIRECTIONS; k++) {
    const angle = (Math.PI * k) / DIAMETER_DIRECTIONS;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    const chord = exit(k, dx, dy) + exit(k + DIAMETER_DIRECTIONS, -dx, -dy);
    if (!Number.isFinite(chord)) continue;
    if (chord < min) min = chord;
    if (chord > max) max = chord;
  }
  if (!Number.isFinite(min)) return { min: 0, max: 0 };
  return { min: min * pixelSpacingMm, max: max * pixelSpacingMm };
}

/**
 * Lumen eccentricity as the IVUS consensus defines it: (D_max − D_min) / D_max, 0 for a circle and
 * approaching 1 for a slit. 0 when there is no diameter.
 */
export function eccentricity(diameters: Diameters): number {
  return diameters.max > 0 ? (diameters.max - diameters.min) / diameters.max : 0;
}

export interface SliceArea {
  /** Index into the areas (0-based frame index). */
  readonly index: number;
  readonly areaMm2: number;
}

/**
 * The minimal lumen area: the smallest finite area and its index (the first if several tie).
 * Entries that are not finite numbers (slices without a contour) are skipped; null if none is left.
 */
export function findMinimalLumenArea(areas: ArrayLike<number>): SliceArea | null {
  let best: SliceArea | null = null;
  for (let i = 0; i < areas.length; i++) {
    const area = areas[i]!;
    if (!Number.isFinite(area)) continue;
    if (best === null || area < best.areaMm2) best = { index: i, areaMm2: area };
  }
  return best;
}

export interface ReferenceSlices {
  /** Largest lumen proximal to the lesion (higher indices: a pullback runs from distal to proximal). */
  readonly proximal: SliceArea | null;
  /** Largest lumen distal to the lesion (lower indices). */
  readonly distal: SliceArea | null;
}

/**
 * The reference slices: the largest finite lumen area within `windowMm` of the minimal lumen area
 * slice on each side, excluding the MLA slice itself. The window spans round(windowMm · framesPerMm)
 * slices (framesPerMm = frame rate / pullback speed). Frame 0 is the most distal (the catheter is
 * pulled back from distal to proximal), so proximal is towards higher indices. A side with no slice
 * gives null.
 */
export function findReferenceSlices(
  areas: ArrayLike<number>,
  mlaIndex: number,
  framesPerMm: number,
  windowMm: number = REFERENCE_WINDOW_MM,
): ReferenceSlices {
  if (!(framesPerMm > 0)) throw new RangeError('framesPerMm must be positive');
  const span = Math.round(windowMm * framesPerMm);
  const largest = (from: number, to: number): SliceArea | null => {
    let best: SliceArea | null = null;
    for (let i = Math.max(0, from); i <= Math.min(areas.length - 1, to); i++) {
      const area = areas[i]!;
      if (!Number.isFinite(area)) continue;
      if (best === null || area > best.areaMm2) best = { index: i, areaMm2: area };
    }
    return best;
  };
  return { proximal: largest(mlaIndex + 1, mlaIndex + span), distal: largest(mlaIndex - span, mlaIndex - 1) };
}

/**
 * The reference lumen area the stenosis is measured against: the mean of the proximal and distal
 * reference areas, or the one that exists; null if neither does.
 */
export function referenceAreaMm2(references: ReferenceSlices): number | null {
  const { proximal, distal } = references;
  if (proximal && distal) return (proximal.areaMm2 + distal.areaMm2) / 2;
  return proximal?.areaMm2 ?? distal?.areaMm2 ?? null;
}

/**
 * Lumen area stenosis in percent: 100 · (A_ref − MLA) / A_ref. Negative when the "minimal" lumen is
 * larger than the reference (no stenosis); throws for a reference that is not positive.
 */
export function stenosisPercent(mlaMm2: number, referenceMm2: number): number {
  if (!(referenceMm2 > 0)) throw new RangeError('the reference area must be positive');
  return (100 * (referenceMm2 - mlaMm2)) / referenceMm2;
}

export interface PullbackAnalysis {
  readonly mla: SliceArea | null;
  readonly references: ReferenceSlices;
  /** Against the mean reference area; null without an MLA or a reference. */
  readonly stenosisPercent: number | null;
}

/** MLA, reference slices and area stenosis of a pullback's per-slice lumen areas. */
export function analysePullback(areas: ArrayLike<number>, framesPerMm: number, windowMm: number = REFERENCE_WINDOW_MM): PullbackAnalysis {
  const mla = findMinimalLumenArea(areas);
  if (mla === null) return { mla: null, references: { proximal: null, distal: null }, stenosisPercent: null };
  const references = findReferenceSlices(areas, mla.index, framesPerMm, windowMm);
  const reference = referenceAreaMm2(references);
  return { mla, references, stenosisPercent: reference !== null && reference > 0 ? stenosisPercent(mla.areaMm2, reference) : null };
}

export interface ContourMeasurements {
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
}

/** Area and diameters of one contour (see lumenAreaMm2 and diametersThroughCentroid). */
export function measureContour(points: readonly Point[], pixelSpacingMm: number): ContourMeasurements {
  const { min, max } = diametersThroughCentroid(points, pixelSpacingMm);
  return { areaMm2: lumenAreaMm2(points, pixelSpacingMm), minDiameterMm: min, maxDiameterMm: max };
}

export interface PlaqueMeasurements {
  /** Plaque + media area: vessel (EEM) area − lumen area, in mm²; never negative. */
  readonly plaqueAreaMm2: number;
  /** Plaque burden: (vessel − lumen) / vessel, a fraction from 0 to 1. */
  readonly plaqueBurden: number;
}

/**
 * Plaque + media area and plaque burden of a slice from its lumen and vessel areas. A lumen larger
 * than its vessel (corrected borders that cross) has no plaque to measure: both are 0 then, and
 * `enclosesContour` tells the review to flag the slice rather than report a negative plaque.
 */
export function plaqueOf(lumenAreaMm2: number, vesselAreaMm2: number): PlaqueMeasurements {
  if (!(vesselAreaMm2 > 0)) return { plaqueAreaMm2: 0, plaqueBurden: 0 };
  const plaqueAreaMm2 = Math.max(0, vesselAreaMm2 - lumenAreaMm2);
  return { plaqueAreaMm2, plaqueBurden: plaqueAreaMm2 / vesselAreaMm2 };
}

export interface SliceBurden {
  /** Index into the burdens (0-based frame index). */
  readonly index: number;
  readonly plaqueBurden: number;
}

/** The largest finite plaque burden and its index (the first if several tie); null if there is none. */
export function findMaxPlaqueBurden(burdens: ArrayLike<number>): SliceBurden | null {
  let best: SliceBurden | null = null;
  for (let i = 0; i < burdens.length; i++) {
    const burden = burdens[i]!;
    if (!Number.isFinite(burden)) continue;
    if (best === null || burden > best.plaqueBurden) best = { index: i, plaqueBurden: burden };
  }
  return best;
}

/** Even-odd rule: whether `point` lies inside the closed polygon. */
function insidePolygon(point: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > point.y !== b.y > point.y && point.x < a.x + ((point.y - a.y) * (b.x - a.x)) / (b.y - a.y)) inside = !inside;
  }
  return inside;
}

/**
 * Whether the drawn curve through `outer` encloses the one through `inner` (both control points, or
 * dense polygons): every vertex of the inner curve lies inside the outer one. A vessel border must
 * enclose its lumen; a correction that crosses it is flagged for the clinician.
 */
export function enclosesContour(outer: readonly Point[], inner: readonly Point[]): boolean {
  if (outer.length < 3 || inner.length < 3) return false;
  const outline = measuredOutline(outer);
  const innerOutline = measuredOutline(inner);
  return clearlyEncloses(outline, innerOutline) || innerOutline.every((point) => insidePolygon(point, outline));
}

/** Distance from `point` to the segment AB. */
function segmentDistance(point: Point, a: Point, b: Point): number {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const length2 = ex * ex + ey * ey;
  const s = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((point.x - a.x) * ex + (point.y - a.y) * ey) / length2));
  return Math.hypot(point.x - (a.x + s * ex), point.y - (a.y + s * ey));
}

/**
 * The quick answer for the usual case, a lumen well inside its vessel (every slice a key frame is
 * carried to is checked): the disc round the inner curve's centroid that reaches all of it lies inside
 * the outer curve, clear of its edges by more than rounding. When it says yes, so would the vertex
 * test; when it cannot tell, the vertex test decides.
 */
function clearlyEncloses(outer: readonly Point[], inner: readonly Point[]): boolean {
  const centre = polygonCentroid(inner);
  let reach = 0;
  for (const point of inner) reach = Math.max(reach, Math.hypot(point.x - centre.x, point.y - centre.y));
  let clearance = Infinity;
  for (let i = 0; i < outer.length; i++) clearance = Math.min(clearance, segmentDistance(centre, outer[i]!, outer[(i + 1) % outer.length]!));
  return reach < clearance - 1e-6 && insidePolygon(centre, outer);
}

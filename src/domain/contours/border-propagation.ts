/**
 * Key frames that propagate (issue 25): a clinician's correction of the lumen or vessel border on one
 * slice is a key frame, and it is carried onto the neighbouring slices, blended into the border the
 * detector found there, so that a detector error running over centimetres is fixed by a few
 * corrections rather than one per frame. Pure.
 *
 * How a slice's border is made, per border (lumen and vessel each have their own key frames):
 * - The correction of key frame k is, in polar form about the slice's origin (the centroid of its
 *   detected lumen, inside both borders), the radius offset per angle O_k(θ) = r_corrected(θ) −
 *   r_detected(θ). A propagated border is the detected border of its slice with each control point
 *   moved along its direction by Σ w_k · O_k(θ).
 * - Between two key frames that both propagate and lie at most `bridgeMm` apart, the offset is
 *   interpolated linearly between theirs (w = 1 − t and t): a run the clinician corrected at both
 *   ends follows both corrections all the way.
 * - Otherwise a key frame's weight falls from 1 to 0 along a raised cosine (no kink where the blend
 *   begins or ends) over its `reachMm`, or by the next key frame of that border, whichever comes
 *   first; two fades that overlap are normalised so that they never add up to more than either.
 * - A slice the detector could not read has no detected border to blend into. A fade stops at the
 *   first such slice (what lies beyond a frame nobody could read is another stretch of vessel); only
 *   between two bridged key frames does a slice without a detected border get one: the two key
 *   frames' borders interpolated in polar form (shape and origin), since the clinician has bounded
 *   that run at both ends.
 * - The propagated border never crosses the other one: a propagated border yields to a detected or
 *   corrected one, keeping at least `minWallMm` of wall between lumen and vessel; where both are
 *   propagated, the vessel yields (the lumen carries the MLA).
 * - A correction saved without `reachMm` (every one saved before key frames) stays on its slice, as
 *   it always did, but still ends the fade of a key frame beside it: it is a key frame that does not
 *   reach. Removing a key frame brings the detected borders back, since nothing propagated is stored.
 */
import type { Point } from '../annotations/point.ts';
import { hasBorder, type BorderedContour, type DetectedContour } from './api.ts';
import { borderOf, DEFAULT_REACH_MM, type BorderSource, type ContourBorder, type SliceContour } from '../annotations/contour-set.ts';
import { measuredOutline, polygonCentroid } from './measurements.ts';
import { atAngle, moveRadially, pointsFromRadii, polarRadii, POLAR_ANGLES, radiusAlong, raisedCosine } from './polar-border.ts';

/** How far a correction reaches each way by default (annotations/contour-set.ts says why 2 mm). */
export { DEFAULT_REACH_MM };
/**
 * Two key frames at most this far apart interpolate between their corrections all the way: the
 * width of one reference window (REFERENCE_WINDOW_MM), so that an error over 2 cm is corrected by
 * key frames some 7-10 mm apart, 3 or 4 of them. Corrections farther apart are taken as separate,
 * local ones: the detector may well be right between them.
 */
export const DEFAULT_BRIDGE_MM = 10;
/** The least wall (plaque + media) kept between a propagated border and the other one: about the thinnest media IVUS resolves. */
export const MIN_WALL_MM = 0.1;
/** Control points of a border interpolated on a slice without a detected border (one per 10°). */
const SHAPE_POINTS = 36;

export interface PropagationOptions {
  readonly framesPerMm: number;
  readonly pixelSpacingMm: number;
  readonly bridgeMm?: number;
  readonly minWallMm?: number;
}

export interface PlacedBorder {
  readonly controlPoints: readonly Point[];
  readonly source: BorderSource;
}

/** One slice's borders after key frames and propagation; null where it has none. */
export interface SliceBorders {
  readonly slice: number;
  readonly lumen: PlacedBorder | null;
  readonly vessel: PlacedBorder | null;
}

interface Key {
  readonly slice: number;
  readonly index: number;
  readonly reachFrames: number;
  readonly controlPoints: readonly Point[];
}

/** What a slice between key frames takes from them. */
type Blend =
  | { readonly kind: 'offset'; readonly parts: { key: Key; weight: number }[] }
  | { readonly kind: 'shape'; readonly from: Key; readonly to: Key; readonly t: number };

const detectedPoints = (contour: BorderedContour, border: ContourBorder) => (border === 'lumen' ? contour.controlPoints : contour.vessel.controlPoints);

/** For each slice (by index into `detected`), how it blends the key frames of one border; slices left out keep the detected border. */
function planBlends(detected: readonly DetectedContour[], keys: readonly Key[], bridgeFrames: number): Map<number, Blend> {
  const plan = new Map<number, Blend>();
  const addPart = (index: number, key: Key, weight: number) => {
    const blend = plan.get(index);
    if (blend?.kind === 'offset') blend.parts.push({ key, weight });
    else plan.set(index, { kind: 'offset', parts: [{ key, weight }] });
  };
  const fade = (key: Key, limitFrames: number, step: 1 | -1, stop: number) => {
    if (key.reachFrames <= 0) return;
    const length = Math.min(key.reachFrames, limitFrames);
    for (let i = key.index + step; step > 0 ? i <= stop : i >= stop; i += step) {
      const distance = Math.abs(detected[i]!.slice - key.slice);
      if (distance >= length || !hasBorder(detected[i]!)) break;
      addPart(i, key, raisedCosine(distance / length));
    }
  };
  for (let k = 0; k <= keys.length; k++) {
    const before = keys[k - 1];
    const after = keys[k];
    const first = before ? before.index + 1 : 0;
    const last = after ? after.index - 1 : detected.length - 1;
    const gap = before && after ? after.slice - before.slice : Infinity;
    if (before && after && before.reachFrames > 0 && after.reachFrames > 0 && gap <= bridgeFrames) {
      for (let i = first; i <= last; i++) {
        const t = (detected[i]!.slice - before.slice) / gap;
        if (hasBorder(detected[i]!)) plan.set(i, { kind: 'offset', parts: [{ key: before, weight: 1 - t }, { key: after, weight: t }] });
        else plan.set(i, { kind: 'shape', from: before, to: after, t });
      }
      continue;
    }
    if (before) fade(before, gap, 1, last);
    if (after) fade(after, gap, -1, first);
  }
  for (const blend of plan.values()) {
    if (blend.kind !== 'offset') continue;
    const total = blend.parts.reduce((sum, part) => sum + part.weight, 0);
    if (total > 1) for (const part of blend.parts) part.weight /= total;
  }
  return plan;
}

/**
 * Every slice's lumen and vessel borders: the key frames (the manifest's contours) on their own
 * slices, propagated borders between and around them, the detected ones elsewhere. One entry per
 * detected slice, in its order.
 */
export function propagateBorders(detected: readonly DetectedContour[], keyFrames: readonly SliceContour[], options: PropagationOptions): SliceBorders[] {
  const bridgeFrames = (options.bridgeMm ?? DEFAULT_BRIDGE_MM) * options.framesPerMm;
  const wallPx = (options.minWallMm ?? MIN_WALL_MM) / options.pixelSpacingMm;
  const indexOfSlice = new Map(detected.map((contour, index) => [contour.slice, index]));
  const origins = new Map<number, Point>();
  /** The polar origin of a slice the detector read: its detected lumen's centroid. */
  const originOf = (index: number): Point => {
    let origin = origins.get(index);
    if (!origin) {
      origin = polygonCentroid(measuredOutline((detected[index] as BorderedContour).controlPoints));
      origins.set(index, origin);
    }
    return origin;
  };

  const placed = { lumen: new Map<number, PlacedBorder>(), vessel: new Map<number, PlacedBorder>() };
  for (const border of ['lumen', 'vessel'] as const) {
    const keys = keyFrames
      .filter((contour) => borderOf(contour) === border && indexOfSlice.has(contour.slice))
      .map((contour): Key => ({ slice: contour.slice, index: indexOfSlice.get(contour.slice)!, reachFrames: (contour.reachMm ?? 0) * options.framesPerMm, controlPoints: contour.controlPoints }))
      .sort((a, b) => a.slice - b.slice);
    for (const key of keys) placed[border].set(key.index, { controlPoints: key.controlPoints, source: 'manual' });

    const offsets = new Map<Key, Float64Array>();
    /** O_k(θ) as seen from slice `index`: against the key's own detected border where it has one, else against this slice's. */
    const offsetFor = (key: Key, index: number): Float64Array => {
      const keyContour = detected[key.index]!;
      const reference = hasBorder(keyContour) ? key.index : index;
      const cached = reference === key.index ? offsets.get(key) : undefined;
      if (cached) return cached;
      const origin = originOf(reference);
      const corrected = polarRadii(key.controlPoints, origin);
      const found = polarRadii(detectedPoints(detected[reference] as BorderedContour, border), origin);
      const offset = corrected.map((radius, i) => (Number.isFinite(radius - found[i]!) ? radius - found[i]! : 0));
      if (reference === key.index) offsets.set(key, offset);
      return offset;
    };
    const shapes = new Map<Key, { origin: Point; radii: Float64Array }>();
    const shapeOf = (key: Key) => {
      let shape = shapes.get(key);
      if (!shape) {
        const origin = polygonCentroid(measuredOutline(key.controlPoints));
        shape = { origin, radii: polarRadii(key.controlPoints, origin, SHAPE_POINTS) };
        shapes.set(key, shape);
      }
      return shape;
    };

    for (const [index, blend] of planBlends(detected, keys, bridgeFrames)) {
      if (blend.kind === 'shape') {
        const from = shapeOf(blend.from);
        const to = shapeOf(blend.to);
        const t = blend.t;
        const origin = { x: from.origin.x * (1 - t) + to.origin.x * t, y: from.origin.y * (1 - t) + to.origin.y * t };
        const radii = from.radii.map((radius, i) => {
          const other = to.radii[i]!;
          if (!Number.isFinite(radius)) return Number.isFinite(other) ? other : 0;
          return Number.isFinite(other) ? radius * (1 - t) + other * t : radius;
        });
        placed[border].set(index, { controlPoints: pointsFromRadii(radii, origin), source: 'propagated' });
        continue;
      }
      const offset = new Float64Array(POLAR_ANGLES);
      for (const { key, weight } of blend.parts) {
        const keyOffset = offsetFor(key, index);
        for (let i = 0; i < POLAR_ANGLES; i++) offset[i] = offset[i]! + weight * keyOffset[i]!;
      }
      const moved = moveRadially(detectedPoints(detected[index] as BorderedContour, border), originOf(index), (angle, radius) => radius + atAngle(offset, angle));
      placed[border].set(index, { controlPoints: moved, source: 'propagated' });
    }
  }

  return detected.map((contour, index) => {
    const auto = (border: ContourBorder): PlacedBorder | null => (hasBorder(contour) ? { controlPoints: detectedPoints(contour, border), source: 'auto' } : null);
    const lumen = placed.lumen.get(index) ?? auto('lumen');
    const vessel = placed.vessel.get(index) ?? auto('vessel');
    return { slice: contour.slice, ...keepWall(lumen, vessel, hasBorder(contour) ? originOf(index) : null, wallPx) };
  });
}

/**
 * The two borders with a propagated one moved where it would come closer than `wallPx` to the other
 * (vessel pushed out, or lumen pulled in, along each control point's direction). Borders that are
 * not propagated are never moved: crossing corrections are the clinician's, and are flagged.
 */
function keepWall(lumen: PlacedBorder | null, vessel: PlacedBorder | null, sliceOrigin: Point | null, wallPx: number): { lumen: PlacedBorder | null; vessel: PlacedBorder | null } {
  if (!lumen || !vessel || (lumen.source !== 'propagated' && vessel.source !== 'propagated')) return { lumen, vessel };
  const origin = sliceOrigin ?? polygonCentroid(measuredOutline(lumen.controlPoints));
  if (vessel.source === 'propagated') {
    const lumenOutline = measuredOutline(lumen.controlPoints);
    const controlPoints = moveRadially(vessel.controlPoints, origin, (angle, radius) => {
      const least = radiusAlong(lumenOutline, origin, angle) + wallPx;
      return Number.isFinite(least) ? Math.max(radius, least) : radius;
    });
    return { lumen, vessel: { controlPoints, source: 'propagated' } };
  }
  const vesselOutline = measuredOutline(vessel.controlPoints);
  const controlPoints = moveRadially(lumen.controlPoints, origin, (angle, radius) => {
    const most = radiusAlong(vesselOutline, origin, angle) - wallPx;
    return Number.isFinite(most) ? Math.min(radius, most) : radius;
  });
  return { lumen: { controlPoints, source: 'propagated' }, vessel };
}

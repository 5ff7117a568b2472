/**
 * Borders on the longitudinal view (issue 25), as data: where every frame's lumen and vessel borders
 * cross the L-mode cut (two points each, one each side of the catheter), for drawing both L-mode
 * views; and a border dragged on the L-mode turned into the key-frame contour of that frame. Pure.
 *
 * The cut is the line through the frame centre (the catheter) at the cut angle θ, as the L-mode
 * sampler reads it (web/review/lmode/lmode-sampling.ts): row k of the L-mode column lies at signed
 * distance t = k + 0.5 − length / 2 px from the centre, towards θ for t ≥ 0 and towards θ + π for
 * t < 0. A point of the cut at signed distance t is therefore the border radius at θ (t ≥ 0) or at
 * θ + π (t < 0), in polar form about the frame centre.
 */
import type { Point } from '../annotations/point.ts';
import { DEFAULT_REACH_MM } from './border-propagation.ts';
import type { ContourBorder, SliceContour } from '../annotations/contour-set.ts';
import { measuredOutline } from './measurements.ts';
import { angularDistance, pointsFromRadii, polarRadii, radiusAlong, raisedCosine } from './polar-border.ts';

/**
 * A drag on the L-mode moves the border within ±30° of the cut, along a raised cosine: a drag at one
 * point of the outline must reshape a sector, not dent it, and 60° is about the arc a calcium
 * shadow or a side branch hides, the usual reasons to correct a border.
 */
export const DRAG_HALF_WIDTH_RAD = Math.PI / 6;
/** Control points of a dragged border: one per 7.5°, the first on the dragged direction (a contour holds at most 64). */
const DRAG_POINTS = 48;

/** The catheter centre the L-mode cut goes through: the frame's middle (pixel (c, r) covers [c, c + 1) x [r, r + 1)). */
export function frameCentre(width: number, height: number): Point {
  return { x: width / 2, y: height / 2 };
}

/** Signed distance from the centre along the cut of L-mode row `row` (of a column of `length` rows). */
export function cutDistanceOfRow(row: number, length: number): number {
  return row + 0.5 - length / 2;
}

/** L-mode row (fractional) of the point at signed distance `distancePx` along the cut. */
export function rowOfCutDistance(distancePx: number, length: number): number {
  return distancePx + length / 2 - 0.5;
}

/** A direction and a radius about the frame centre. */
export interface PolarPosition {
  readonly angleRad: number;
  readonly radiusPx: number;
}

/** The point at signed distance `distancePx` along the cut at `cutAngleRad`, in polar form: θ and |t| for t ≥ 0, θ + π and |t| for t < 0. */
export function cutToPolar(cutAngleRad: number, distancePx: number): PolarPosition {
  return { angleRad: distancePx >= 0 ? cutAngleRad : cutAngleRad + Math.PI, radiusPx: Math.abs(distancePx) };
}

/** Per frame, in frame order, the signed distances along the cut (px) of one border: `toward` ≥ 0 on the θ side, `away` ≤ 0 on the θ + π side; NaN where the frame has no such border. */
export interface CutCrossings {
  readonly toward: Float32Array;
  readonly away: Float32Array;
}

export interface CutBorders {
  readonly lumen: CutCrossings;
  readonly vessel: CutCrossings;
}

/** What the sampler needs of a slice: its lumen control points (empty without one) and its vessel border (null without one), as SliceMeasurement has them. */
export interface SliceOutlines {
  readonly controlPoints: readonly Point[];
  readonly vessel: { readonly controlPoints: readonly Point[] } | null;
}

/** The borders of every frame, ready to be read along any cut: the drawn curves are built once, and each new cut angle only casts rays. */
export interface CutBorderSampler {
  sample(cutAngleRad: number): CutBorders;
}

/**
 * Where every frame's borders cross the cut, for drawing the lumen and vessel lines on both L-mode
 * views (the corrected analysis' slices give the borders after key frames and propagation). Read on
 * the drawn curve, as measured; a border of under 3 points is no border (NaN). Build it once per
 * analysis: turning the cut line then costs a ray per border and frame.
 */
export function createCutBorderSampler(slices: readonly SliceOutlines[], centre: Point): CutBorderSampler {
  const outlineOf = (points: readonly Point[]) => (points.length < 3 ? null : measuredOutline(points));
  const outlines = slices.map((slice) => ({ lumen: outlineOf(slice.controlPoints), vessel: outlineOf(slice.vessel?.controlPoints ?? []) }));
  return {
    sample(cutAngleRad) {
      const crossings = (): CutCrossings => ({ toward: new Float32Array(slices.length).fill(Number.NaN), away: new Float32Array(slices.length).fill(Number.NaN) });
      const result = { lumen: crossings(), vessel: crossings() };
      outlines.forEach((outline, index) => {
        for (const border of ['lumen', 'vessel'] as const) {
          const points = outline[border];
          if (!points) continue;
          result[border].toward[index] = radiusAlong(points, centre, cutAngleRad);
          result[border].away[index] = -radiusAlong(points, centre, cutAngleRad + Math.PI);
        }
      });
      return result;
    },
  };
}

/** The borders of every frame along one cut (createCutBorderSampler, for a single angle). */
export function sampleBordersAlongCut(slices: readonly SliceOutlines[], centre: Point, cutAngleRad: number): CutBorders {
  return createCutBorderSampler(slices, centre).sample(cutAngleRad);
}

export interface BorderDrag {
  /** The border now shown on the frame (detected, propagated or corrected): the drag reshapes it. */
  readonly controlPoints: readonly Point[];
  /** The frame centre the cut goes through (frameCentre). */
  readonly centre: Point;
  /** Where the border was dropped: the cut angle and signed distance turned into polar form (cutToPolar). */
  readonly to: PolarPosition;
  /** Half the arc the drag reshapes, radians (default ±30°). */
  readonly halfWidthRad?: number;
  /** The other border of the frame, which the dragged one must not cross: the lumen when the vessel is dragged ('inside'), the vessel when the lumen is ('outside'). */
  readonly other?: { readonly side: 'inside' | 'outside'; readonly controlPoints: readonly Point[] };
  /** The least wall kept against `other`, px. */
  readonly minGapPx?: number;
}

/**
 * The border after a drag on the L-mode: its radius at the dragged direction becomes the dropped
 * radius exactly (a control point sits on that direction), the change fading to nothing along a
 * raised cosine over ±halfWidthRad, and the rest of the border is untouched but for resampling. It
 * never crosses `other`: every radius stays `minGapPx` outside the lumen or inside the vessel. A
 * frame without the border gets a round one at the dropped radius. Throws on a non-finite drop (a
 * bug in the caller, never a border to store).
 */
export function dragBorderOnCut(drag: BorderDrag): Point[] {
  const { centre, to } = drag;
  if (![to.angleRad, to.radiusPx, centre.x, centre.y].every(Number.isFinite)) throw new RangeError('an L-mode drag needs a finite angle, radius and centre');
  const halfWidth = drag.halfWidthRad ?? DRAG_HALF_WIDTH_RAD;
  const gap = drag.minGapPx ?? 0;
  // A frame without that border (the detector could not read it) gets a round one at the dropped radius.
  const radii = drag.controlPoints.length < 3 ? new Float64Array(DRAG_POINTS).fill(to.radiusPx) : fillGaps(polarRadii(drag.controlPoints, centre, DRAG_POINTS, to.angleRad));
  const otherRadii = drag.other ? polarRadii(drag.other.controlPoints, centre, DRAG_POINTS, to.angleRad) : null;
  const bounded = (radius: number, i: number) => {
    const limit = otherRadii?.[i];
    let bounds = Math.max(1, radius);
    if (limit !== undefined && Number.isFinite(limit)) bounds = drag.other!.side === 'inside' ? Math.max(bounds, limit + gap) : Math.min(bounds, Math.max(1, limit - gap));
    return bounds;
  };
  const change = bounded(to.radiusPx, 0) - radii[0]!;
  const moved = radii.map((radius, i) => bounded(radius + change * raisedCosine(angularDistance((2 * Math.PI * i) / DRAG_POINTS, 0) / halfWidth), i));
  return pointsFromRadii(moved, centre, to.angleRad);
}

/** A radius the border has not got along some direction (the centre outside it there) takes the previous finite one, so a drag never makes a hole. */
function fillGaps(radii: Float64Array): Float64Array {
  const firstFinite = radii.find(Number.isFinite) ?? 1;
  let last = firstFinite;
  return radii.map((radius) => (Number.isFinite(radius) ? (last = radius) : last));
}

/**
 * The key frame an L-mode drag makes on frame `slice` (1-based): the dragged border as a manual
 * contour that propagates `reachMm` each way (border-propagation.ts). Store it with setKeyFrame.
 */
export type KeyFrame = SliceContour & { readonly border: ContourBorder; readonly reachMm: number };

export function keyFrameFromLmodeDrag(slice: number, border: ContourBorder, drag: BorderDrag, reachMm: number = DEFAULT_REACH_MM): KeyFrame {
  return { slice, border, controlPoints: dragBorderOnCut(drag), source: 'manual', reachMm };
}

/**
 * Measurements shown on the label cards (spec section 9): ruler length in mm, area in mm², angle in
 * whole degrees. Pixel spacing is the record's millimetres per image pixel; the default 0.01 is the
 * spec's "pixel length / 100 = mm". These are the formulas only: each annotation kind
 * (kinds/*.ts) picks its own, and the lumen contours reuse the shoelace area.
 */
import { DEFAULT_PIXEL_SPACING_MM } from '../constants.ts';
import { smoothClosedCurve } from './curves.ts';
import type { AngleGeometry, Point, RulerAnnotation } from './manifest.ts';

export type MeasurementKind = 'ruler' | 'area' | 'angle';
export type MeasurementUnit = 'mm' | 'mm²' | '°';
export type FormattedMeasurement = { value: string; unit: MeasurementUnit };

type RulerEnds = Pick<RulerAnnotation, 'startX' | 'startY' | 'endX' | 'endY'>;

/** Euclidean length of the ruler in pixels times the pixel spacing, in mm (not rounded). */
export function rulerLengthMm(ruler: RulerEnds, pixelSpacingMm: number = DEFAULT_PIXEL_SPACING_MM): number {
  return Math.hypot(ruler.endX - ruler.startX, ruler.endY - ruler.startY) * pixelSpacingMm;
}

/**
 * Signed shoelace area of a closed polygon, ½ Σ (x_i y_{i+1} − x_{i+1} y_i), in the square of its
 * units: positive when the points turn clockwise on screen (y down). The sign is what a centroid needs.
 */
export function signedShoelaceArea(points: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return twice / 2;
}

/** Absolute shoelace area of a closed polygon, in the square of its units. */
export function shoelaceArea(points: readonly Point[]): number {
  return Math.abs(signedShoelaceArea(points));
}

/** Rounds to 2 decimals (half away from zero for the positive values measured here). */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/**
 * Shoelace area of the smooth closed curve through the control points (as drawn), times the pixel
 * spacing squared, in mm² rounded to 2 decimals; 0 under 3 control points.
 */
export function areaMm2(controlPoints: readonly Point[], pixelSpacingMm: number = DEFAULT_PIXEL_SPACING_MM): number {
  if (controlPoints.length < 3) return 0;
  return round2(shoelaceArea(smoothClosedCurve(controlPoints)) * pixelSpacingMm * pixelSpacingMm);
}

/** The difference b - a wrapped into (-π, π]. */
export function angleDifference(a: number, b: number): number {
  let d = (b - a) % (2 * Math.PI);
  if (d <= -Math.PI) d += 2 * Math.PI;
  if (d > Math.PI) d -= 2 * Math.PI;
  return d;
}

/** The angle between the two arms (from startAngle and endAngle), in whole degrees 0..180. */
export function angleDegrees(angle: Pick<AngleGeometry, 'startAngle' | 'endAngle'>): number {
  return Math.round((Math.abs(angleDifference(angle.startAngle, angle.endAngle)) * 180) / Math.PI);
}

/** The unit each measured kind is shown in. */
const UNITS: Record<MeasurementKind, MeasurementUnit> = { ruler: 'mm', area: 'mm²', angle: '°' };

/** The value as shown on a card: whole degrees for angles, 2 decimals for mm and mm². */
export function formatMeasurement(kind: MeasurementKind, value: number): FormattedMeasurement {
  const unit = UNITS[kind];
  return { value: unit === '°' ? String(Math.round(value)) : round2(value).toFixed(2), unit };
}

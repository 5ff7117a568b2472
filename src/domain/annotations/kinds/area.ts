/**
 * Areas: the smooth closed curve through their control points (curves.ts), which are the handles.
 * `points` stores the curve's samples; it is recomputed whenever a control point moves.
 */
import { smoothClosedCurve } from '../curves.ts';
import type { Point } from '../manifest.ts';
import { areaMm2, formatMeasurement } from '../measurements.ts';
import type { AnnotationKind, AnnotationOf, HitHandle } from './annotation-kind.ts';
import { distanceToClosedPolyline, shift } from './geometry.ts';

type Area = AnnotationOf<'area'>;

const CONTROL = 'control-';

/** The control point index a handle names, or -1 when it names none. */
function controlIndex(handle: HitHandle): number {
  return handle.startsWith(CONTROL) ? Number(handle.slice(CONTROL.length)) : -1;
}

export const areaKind: AnnotationKind<Area> = {
  measure: (area, pixelSpacingMm) => formatMeasurement('area', areaMm2(area.controlPoints, pixelSpacingMm)),
  handles: (area) => area.controlPoints.map((point, i) => ({ handle: `${CONTROL}${i}` as const, point })),
  distance: (area, p) => (area.controlPoints.length === 0 ? Infinity : distanceToClosedPolyline(p, smoothClosedCurve(area.controlPoints))),
  translate: (area, dx, dy) => ({
    ...area,
    controlPoints: area.controlPoints.map((p) => shift(p, dx, dy)),
    points: area.points.map((p) => shift(p, dx, dy)),
  }),
  moveHandle: (area, handle, to) => {
    const index = controlIndex(handle);
    if (index < 0 || index >= area.controlPoints.length) return area;
    const controlPoints = area.controlPoints.map((p, i) => (i === index ? to : p));
    return { ...area, controlPoints, points: smoothClosedCurve(controlPoints) };
  },
  // The card sits beside the right-most control point (the origin for an area without any).
  anchor: (area) => area.controlPoints.reduce<Point | null>((best, p) => (!best || p.x > best.x ? p : best), null) ?? { x: 0, y: 0 },
};

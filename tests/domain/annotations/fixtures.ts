import { SLICE_COLORS } from '../../../src/domain/constants.ts';
import { createRightAngle } from '../../../src/domain/annotations/angle-geometry.ts';
import {
  annotationId,
  type AngleAnnotation,
  type AreaAnnotation,
  type Point,
  type RulerAnnotation,
  type TextAnnotation,
  type TypedAnnotation,
} from '../../../src/domain/annotations/manifest.ts';

type Color = (typeof SLICE_COLORS)[number];
type Labelled = { slice?: number; label?: string; color?: Color };

function common(type: TypedAnnotation['type'], { slice = 1, label = 'A', color = SLICE_COLORS[0] }: Labelled) {
  return { id: annotationId(slice, type, label, color), slice, label, color, hideLabel: false };
}

export function ruler(start: Point, end: Point, labelled: Labelled = {}): RulerAnnotation {
  return { ...common('ruler', labelled), startX: start.x, startY: start.y, endX: end.x, endY: end.y };
}

export function area(controlPoints: Point[], labelled: Labelled = {}): AreaAnnotation {
  return { ...common('area', labelled), points: controlPoints, controlPoints };
}

export function text(origin: Point, note = 'note', labelled: Labelled = {}): TextAnnotation {
  return { ...common('text', labelled), text: note, origin };
}

export function angle(center: Point, armLength: number, labelled: Labelled = {}): AngleAnnotation {
  return { ...common('angle', labelled), ...createRightAngle(center, armLength) };
}

export const typedRuler = (...args: Parameters<typeof ruler>): TypedAnnotation => ({ type: 'ruler', ...ruler(...args) });
export const typedArea = (...args: Parameters<typeof area>): TypedAnnotation => ({ type: 'area', ...area(...args) });
export const typedText = (...args: Parameters<typeof text>): TypedAnnotation => ({ type: 'text', ...text(...args) });
export const typedAngle = (...args: Parameters<typeof angle>): TypedAnnotation => ({ type: 'angle', ...angle(...args) });

/** n points evenly around a circle, starting at angle 0. */
export function circle(center: Point, radius: number, n: number): Point[] {
  return Array.from({ length: n }, (_, i) => ({
    x: center.x + radius * Math.cos((2 * Math.PI * i) / n),
    y: center.y + radius * Math.sin((2 * Math.PI * i) / n),
  }));
}

/** A deep copy through JSON, as the server receives a manifest. */
export const viaJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value)) as unknown;

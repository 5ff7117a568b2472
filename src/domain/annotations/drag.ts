/**
 * Creating annotations and dragging them (by a handle or as a whole), as pure functions the
 * tool statechart calls. Coordinates are image pixels.
 */
import { createRightAngle, moveAngleHandle } from './angle-geometry.ts';
import { reduceToControlPoints, smoothClosedCurve } from './curves.ts';
import type { HitHandle } from './hit-test.ts';
import { annotationId, nextLabelAndColor } from './labels.ts';
import { allAnnotations } from './edits.ts';
import type { AnnotationManifest, AnnotationType, Point, TypedAnnotation } from './manifest.ts';

/**
 * A pointer that goes down and comes up within this many screen pixels clicked: it moves nothing
 * (tldraw's drag threshold). The caller converts it to image pixels with the zoom, like the hit radius.
 */
export const DRAG_THRESHOLD_PX = 4;

/** Whether the pointer went far enough from `from` (image pixels) for a drag. */
export function passedDragThreshold(from: Point, to: Point, thresholdImagePx: number): boolean {
  return Math.hypot(to.x - from.x, to.y - from.y) > thresholdImagePx;
}

type Of<T extends TypedAnnotation['type']> = Extract<TypedAnnotation, { type: T }>;
/** The id, label and colour of the next annotation of `type` on `slice`. */
function identity(manifest: AnnotationManifest, slice: number, type: AnnotationType) {
  const { label, color } = nextLabelAndColor(manifest, slice);
  return { id: annotationId(slice, type, label, color), slice, label, color, hideLabel: false };
}

/**
 * The annotation as it can be added to `manifest`: its label, colour and id are allocated again when
 * its slice already has that label and colour (of any kind), as happens when undo or redo brought
 * back the label it was given when drawing started.
 */
export function withFreshIdentity(manifest: AnnotationManifest, annotation: TypedAnnotation): TypedAnnotation {
  const taken = allAnnotations(manifest).some(
    (other) => other.id === annotation.id || (other.slice === annotation.slice && other.label === annotation.label && other.color === annotation.color),
  );
  if (!taken) return annotation;
  return { ...annotation, ...identity(manifest, annotation.slice, annotation.type) };
}

export function newRuler(manifest: AnnotationManifest, slice: number, start: Point, end: Point): Of<'ruler'> {
  return { type: 'ruler', ...identity(manifest, slice, 'ruler'), startX: start.x, startY: start.y, endX: end.x, endY: end.y };
}

/** The freehand path reduced to control points; `points` keeps the drawn curve's samples. */
export function newArea(manifest: AnnotationManifest, slice: number, path: readonly Point[]): Of<'area'> {
  const controlPoints = reduceToControlPoints(path);
  return { type: 'area', ...identity(manifest, slice, 'area'), controlPoints, points: smoothClosedCurve(controlPoints, 8) };
}

export function newText(manifest: AnnotationManifest, slice: number, origin: Point): Of<'text'> {
  return { type: 'text', ...identity(manifest, slice, 'text'), text: '', origin };
}

/** A 90-degree angle at the image centre (spec: created at the canvas centre). */
export function newAngle(manifest: AnnotationManifest, slice: number, center: Point, armLength: number): Of<'angle'> {
  return { type: 'angle', ...identity(manifest, slice, 'angle'), ...createRightAngle(center, armLength) };
}

const shift = (p: Point, dx: number, dy: number): Point => ({ x: p.x + dx, y: p.y + dy });

/** The annotation moved as a whole by (dx, dy). */
export function translateAnnotation(annotation: TypedAnnotation, dx: number, dy: number): TypedAnnotation {
  switch (annotation.type) {
    case 'ruler':
      return { ...annotation, startX: annotation.startX + dx, startY: annotation.startY + dy, endX: annotation.endX + dx, endY: annotation.endY + dy };
    case 'area':
      return {
        ...annotation,
        controlPoints: annotation.controlPoints.map((p) => shift(p, dx, dy)),
        points: annotation.points.map((p) => shift(p, dx, dy)),
      };
    case 'text':
      return { ...annotation, origin: shift(annotation.origin, dx, dy) };
    case 'angle':
      return moveAngleHandle(annotation, 'body', shift(annotation.angle.origin, dx, dy), annotation.angle.origin);
  }
}

/** The annotation with one handle (from hitTest) moved to `to`. */
export function moveHandle(annotation: TypedAnnotation, handle: HitHandle, to: Point): TypedAnnotation {
  switch (annotation.type) {
    case 'ruler':
      if (handle === 'start') return { ...annotation, startX: to.x, startY: to.y };
      if (handle === 'end') return { ...annotation, endX: to.x, endY: to.y };
      return annotation;
    case 'area': {
      const index = handle.startsWith('control-') ? Number(handle.slice('control-'.length)) : -1;
      if (index < 0 || index >= annotation.controlPoints.length) return annotation;
      const controlPoints = annotation.controlPoints.map((p, i) => (i === index ? to : p));
      return { ...annotation, controlPoints, points: smoothClosedCurve(controlPoints, 8) };
    }
    case 'angle':
      return handle === 'origin' || handle === 'start' || handle === 'end' ? moveAngleHandle(annotation, handle, to) : annotation;
    case 'text':
      return annotation;
  }
}

/**
 * Creating annotations and dragging them (by a handle or as a whole), as pure functions the
 * tool statechart calls. Coordinates are image pixels.
 */
import { createRightAngle } from './angle-geometry.ts';
import { reduceToControlPoints, smoothClosedCurve } from './curves.ts';
import { annotationId, nextLabelAndColor } from './labels.ts';
import { allAnnotations } from './edits.ts';
import type { AnnotationOf as Of, HitHandle } from './kinds/annotation-kind.ts';
import { kindOf } from './kinds/index.ts';
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
  return { type: 'area', ...identity(manifest, slice, 'area'), controlPoints, points: smoothClosedCurve(controlPoints) };
}

export function newText(manifest: AnnotationManifest, slice: number, origin: Point): Of<'text'> {
  return { type: 'text', ...identity(manifest, slice, 'text'), text: '', origin };
}

/** A 90-degree angle at the image centre (spec: created at the canvas centre). */
export function newAngle(manifest: AnnotationManifest, slice: number, center: Point, armLength: number): Of<'angle'> {
  return { type: 'angle', ...identity(manifest, slice, 'angle'), ...createRightAngle(center, armLength) };
}

/** The annotation moved as a whole by (dx, dy). */
export function translateAnnotation(annotation: TypedAnnotation, dx: number, dy: number): TypedAnnotation {
  return kindOf(annotation).translate(annotation, dx, dy);
}

/** The annotation with one handle (from hitTest) moved to `to`. */
export function moveHandle(annotation: TypedAnnotation, handle: HitHandle, to: Point): TypedAnnotation {
  return kindOf(annotation).moveHandle(annotation, handle, to);
}

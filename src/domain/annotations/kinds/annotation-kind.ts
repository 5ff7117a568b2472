/**
 * The one contract every annotation kind (spec section 3) fulfils: how it is measured, which handles
 * it has, how far a point is from it, and how it moves. Hit testing, dragging and the label cards ask
 * the annotation's kind (index.ts: kindOf) instead of each switching over the kinds, so a new kind is
 * one new file here plus its entry in the registry, which the compiler insists on.
 */
import type { AnnotationType, Point, TypedAnnotation } from '../manifest.ts';
import type { FormattedMeasurement } from '../measurements.ts';

/** 'start' | 'end' | 'origin' | `control-${i}` for handles, 'body' for the annotation itself. */
export type HitHandle = 'start' | 'end' | 'origin' | `control-${number}` | 'body';

/** A draggable point of an annotation, with the name hit testing reports for it. */
export type Handle = { handle: HitHandle; point: Point };

/** The annotation of one kind, e.g. `AnnotationOf<'ruler'>`. */
export type AnnotationOf<T extends AnnotationType> = Extract<TypedAnnotation, { type: T }>;

/** The behaviour of the annotations of one kind. Everything is in image pixels. */
export interface AnnotationKind<A extends TypedAnnotation> {
  /** Its card's measurement at `pixelSpacingMm` (mm per image pixel); null when the kind measures nothing. */
  measure(annotation: A, pixelSpacingMm: number): FormattedMeasurement | null;
  /** Its draggable handles; on equal distance hit testing prefers the later one. None for a kind that only moves whole. */
  handles(annotation: A): Handle[];
  /** Distance from p to its body (line, curve, arms or note); Infinity when there is nothing to hit. */
  distance(annotation: A, p: Point): number;
  /** The annotation moved as a whole by (dx, dy). */
  translate(annotation: A, dx: number, dy: number): A;
  /** The annotation with one of its handles moved to `to`; a handle it does not have leaves it as it is. */
  moveHandle(annotation: A, handle: HitHandle, to: Point): A;
  /** The image point its label card is pinned beside. */
  anchor(annotation: A): Point;
}

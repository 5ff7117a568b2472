/**
 * Text notes: a note pinned at its origin. It has no handles (it moves whole, by its body, which is
 * the origin itself) and no measurement.
 */
import type { AnnotationKind, AnnotationOf } from './annotation-kind.ts';
import { distanceBetween, shift } from './geometry.ts';

type Text = AnnotationOf<'text'>;

export const textKind: AnnotationKind<Text> = {
  measure: () => null,
  handles: () => [],
  distance: (text, p) => distanceBetween(p, text.origin),
  translate: (text, dx, dy) => ({ ...text, origin: shift(text.origin, dx, dy) }),
  moveHandle: (text) => text,
  anchor: (text) => text.origin,
};

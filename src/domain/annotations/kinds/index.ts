/**
 * The registry of annotation kinds: `type` → its AnnotationKind. The mapped type makes a kind
 * without an entry (or an entry for the wrong kind) a compile error, which is what the switches
 * over `annotation.type` used to give.
 */
import { DEFAULT_PIXEL_SPACING_MM } from '../../constants.ts';
import type { AnnotationType, TypedAnnotation } from '../manifest.ts';
import type { FormattedMeasurement } from '../measurements.ts';
import type { AnnotationKind, AnnotationOf } from './annotation-kind.ts';
import { angleKind } from './angle.ts';
import { areaKind } from './area.ts';
import { rulerKind } from './ruler.ts';
import { textKind } from './text.ts';

export const ANNOTATION_KINDS: { readonly [T in AnnotationType]: AnnotationKind<AnnotationOf<T>> } = {
  ruler: rulerKind,
  area: areaKind,
  text: textKind,
  angle: angleKind,
};

/** The kind of an annotation, typed for that annotation: `kindOf(a).translate(a, dx, dy)` gives back an `A`. */
export function kindOf<A extends TypedAnnotation>(annotation: A): AnnotationKind<A> {
  // TypeScript cannot tie ANNOTATION_KINDS[annotation.type] to A; the registry's type ties each key to its kind.
  return ANNOTATION_KINDS[annotation.type] as unknown as AnnotationKind<A>;
}

/** The formatted measurement of an annotation's card; null for text notes. */
export function measureAnnotation(
  annotation: TypedAnnotation,
  pixelSpacingMm: number = DEFAULT_PIXEL_SPACING_MM,
): FormattedMeasurement | null {
  return kindOf(annotation).measure(annotation, pixelSpacingMm);
}

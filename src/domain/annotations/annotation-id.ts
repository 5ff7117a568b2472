/**
 * The annotation kinds and the id format of spec section 3 (`slice-type-label-color`). Kept in its
 * own module so that the manifest schema and the label allocation can both use it without a cycle.
 */
export const ANNOTATION_TYPES = ['ruler', 'area', 'text', 'angle'] as const;
export type AnnotationType = (typeof ANNOTATION_TYPES)[number];

/** `${slice}-${type}-${label}-${color}`, e.g. `12-ruler-A-#FFE411`. */
export function annotationId(slice: number, type: AnnotationType, label: string, color: string): string {
  return `${slice}-${type}-${label}-${color}`;
}

/**
 * Pure edits of the manifest: each returns a new manifest and leaves its argument untouched.
 * lastAnnotationSlice follows the user: the slice of the annotation just added or changed; after a
 * removal it stays when its slice still has annotations, otherwise it moves to the nearest slice
 * that has some (the lower one on a tie), or 0 when none are left.
 */
import { ANNOTATION_TYPES, type AnnotationManifest, type AnnotationType, type ManifestAnnotation, type TypedAnnotation } from './manifest.ts';
import { slicesWithAnnotations } from './labels.ts';

/** The manifest entry of a typed annotation (its `type` dropped; the list says the kind). */
export function untyped(annotation: TypedAnnotation): ManifestAnnotation {
  const { type: _type, ...rest } = annotation;
  return rest;
}

/** A manifest entry with its kind attached. */
export function typed(type: AnnotationType, annotation: ManifestAnnotation): TypedAnnotation {
  return { ...annotation, type } as TypedAnnotation;
}

/** Every annotation of the manifest, in list order (ruler, area, text, angle). */
export function allAnnotations(manifest: AnnotationManifest): TypedAnnotation[] {
  return ANNOTATION_TYPES.flatMap((type) => (manifest[type] as readonly ManifestAnnotation[]).map((a) => typed(type, a)));
}

/** The annotations of one slice, in drawing order (later ones on top). */
export function annotationsOnSlice(manifest: AnnotationManifest, slice: number): TypedAnnotation[] {
  return allAnnotations(manifest).filter((annotation) => annotation.slice === slice);
}

export function findAnnotation(manifest: AnnotationManifest, id: string): TypedAnnotation | null {
  return allAnnotations(manifest).find((annotation) => annotation.id === id) ?? null;
}

/**
 * The manifest with one list replaced. The callers only put entries of `type` into the list of
 * `type` (they come from that list, or are untyped annotations of that kind), which the record's
 * type cannot express for a `type` known only at run time.
 */
function withList(manifest: AnnotationManifest, type: AnnotationType, list: readonly ManifestAnnotation[]): AnnotationManifest {
  return { ...manifest, [type]: list };
}

/**
 * Appends an annotation. Throws when its id is already used: ids come from nextLabelAndColor,
 * which never repeats one on a slice, so a clash is a programming error.
 */
export function addAnnotation(manifest: AnnotationManifest, annotation: TypedAnnotation): AnnotationManifest {
  if (findAnnotation(manifest, annotation.id)) throw new Error(`annotation ${annotation.id} already exists`);
  const list: readonly ManifestAnnotation[] = manifest[annotation.type];
  return { ...withList(manifest, annotation.type, [...list, untyped(annotation)]), lastAnnotationSlice: annotation.slice };
}

/** Replaces the annotation of the same kind and id; an unknown id leaves the manifest as it is. */
export function updateAnnotation(manifest: AnnotationManifest, annotation: TypedAnnotation): AnnotationManifest {
  const list: readonly ManifestAnnotation[] = manifest[annotation.type];
  const index = list.findIndex((entry) => entry.id === annotation.id);
  if (index < 0) return manifest;
  const next = list.map((entry, i) => (i === index ? untyped(annotation) : entry));
  return { ...withList(manifest, annotation.type, next), lastAnnotationSlice: annotation.slice };
}

/** Removes the annotation with this id; an unknown id leaves the manifest as it is. */
export function removeAnnotation(manifest: AnnotationManifest, id: string): AnnotationManifest {
  const removed = findAnnotation(manifest, id);
  if (!removed) return manifest;
  const list: readonly ManifestAnnotation[] = manifest[removed.type];
  const next = withList(
    manifest,
    removed.type,
    list.filter((entry) => entry.id !== id),
  );
  const slices = slicesWithAnnotations(next);
  if (slices.includes(next.lastAnnotationSlice)) return next;
  let nearest = 0;
  for (const slice of slices) {
    if (nearest === 0 || Math.abs(slice - removed.slice) < Math.abs(nearest - removed.slice)) nearest = slice;
  }
  return { ...next, lastAnnotationSlice: nearest };
}

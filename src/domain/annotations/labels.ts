/**
 * Labels and colours of annotations, allocated per slice (spec sections 3 and 9).
 *
 * One per-slice counter n gives both: label = LABEL_LETTERS[n % 26], colour = SLICE_COLORS[n % 9].
 * For the first 26 annotations of a slice n is simply the label's index, so the colour is
 * SLICE_COLORS[(index of the label) % 9]: A yellow, B orange, ..., I pale green, J yellow again.
 * After Z the counter goes on (n = 26: label A, colour SLICE_COLORS[8]), so labels wrap to A while
 * the (label, colour) pair, and with it the id, stays new: pairs only repeat after
 * 234 = lcm(26, 9) annotations on one slice. Because 26 and 9 are coprime, every (label, colour)
 * pair found in a manifest maps back to exactly one n, so the counter is derived from the manifest
 * alone: the next n follows the highest n used on the slice ("continuing after the highest label"),
 * skipping any n still in use once it wraps round.
 */
import { LABEL_LETTERS, SLICE_COLORS } from '../constants.ts';
import type { AnnotationManifest } from './manifest.ts';

export { annotationId, ANNOTATION_TYPES, type AnnotationType } from './annotation-id.ts';

export type SliceColor = (typeof SLICE_COLORS)[number];
export type LabelAndColor = { label: string; color: SliceColor };

/** The number of distinct (label, colour) pairs: lcm(26, 9). */
export const LABEL_COLOR_CYCLE = LABEL_LETTERS.length * SLICE_COLORS.length;

/** The label and colour of counter value n (taken modulo LABEL_COLOR_CYCLE). */
export function labelAndColorAt(n: number): LabelAndColor {
  const k = ((n % LABEL_COLOR_CYCLE) + LABEL_COLOR_CYCLE) % LABEL_COLOR_CYCLE;
  return { label: LABEL_LETTERS[k % LABEL_LETTERS.length]!, color: SLICE_COLORS[k % SLICE_COLORS.length]! };
}

/** The counter value of a (label, colour) pair, or null for a label or colour outside the lists. */
export function counterOf(label: string, color: string): number | null {
  const letter = label.length === 1 ? LABEL_LETTERS.indexOf(label) : -1;
  const colorIndex = (SLICE_COLORS as readonly string[]).indexOf(color);
  if (letter < 0 || colorIndex < 0) return null;
  for (let n = letter; n < LABEL_COLOR_CYCLE; n += LABEL_LETTERS.length) {
    if (n % SLICE_COLORS.length === colorIndex) return n;
  }
  return null; // unreachable: 26 and 9 are coprime
}

/** Every annotation of the manifest as (slice, label, colour), whatever its kind. */
function labelled(manifest: AnnotationManifest): { slice: number; label: string; color: string }[] {
  return [...manifest.ruler, ...manifest.area, ...manifest.text, ...manifest.angle];
}

export type SliceState = {
  slice: number;
  /** How many annotations (all kinds) the slice has. */
  count: number;
  /** The highest counter value used on the slice, or -1 when it has none. */
  highest: number;
  /** The counter value of the next annotation. */
  next: number;
  /** The label and colour of the next annotation. */
  label: string;
  color: SliceColor;
};

/** The per-slice counter of spec section 3, derived from the annotations on that slice. */
export function sliceState(manifest: AnnotationManifest, slice: number): SliceState {
  const used = new Set<number>();
  let count = 0;
  for (const annotation of labelled(manifest)) {
    if (annotation.slice !== slice) continue;
    count++;
    const n = counterOf(annotation.label, annotation.color);
    if (n !== null) used.add(n);
  }
  const highest = used.size === 0 ? -1 : Math.max(...used);
  let next = (highest + 1) % LABEL_COLOR_CYCLE;
  // Once past the end of the cycle, skip values still in use (all in use: reuse the first one).
  for (let step = 0; step < LABEL_COLOR_CYCLE && used.has(next); step++) {
    next = (next + 1) % LABEL_COLOR_CYCLE;
  }
  if (used.size === LABEL_COLOR_CYCLE) next = (highest + 1) % LABEL_COLOR_CYCLE;
  return { slice, count, highest, next, ...labelAndColorAt(next) };
}

/** The label and colour for a new annotation on a slice. */
export function nextLabelAndColor(manifest: AnnotationManifest, slice: number): LabelAndColor {
  const { label, color } = sliceState(manifest, slice);
  return { label, color };
}

/** The slices that have at least one annotation, ascending (for the L-mode markers). */
export function slicesWithAnnotations(manifest: AnnotationManifest): number[] {
  return [...new Set(labelled(manifest).map((annotation) => annotation.slice))].sort((a, b) => a - b);
}

/**
 * Corrections of the contour set carried by the manifest: a manual contour per slice and border
 * (lumen or vessel), which wins over the automatic one; removing it brings the automatic result
 * back. A key frame is a manual contour with a reach: its correction is carried onto the
 * neighbouring slices too (contours/border-propagation.ts). Pure.
 */
import { borderOf, CONTOUR_BORDERS, DEFAULT_REACH_MM, type ContourBorder, type SliceContour } from './contour-set.ts';
import type { AnnotationManifest, Point } from './manifest.ts';

const sameBorder = (contour: SliceContour, slice: number, border: ContourBorder) => contour.slice === slice && borderOf(contour) === border;

/** A correction of this slice only (no reach), or with `reachMm` a key frame that propagates that far each way. */
export function setManualContour(manifest: AnnotationManifest, slice: number, controlPoints: readonly Point[], border: ContourBorder = 'lumen', reachMm?: number): AnnotationManifest {
  const others = (manifest.contours ?? []).filter((contour) => !sameBorder(contour, slice, border));
  // The border is always written out: only manifests saved before the vessel border leave it implied.
  const contour: SliceContour = { slice, border, controlPoints: controlPoints.map(({ x, y }) => ({ x, y })), source: 'manual', ...(reachMm === undefined ? {} : { reachMm }) };
  return { ...manifest, contours: [...others, contour].sort((a, b) => a.slice - b.slice || CONTOUR_BORDERS.indexOf(borderOf(a)) - CONTOUR_BORDERS.indexOf(borderOf(b))) };
}

export function removeManualContour(manifest: AnnotationManifest, slice: number, border: ContourBorder = 'lumen'): AnnotationManifest {
  if (!manifest.contours?.some((contour) => sameBorder(contour, slice, border))) return manifest;
  return { ...manifest, contours: manifest.contours.filter((contour) => !sameBorder(contour, slice, border)) };
}

/**
 * A key frame: the corrected border of a slice, carried onto its neighbours up to `reachMm` each way
 * (or to the next key frame of that border). Undo is removeManualContour: nothing propagated is stored.
 */
export function setKeyFrame(manifest: AnnotationManifest, slice: number, controlPoints: readonly Point[], border: ContourBorder, reachMm: number = DEFAULT_REACH_MM): AnnotationManifest {
  return setManualContour(manifest, slice, controlPoints, border, reachMm);
}

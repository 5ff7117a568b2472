/**
 * Corrections of the contour set carried by the manifest: a manual contour per slice and border
 * (lumen or vessel), which wins over the automatic one; removing it brings the automatic result
 * back. Pure.
 */
import { borderOf, CONTOUR_BORDERS, type ContourBorder, type SliceContour } from './contour-set.ts';
import type { AnnotationManifest, Point } from './manifest.ts';

const sameBorder = (contour: SliceContour, slice: number, border: ContourBorder) => contour.slice === slice && borderOf(contour) === border;

export function setManualContour(manifest: AnnotationManifest, slice: number, controlPoints: readonly Point[], border: ContourBorder = 'lumen'): AnnotationManifest {
  const others = (manifest.contours ?? []).filter((contour) => !sameBorder(contour, slice, border));
  // The border is always written out: only manifests saved before the vessel border leave it implied.
  const contour: SliceContour = { slice, border, controlPoints: controlPoints.map(({ x, y }) => ({ x, y })), source: 'manual' };
  return { ...manifest, contours: [...others, contour].sort((a, b) => a.slice - b.slice || CONTOUR_BORDERS.indexOf(borderOf(a)) - CONTOUR_BORDERS.indexOf(borderOf(b))) };
}

export function removeManualContour(manifest: AnnotationManifest, slice: number, border: ContourBorder = 'lumen'): AnnotationManifest {
  if (!manifest.contours?.some((contour) => sameBorder(contour, slice, border))) return manifest;
  return { ...manifest, contours: manifest.contours.filter((contour) => !sameBorder(contour, slice, border)) };
}

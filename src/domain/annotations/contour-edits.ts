/**
 * Corrections of the lumen contour set carried by the manifest: a manual contour per slice, which
 * wins over the automatic one; removing it brings the automatic result back. Pure.
 */
import type { SliceContour } from '../contours/contour-set.ts';
import type { AnnotationManifest, Point } from './manifest.ts';

export function setManualContour(manifest: AnnotationManifest, slice: number, controlPoints: readonly Point[]): AnnotationManifest {
  const others = (manifest.contours ?? []).filter((contour) => contour.slice !== slice);
  const contour: SliceContour = { slice, controlPoints: controlPoints.map(({ x, y }) => ({ x, y })), source: 'manual' };
  return { ...manifest, contours: [...others, contour].sort((a, b) => a.slice - b.slice) };
}

export function removeManualContour(manifest: AnnotationManifest, slice: number): AnnotationManifest {
  if (!manifest.contours?.some((contour) => contour.slice === slice)) return manifest;
  return { ...manifest, contours: manifest.contours.filter((contour) => contour.slice !== slice) };
}

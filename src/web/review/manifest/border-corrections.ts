import { setKeyFrame } from '../../../domain/annotations/contour-edits.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import { DEFAULT_REACH_MM } from '../../../domain/contours/border-propagation.ts';
import type { AnnotationStore } from './annotation-store.ts';

/**
 * A border corrected by hand, on the cross-section or on the L-mode, is stored as a key frame
 * (issue 25): the correction is carried onto the neighbouring slices (default reach, 2 mm each way)
 * instead of leaving a one-frame notch in the detected border. One undo step; undo removes the key
 * frame and with it everything propagated from it (nothing propagated is stored).
 */
export function commitBorderCorrection(store: AnnotationStore, slice: number, controlPoints: readonly Point[], border: ContourBorder, reachMm: number = DEFAULT_REACH_MM): void {
  store.commit(setKeyFrame(store.getSnapshot().history.present, slice, controlPoints, border, reachMm));
}

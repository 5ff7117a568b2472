import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { MIN_WALL_MM } from '../../../domain/contours/border-propagation.ts';
import { cutDistanceOfRow, cutToPolar, frameCentre, keyFrameFromLmodeDrag, type KeyFrame } from '../../../domain/contours/lmode-borders.ts';
import type { BorderHit } from '../tools/lmode-border-tool.machine.ts';
import type { Size } from '../view/view-transform.ts';
import { lmodeColumnLength } from './lmode-sampling.ts';

/** The least distance from the catheter a dropped border keeps, px: a drop across the centre stays on its side. */
const MIN_RADIUS_PX = 1;

/**
 * The key frame a border line dropped at image row `imageY` of the L-mode makes on the pressed
 * frame: the border now shown there (detected, propagated or corrected) takes the dropped radius at
 * the cut, on the side it was pressed on, reshaped over ±30°, never crossing the frame's other
 * border (0.1 mm of wall kept, as propagation keeps).
 */
export function keyFrameForDrop(analysis: CorrectedAnalysis, hit: BorderHit, imageY: number, frame: Size, angleRad: number, pixelSpacingMm: number): KeyFrame {
  const slice = analysis.slices[hit.slice - 1];
  if (!slice) throw new RangeError(`slice ${hit.slice} is not in the analysis`);
  const length = lmodeColumnLength(frame.width, frame.height);
  const distance = cutDistanceOfRow(imageY - 0.5, length);
  const onSide = hit.side === 'toward' ? Math.max(MIN_RADIUS_PX, distance) : Math.min(-MIN_RADIUS_PX, distance);
  const lumen = slice.controlPoints;
  const vessel = slice.vessel?.controlPoints ?? [];
  const other = hit.border === 'lumen' ? { side: 'outside' as const, controlPoints: vessel } : { side: 'inside' as const, controlPoints: lumen };
  return keyFrameFromLmodeDrag(hit.slice, hit.border, {
    controlPoints: hit.border === 'lumen' ? lumen : vessel,
    centre: frameCentre(frame.width, frame.height),
    to: cutToPolar(angleRad, onSide),
    ...(other.controlPoints.length >= 3 ? { other } : {}),
    minGapPx: MIN_WALL_MM / pixelSpacingMm,
  });
}

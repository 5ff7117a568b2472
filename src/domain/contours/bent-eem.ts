/**
 * A neighbour frame whose final EEM is bent (issue 23: continuity helps, and never carries a
 * failure). carried-eem.ts searches the EEM again without the EEM's own continuity, but the EEM
 * search also depends on the lumen (its forbidden zone, the shadow test measured from it), and the
 * lumen has its own continuity: on the low-signal-arc evaluation seed 2203 frame 1042 the lumen held
 * by the frame before keeps the EEM bent (0.065 mm from its ellipse, vessel Dice 0.84) both with and
 * without the EEM's continuity, while the frame alone reads 0.985. So when the final EEM of a frame
 * its neighbour shaped is still bent, the frame is detected alone as well (detectInSequence), and
 * the result alone kept when its EEM is near-elliptical: the same shape rule and thresholds as the
 * carried-EEM check, applied to the whole detection.
 */
import type { BorderDetection } from './border-detection.ts';
import { CARRIED_RESIDUAL_MM, FREE_RESIDUAL_MM } from './carried-eem.ts';

/** Whether `detection`'s EEM lies further from its robust ellipse than an EEM does (unknown or unfittable: not bent). */
export function isBentEem(detection: BorderDetection): boolean {
  const residual = detection.eemResidualMm;
  return residual !== undefined && Number.isFinite(residual) && residual > CARRIED_RESIDUAL_MM;
}

/** Whether `alone`, the frame detected alone, has a near-elliptical EEM to put in place of a bent one. */
export function straightensEem(alone: BorderDetection): boolean {
  return alone.eemResidualMm !== undefined && alone.eemResidualMm < FREE_RESIDUAL_MM;
}

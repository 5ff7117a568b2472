/**
 * A neighbour frame that is wrong and sure of itself (issue 23): the temporal cue, or the continuity
 * of the frame before, lets the lumen grow through dark plaque (echolucent plaque, a low-signal arc,
 * a branch ostium) until it lies on the EEM. Its confidence stays high, for the blood contrast at
 * that border is real and it barely moves from the frame before, so no confidence trigger asks for
 * a second opinion. What gives it away is the shape: a lumen within a fifth of a millimetre of the
 * EEM over more than a few per cent of the circumference, where the plaque and the media should be.
 * Read from both borders' radii, so it costs nothing but a pass over 360 rays.
 *
 * Fitted on the TUNING seeds of bench:contours-order (bench/contours-neighbour-diagnosis.ts shows one
 * run frame by frame): of 5,523 sequence frames a neighbour shaped, 230 hug the EEM over more than
 * HUG_SHARE of the rays. Taking the frame alone for those whose result alone does not hug, has a
 * lumen at least HUG_GROWN_MM smaller and about the same EEM, gains on every one of them (no loss
 * over 0.016 Dice, frame by frame); without the EEM condition the swaps lost up to 0.23 vessel Dice
 * (mixed 20 MHz, NURD: a thin wall that is real, the result alone with a worse EEM).
 */
import type { BorderDetection } from './border-detection.ts';

/** A wall thinner than this (lumen to EEM) counts as the lumen lying on the EEM: plaque and media together are thicker. */
export const HUG_MM = 0.2;
/** Share of the rays over which the lumen may lie on the EEM before the frame is detected alone as well. */
export const HUG_SHARE = 0.06;
/** The result alone is taken when it hugs on less than this fraction of the sequence result's rays... */
const HUG_KEEP = 0.5;
/** ... its lumen's mean radius is at least this much smaller ... */
const HUG_GROWN_MM = 0.03;
/** ... and its EEM within this mean radial distance of the sequence result's. */
const HUG_VESSEL_MM = 0.1;

/** Share of the rays on which the lumen lies within HUG_MM of the vessel border. */
export function wallHugShare(detection: BorderDetection, pixelSpacingMm: number): number {
  const lumen = detection.lumen.radiiPx;
  const vessel = detection.vessel.radiiPx;
  const limitPx = HUG_MM / pixelSpacingMm;
  let thin = 0;
  for (let a = 0; a < lumen.length; a++) if (vessel[a]! - lumen[a]! < limitPx) thin++;
  return lumen.length > 0 ? thin / lumen.length : 0;
}

/**
 * Whether `sequence` (hugging the EEM on `hug` of its rays) is a lumen grown onto the EEM that `alone`,
 * the same frame detected alone, does not share: alone hugs far less, its lumen is smaller and its EEM the same.
 */
export function lumenGrewOntoEem(sequence: BorderDetection, hug: number, alone: BorderDetection, pixelSpacingMm: number): boolean {
  return (
    wallHugShare(alone, pixelSpacingMm) < HUG_KEEP * hug &&
    meanOf(sequence.lumen.radiiPx) > meanOf(alone.lumen.radiiPx) + HUG_GROWN_MM / pixelSpacingMm &&
    meanDistance(sequence.vessel.radiiPx, alone.vessel.radiiPx) < HUG_VESSEL_MM / pixelSpacingMm
  );
}

function meanOf(values: Float32Array): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / Math.max(1, values.length);
}

function meanDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / Math.max(1, a.length);
}

/**
 * The per-ray evidence both border searches share (border-detector.ts step 5): the prefix sums of
 * the smoothed polar image S along each ray (every step response is a difference of two of them),
 * which samples are lit (carry speckle: a shadow is clipped to black and flat), and the rays that
 * see nothing at all (behind the guidewire, off the frame), whose radii are interpolated.
 */
import { widen } from './radial-profile.ts';

/** Blind-ray test: past this radius, a ray with less than this share of lit samples sees nothing. */
export const BLIND_BAND_START_MM = 0.8;
const BLIND_SHARE = 0.03;
/** Rays beside a blind ray are blind too (the guidewire's shadow has soft edges). */
export const BLIND_MARGIN_RAYS = 2;

export interface RayEvidenceGrid {
  readonly angleCount: number;
  readonly sampleCount: number;
  /** Samples each ray holds inside the frame. */
  readonly insideCount: Int32Array;
  /** Sample from which the blind test counts lit samples (BLIND_BAND_START_MM). */
  readonly blindStart: number;
  /** Fewer samples than this in the band: the ray is blind. */
  readonly minSamples: number;
}

/**
 * Fills `lit` (variance above `litLevel`) and `prefixRows` (angleCount rows of sampleCount + 1
 * sums of `smooth`), and returns the blind rays (1), widened by BLIND_MARGIN_RAYS.
 */
export function rayEvidence(smooth: Float32Array, variance: Float32Array, litLevel: number, grid: RayEvidenceGrid, lit: Uint8Array, prefixRows: Float64Array): Uint8Array {
  const { angleCount, sampleCount, insideCount, blindStart, minSamples } = grid;
  const blind = new Uint8Array(angleCount);
  const from = Math.max(0, blindStart);
  // One sweep per ray: the lit samples, the prefix sums and the lit count of the blind band together.
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const prow = a * (sampleCount + 1);
    const to = Math.min(sampleCount, insideCount[a]!);
    let sum = 0;
    let seen = 0;
    prefixRows[prow] = 0;
    for (let k = 0; k < sampleCount; k++) {
      const on = variance[row + k]! > litLevel ? 1 : 0;
      lit[row + k] = on;
      if (k >= from && k < to) seen += on;
      prefixRows[prow + k + 1] = sum += smooth[row + k]!;
    }
    const count = to > from ? to - from : 0;
    if (count < minSamples || seen < BLIND_SHARE * count) blind[a] = 1;
  }
  widen(blind, BLIND_MARGIN_RAYS);
  return blind;
}

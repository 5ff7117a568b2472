/**
 * The lumen's search cost and the small per-ray helpers of the border search (see
 * border-detector.ts for the method).
 *
 *   cost_l(a, k) = −ω_r Σ_{k_ring ≤ k' < k} w(a, k') L(a, k')  −  ω_e min(E_l(a, k) / σ, EDGE_CAP)
 *
 * with L the blood log-odds, E_l the step response of the smoothed image S over W_i samples inside
 * and W_o outside, σ the speckle's standard deviation, and the weight w(a, k') = 1 on samples that
 * carry speckle, ω_unlit on black samples in front of any strong echo (20 MHz blood falls below the
 * display floor, but so does an echolucent plaque: weak evidence), and 0 on black samples behind a
 * strong echo (a shadow is no evidence of anything). Blind rays cost nothing.
 */
import { FORBIDDEN, stepAt } from './vessel-search.ts';

/** Largest edge response counted, in speckle standard deviations: an edge localises a border, it
 * must not outvote the region evidence (the EEM's step is the strongest in the image). */
const EDGE_CAP = 4;

export interface LumenCostInputs {
  readonly logit: Float32Array;
  /** 1 where a sample carries speckle. */
  readonly lit: Uint8Array;
  readonly smooth: Float32Array;
  readonly prefixRows: Float64Array;
  readonly blind: Uint8Array;
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly candidateFirst: number;
  readonly candidateCount: number;
  readonly ringEnd: number;
}

export interface LumenCostWeights {
  readonly inner: number;
  readonly outer: number;
  readonly sigma: number;
  readonly brightLevel: number;
  readonly regionWeight: number;
  readonly unlitWeight: number;
  readonly edgeWeight: number;
}

export function buildLumenCost(inputs: LumenCostInputs, weights: LumenCostWeights, cost: Float32Array): void {
  const { logit, lit, smooth, prefixRows, blind, angleCount, sampleCount, candidateFirst, candidateCount, ringEnd } = inputs;
  const { inner, outer, sigma, brightLevel, regionWeight, unlitWeight, edgeWeight } = weights;
  const edgeScale = 1 / sigma;
  for (let a = 0; a < angleCount; a++) {
    const out = a * candidateCount;
    if (blind[a] === 1) {
      cost.fill(0, out, out + candidateCount);
      continue;
    }
    const row = a * sampleCount;
    const prow = a * (sampleCount + 1);
    let region = 0;
    let shadowed = false;
    for (let c = 0; c < candidateCount; c++) {
      const k = candidateFirst + c;
      const e = stepAt(prefixRows, prow, k, inner, outer) * edgeScale;
      cost[out + c] = -regionWeight * region - edgeWeight * (e > EDGE_CAP ? EDGE_CAP : e);
      if (smooth[row + k]! > brightLevel) shadowed = true;
      if (k < ringEnd) continue;
      if (lit[row + k] === 1) region += logit[row + k]!;
      else if (!shadowed) region += unlitWeight * logit[row + k]!;
    }
  }
}

/** Far more than the rounding error of |c − expected| − free (candidates and radii in the hundreds). */
const FREE_MARGIN = 1e-6;

/** Continuity with the previous frame's radii: γ · max(0, |k − k_prev| − τ) per candidate. */
export function addContinuity(cost: Float32Array, previousRadii: Float32Array | null, step: number, angleCount: number, candidateCount: number, candidateSample0: number, free: number, weight: number): void {
  if (!previousRadii) return;
  for (let a = 0; a < angleCount; a++) {
    const expected = previousRadii[a]! / step - candidateSample0;
    const out = a * candidateCount;
    // Candidates well within `free` of the expected one pay nothing: skipped without the test. The
    // margin keeps every candidate whose excess could round above 0 on the tested path, so the
    // costs are the same to the bit.
    const below = Math.min(candidateCount, Math.max(0, Math.ceil(expected - free + FREE_MARGIN)));
    const above = Math.max(below, Math.min(candidateCount, Math.floor(expected + free - FREE_MARGIN) + 1));
    for (let c = 0; c < below; c++) {
      const excess = Math.abs(c - expected) - free;
      if (excess > 0 && cost[out + c]! < FORBIDDEN) cost[out + c]! += weight * excess;
    }
    for (let c = above; c < candidateCount; c++) {
      const excess = Math.abs(c - expected) - free;
      if (excess > 0 && cost[out + c]! < FORBIDDEN) cost[out + c]! += weight * excess;
    }
  }
}

/** Sub-sample offset of the step-response peak at sample k (parabola through k − 1, k, k + 1). */
export function refine(prefix: Float64Array, base: number, k: number, inner: number, outer: number, low: number, high: number): number {
  if (k <= low || k >= high) return 0;
  const left = stepAt(prefix, base, k - 1, inner, outer);
  const centre = stepAt(prefix, base, k, inner, outer);
  const right = stepAt(prefix, base, k + 1, inner, outer);
  const curvature = left - 2 * centre + right;
  return curvature < 0 ? Math.max(-1, Math.min(1, (0.5 * (left - right)) / curvature)) : 0;
}

/** Mean blood log-odds in the band just inside the lumen border minus just outside it, over the seeing rays. */
export function lumenBloodContrast(logit: Float32Array, radii: Float32Array, blind: Uint8Array, angleCount: number, sampleCount: number, firstSample: number, step: number, band: number, insideCount: Int32Array): number {
  let sum = 0;
  let rays = 0;
  for (let a = 0; a < angleCount; a++) {
    if (blind[a] === 1) continue;
    const k = Math.round(radii[a]! / step - firstSample);
    const row = a * sampleCount;
    let inner = 0;
    let outer = 0;
    let ni = 0;
    let no = 0;
    for (let j = Math.max(0, k - band - 2); j < k - 2; j++, ni++) inner += logit[row + j]!;
    for (let j = k + 2; j < Math.min(insideCount[a]!, k + band + 2); j++, no++) outer += logit[row + j]!;
    if (ni === 0 || no === 0) continue;
    sum += inner / ni - outer / no;
    rays++;
  }
  return rays > 0 ? sum / rays : 0;
}

/**
 * The vessel border (external elastic membrane) and the rays on which a border cannot be seen.
 *
 * EEM cost. Outside the plaque the media is a thin hypoechoic band and the adventitia behind it the
 * brightest layer of the wall, so the EEM is the outward dark-to-bright step at the media-adventitia
 * interface. On the smoothed polar image S, with windows W_m (media) and W_a (adventitia),
 *      E_v(a, k) = mean(S[a][k .. k + W_a − 1]) − mean(S[a][k − W_m .. k − 1]),
 *      A(a, k)  = mean(S[a][k .. k + W_a − 1]) − m_b,
 *      cost_v(a, k) = −α min(E_v / σ, 6) − β min(A / σ, 6) + δ · mean_{k − W_m − W_p ≤ k' < k} max(0, L(a, k'))
 * with m_b the blood level, σ the speckle's standard deviation, and the last term charging
 * for blood evidence L (the log-odds) just inside the candidate: the EEM has plaque and media
 * inside it, never blood. Candidates closer than the minimal plaque+media thickness to the lumen
 * are forbidden, which couples the two searches.
 *
 * Shadows. A ray is blind for both borders when almost nothing past the guidewire's echoes rises
 * above the mid level (the wire hides everything behind it). It is blind for the vessel only when a
 * strong echo (calcium, a stent strut) just outside the lumen is followed by almost no signal: the
 * EEM behind it is invisible and is interpolated across the shadow from the rays on each side.
 */
import { ELLIPSE_TERMS, ellipseTerms } from './ellipse-terms.ts';

/** The step response of one ray from its prefix sums (starting at prefix[base]): mean of the next `outer` minus the previous `inner` samples. */
export function stepAt(prefix: Float64Array, base: number, k: number, inner: number, outer: number): number {
  const at = base + k;
  return (prefix[at + outer]! - prefix[at]!) / outer - (prefix[at]! - prefix[at - inner]!) / inner;
}

export interface VesselCostParameters {
  readonly mediaWindow: number;
  readonly adventitiaWindow: number;
  /** Samples of plaque (beyond the media window) checked for blood evidence. */
  readonly plaqueWindow: number;
  readonly edgeWeight: number;
  readonly brightWeight: number;
  readonly bloodWeight: number;
  readonly bloodLevel: number;
  readonly sigma: number;
}

/**
 * EEM cost of every candidate (sample candidateFirst + c, c < candidateCount) on every ray into
 * `cost`, forbidding (FORBIDDEN) candidates closer than minGap samples beyond lumen[a] (a
 * candidate index). `prefixRows` are per-ray prefix sums of S (sampleCount + 1 each), `logit` the
 * blood log-odds.
 */
export function vesselCost(
  prefixRows: Float64Array,
  logit: Float32Array,
  lumen: Int32Array,
  minGap: number,
  angleCount: number,
  sampleCount: number,
  candidateFirst: number,
  candidateCount: number,
  parameters: VesselCostParameters,
  cost: Float32Array,
): void {
  // Two rays at a time: each ray's running blood sum is added in its own order as before (the same
  // costs to the bit), the two chains of additions side by side (one chain's additions wait on each
  // other; two keep the processor busy).
  const grid = { prefixRows, logit, lumen, minGap, sampleCount, candidateFirst, candidateCount, parameters, cost };
  let a = 0;
  for (; a + 1 < angleCount; a += 2) vesselCostRays(grid, a, 2);
  if (a < angleCount) vesselCostRays(grid, a, 1);
}

/** vesselCost's inputs and output, as it passes them on to vesselCostRays. */
interface EemCostGrid {
  readonly prefixRows: Float64Array;
  readonly logit: Float32Array;
  readonly lumen: Int32Array;
  readonly minGap: number;
  readonly sampleCount: number;
  readonly candidateFirst: number;
  readonly candidateCount: number;
  readonly parameters: VesselCostParameters;
  readonly cost: Float32Array;
}

/** vesselCost of ray a, and of ray a + 1 too when `rays` is 2. */
function vesselCostRays(grid: EemCostGrid, a: number, rays: 1 | 2): void {
  const { prefixRows, logit, lumen, minGap, sampleCount, candidateFirst, candidateCount, parameters, cost } = grid;
  const { mediaWindow, plaqueWindow, sigma } = parameters;
  const inverseSigma = 1 / sigma;
  const back = mediaWindow + plaqueWindow;
  const second = rays === 2 ? 1 : 0;
  const prefixRow = a * (sampleCount + 1);
  const prefixRow2 = (a + second) * (sampleCount + 1);
  const row = a * sampleCount;
  const row2 = (a + second) * sampleCount;
  const out = a * candidateCount;
  const out2 = (a + second) * candidateCount;
  const firstAllowed = lumen[a]! + minGap;
  const firstAllowed2 = lumen[a + second]! + minGap;
  // Running blood evidence over the window just inside the candidate, one sum per ray.
  let blood = 0;
  let blood2 = 0;
  const k0 = candidateFirst;
  for (let j = Math.max(0, k0 - back); j < k0; j++) {
    blood += Math.max(0, logit[row + j]!);
    blood2 += Math.max(0, logit[row2 + j]!);
  }
  for (let c = 0; c < candidateCount; c++) {
    const k = candidateFirst + c;
    if (c > 0) {
      blood += Math.max(0, logit[row + k - 1]!);
      blood2 += Math.max(0, logit[row2 + k - 1]!);
      if (k - back - 1 >= 0) {
        blood -= Math.max(0, logit[row + k - back - 1]!);
        blood2 -= Math.max(0, logit[row2 + k - back - 1]!);
      }
    }
    cost[out + c] = c < firstAllowed ? FORBIDDEN : eemCostAt(prefixRows, prefixRow + k, blood, parameters, inverseSigma, back);
    // With one ray, the second is the same ray: its cost written twice, the same value.
    cost[out2 + c] = c < firstAllowed2 ? FORBIDDEN : eemCostAt(prefixRows, prefixRow2 + k, blood2, parameters, inverseSigma, back);
  }
}

/** The EEM cost of the candidate at prefix index `at` given the blood evidence summed inside it. */
function eemCostAt(prefixRows: Float64Array, at: number, blood: number, parameters: VesselCostParameters, inverseSigma: number, back: number): number {
  const { mediaWindow, adventitiaWindow, edgeWeight, brightWeight, bloodWeight, bloodLevel } = parameters;
  const outerMean = (prefixRows[at + adventitiaWindow]! - prefixRows[at]!) / adventitiaWindow;
  const innerMean = (prefixRows[at]! - prefixRows[at - mediaWindow]!) / mediaWindow;
  const edge = Math.min(VESSEL_CAP, (outerMean - innerMean) * inverseSigma);
  const bright = Math.min(VESSEL_CAP, (outerMean - bloodLevel) * inverseSigma);
  return -edgeWeight * edge - brightWeight * bright + (bloodWeight * blood) / back;
}

/**
 * vesselCost for another lumen from the frame's unconstrained costs (`free`: vesselCost with no
 * candidate forbidden): a candidate's cost does not depend on the lumen (its running blood sum starts
 * at the ray's first candidate whatever the lumen), only which candidates are FORBIDDEN does. Equal
 * to vesselCost's result to the bit, for a copy instead of the sums: the EEM is searched up to four
 * times a frame (a first EEM without a previous frame, again round a side branch).
 */
export function vesselCostForLumen(free: Float32Array, lumen: Int32Array, minGap: number, angleCount: number, candidateCount: number, cost: Float32Array): void {
  cost.set(free);
  for (let a = 0; a < angleCount; a++) {
    const out = a * candidateCount;
    const firstAllowed = lumen[a]! + minGap;
    if (firstAllowed > 0) cost.fill(FORBIDDEN, out, out + Math.min(candidateCount, firstAllowed));
  }
}

/** Largest edge and brightness counted, in speckle standard deviations. */
const VESSEL_CAP = 6;

/** Cost of a forbidden candidate: large, finite so the search's sums never overflow. */
export const FORBIDDEN = 1e7;

/**
 * Marks in `blind` (1 = blind) the rays whose band past the lumen holds a strong echo (above
 * `bright`) followed by almost no signal: less than `maxShare` of the `shadowBand` samples from
 * `shadowGap` behind the echo carry speckle (`lit`: local variance above the no-signal level).
 * "Behind the echo" is behind its peak, or, given `echoEndShare`, behind where the image falls
 * below that share of the peak: calcium is a band up to 0.2 mm thick whose brightest sample may
 * lie at its front, and its back half is no signal behind it. `shadowStart` gets the sample where
 * a marked ray's shadow window begins.
 */
export function shadowedRays(
  smooth: Float32Array,
  lit: Uint8Array,
  lumenSample: Float32Array,
  insideCount: Int32Array,
  angleCount: number,
  sampleCount: number,
  searchBand: number,
  shadowGap: number,
  shadowBand: number,
  bright: number,
  maxShare: number,
  blind: Uint8Array,
  echoEndShare = 0,
  shadowStart?: Int32Array,
): void {
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const end = Math.min(sampleCount, insideCount[a]!);
    const start = Math.max(0, Math.round(lumenSample[a]!));
    let peak = -1;
    let peakValue = bright;
    for (let k = start; k < Math.min(end, start + searchBand); k++) {
      if (smooth[row + k]! > peakValue) {
        peakValue = smooth[row + k]!;
        peak = k;
      }
    }
    if (peak < 0) continue;
    // With echoEndShare, the shadow is read from where the echo ends rather than from its peak.
    let echoEnd = peak;
    if (echoEndShare > 0) while (echoEnd + 1 < Math.min(end, peak + searchBand) && smooth[row + echoEnd + 1]! > echoEndShare * peakValue) echoEnd++;
    let count = 0;
    let seen = 0;
    for (let k = echoEnd + shadowGap; k < Math.min(end, echoEnd + shadowGap + shadowBand); k++) {
      count++;
      seen += lit[row + k]!;
    }
    if (count > 0 && seen < maxShare * count) {
      blind[a] = 1;
      if (shadowStart) shadowStart[a] = echoEnd + shadowGap;
    }
  }
}

/**
 * The EEM's expected shape, and side branches. The EEM is close to an ellipse around a centre near
 * the catheter, so its radius is fitted into `fit`, ignoring blind rays, by least squares with the
 * harmonics 0..2,
 *      r(θ) ≈ c₀ + c₁ cos θ + s₁ sin θ + c₂ cos 2θ + s₂ sin 2θ,
 * five times, each time keeping the rays within −max(3 s, floor) .. +max(1.5 s, floor) of the fit
 * (s = 1.48 · the median absolute residual: a robust spread; trimmed harder outwards, the side
 * branches are on). At a branch's ostium the wall is missing over a sector: blood runs on past
 * where the EEM would be and both searches follow it out; such rays (branchRays) saw no wall, and
 * both borders bridge the ostium by interpolation. False when too few rays see.
 */
export function robustEemFit(radii: ArrayLike<number>, blind: Uint8Array, floor: number, fit: Float64Array, start?: Uint8Array): boolean {
  const n = radii.length;
  const weight = new Uint8Array(n);
  // The first fit: over every seeing ray, or over the rays `start` marks (1 = use).
  for (let a = 0; a < n; a++) weight[a] = blind[a] === 1 || (start !== undefined && start[a] === 0) ? 0 : 1;
  // A typed array sorted without a comparator: the same ascending order for these absolute
  // residuals (never negative, never NaN) at a fraction of the cost of a number[] and a comparator.
  const residuals = new Float64Array(n);
  for (let iteration = 0; iteration < 5; iteration++) {
    if (!fitHarmonics(radii, weight, fit)) return false;
    let count = 0;
    for (let a = 0; a < n; a++) if (weight[a] === 1) residuals[count++] = Math.abs(radii[a]! - fit[a]!);
    const sorted = residuals.subarray(0, count).sort();
    // Branches lie outside only: trimmed harder on that side.
    const spread = 1.4826 * (sorted[Math.floor(count / 2)] ?? 0);
    const low = -Math.max(floor, 3 * spread);
    const high = Math.max(floor, 1.5 * spread);
    for (let a = 0; a < n; a++) {
      const residual = radii[a]! - fit[a]!;
      weight[a] = blind[a] === 0 && residual >= low && residual <= high ? 1 : 0;
    }
  }
  return true;
}

/** Marks in `branch` the runs of at least `minRun` seeing rays whose EEM lies more than `excess` outside `fit`; returns how many. */
export function branchRays(radii: Int32Array, fit: Float64Array, blind: Uint8Array, excess: number, minRun: number, branch: Uint8Array): number {
  const n = radii.length;
  branch.fill(0);
  const out = new Uint8Array(n);
  for (let a = 0; a < n; a++) out[a] = blind[a] === 0 && radii[a]! - fit[a]! > excess ? 1 : 0;
  let marked = 0;
  for (let a = 0; a < n; a++) {
    if (out[a] === 0 || out[(a + n - 1) % n] === 1) continue;
    let length = 0;
    while (length < n && out[(a + length) % n] === 1) length++;
    if (length < minRun) continue;
    for (let j = 0; j < length; j++) branch[(a + j) % n] = 1;
    marked += length;
  }
  return marked;
}

/** Weighted least squares of r(θ) on 1, cos θ, sin θ, cos 2θ, sin 2θ into `fit`; false if too few rays. */
export function fitHarmonics(radii: ArrayLike<number>, weight: Uint8Array, fit: Float64Array): boolean {
  const n = radii.length;
  const m = ELLIPSE_TERMS;
  const terms = ellipseTerms(n);
  const normal = new Float64Array(m * m);
  const right = new Float64Array(m);
  // The sums in locals (five terms, ELLIPSE_TERMS): each entry adds the same products in the same
  // order as a loop over the matrix would, so the fit is the same to the bit, without a load and a
  // store of the matrix per product. The upper triangle only: the matrix is symmetric (t_i t_j =
  // t_j t_i exactly), mirrored below.
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
  let n00 = 0, n01 = 0, n02 = 0, n03 = 0, n04 = 0, n11 = 0, n12 = 0, n13 = 0, n14 = 0, n22 = 0, n23 = 0, n24 = 0, n33 = 0, n34 = 0, n44 = 0;
  let count = 0;
  for (let a = 0; a < n; a++) {
    if (weight[a] === 0) continue;
    count++;
    const basis = a * m;
    const r = radii[a]!;
    const t0 = terms[basis]!;
    const t1 = terms[basis + 1]!;
    const t2 = terms[basis + 2]!;
    const t3 = terms[basis + 3]!;
    const t4 = terms[basis + 4]!;
    r0 += t0 * r;
    r1 += t1 * r;
    r2 += t2 * r;
    r3 += t3 * r;
    r4 += t4 * r;
    n00 += t0 * t0;
    n01 += t0 * t1;
    n02 += t0 * t2;
    n03 += t0 * t3;
    n04 += t0 * t4;
    n11 += t1 * t1;
    n12 += t1 * t2;
    n13 += t1 * t3;
    n14 += t1 * t4;
    n22 += t2 * t2;
    n23 += t2 * t3;
    n24 += t2 * t4;
    n33 += t3 * t3;
    n34 += t3 * t4;
    n44 += t4 * t4;
  }
  if (count < n / 4) return false;
  right.set([r0, r1, r2, r3, r4]);
  normal.set([n00, n01, n02, n03, n04, 0, n11, n12, n13, n14, 0, 0, n22, n23, n24, 0, 0, 0, n33, n34, 0, 0, 0, 0, n44]);
  for (let i = 1; i < m; i++) for (let j = 0; j < i; j++) normal[i * m + j] = normal[j * m + i]!;
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let row = col + 1; row < m; row++) if (Math.abs(normal[row * m + col]!) > Math.abs(normal[pivot * m + col]!)) pivot = row;
    if (Math.abs(normal[pivot * m + col]!) < 1e-9) return false;
    if (pivot !== col) {
      for (let j = 0; j < m; j++) {
        const held = normal[col * m + j]!;
        normal[col * m + j] = normal[pivot * m + j]!;
        normal[pivot * m + j] = held;
      }
      const held = right[col]!;
      right[col] = right[pivot]!;
      right[pivot] = held;
    }
    for (let row = 0; row < m; row++) {
      if (row === col) continue;
      const factor = normal[row * m + col]! / normal[col * m + col]!;
      for (let j = col; j < m; j++) normal[row * m + j]! -= factor * normal[col * m + j]!;
      right[row]! -= factor * right[col]!;
    }
  }
  for (let a = 0; a < n; a++) {
    const basis = a * m;
    let value = 0;
    for (let i = 0; i < m; i++) value += (terms[basis + i]! * right[i]!) / normal[i * m + i]!;
    fit[a] = value;
  }
  return true;
}

/**
 * The EEM's ellipse robust to one wide arc of outliers, for the shape prior across low-signal arcs
 * (eem-shape-prior.ts, issue 23).
 *
 * Fitted on the rays that saw a wall (wallEemFit), it must be robust to a whole missing arc.
 * The outliers of a wide arc are contiguous and may be a third of the rays, too many for a fit
 * that starts from all rays (a second harmonic bends towards a bulge of that width). So each
 * hypothesis leaves out one contiguous arc (none, or up to ARC_WIDTHS_DEG wide, at every
 * ARC_STEP_DEG), fits
 *      r(θ) ≈ c₀ + c₁ cos θ + s₁ sin θ + c₂ cos 2θ + s₂ sin 2θ
 * to the other rays, and scores it over all of them by the truncated squared residual (MSAC:
 * min(residual², tolerance²)). The best hypothesis's inliers (the narrower arc on a tie) seed
 * robustEemFit's trimmed iterations; the rays it left out stay out. The detector's side-branch
 * test (border-detector.ts step 7) measures the EEM against this ellipse.
 */
import { robustEemFit } from './vessel-search.ts';
import { ELLIPSE_TERMS, ellipseTerms } from './ellipse-terms.ts';

/** Widths of the arcs left out by the hypotheses, degrees. */
const ARC_WIDTHS_DEG = [0, 40, 80, 120, 160] as const;
/** Start of the left-out arc every this many degrees. */
const ARC_STEP_DEG = 10;

/**
 * The EEM's robust ellipse into `fit` (radii in `radii` units), ignoring blind rays, robust to one
 * wide arc of outliers; `tolerance` is an inlier's largest distance from a hypothesis, `floor` the
 * trimming floor of robustEemFit. False when too few rays see.
 */
export function arcRobustEemFit(radii: ArrayLike<number>, blind: Uint8Array, tolerance: number, floor: number, fit: Float64Array): boolean {
  const n = radii.length;
  const basis = ellipseTerms(n);
  // Running sums round the circle of the seeing rays' normal equations (b bᵀ and b r), so that each
  // hypothesis's equations are the total less its arc's: 150 hypotheses cost about one fit each.
  // Only the matrix's upper triangle and the right-hand side are summed (UPPER): b_i b_j = b_j b_i
  // exactly, so the lower triangle, mirrored from it, holds the very sums it would have. The
  // buffer is kept between calls (it is large for a per-frame allocation); every entry read is written first.
  const stride = TERMS * TERMS + TERMS;
  if (runningBuffer.length < (n + 1) * stride) runningBuffer = new Float64Array((n + 1) * stride);
  const running = runningBuffer;
  for (const q of UPPER) running[q] = 0;
  for (let a = 0; a < n; a++) {
    const from = a * stride;
    const to = from + stride;
    for (const q of UPPER) running[to + q] = running[from + q]!;
    if (blind[a] === 1) continue;
    for (let i = 0; i < TERMS; i++) {
      const bi = basis[a * TERMS + i]!;
      for (let j = i; j < TERMS; j++) running[to + i * TERMS + j]! += bi * basis[a * TERMS + j]!;
      running[to + TERMS * TERMS + i]! += bi * radii[a]!;
    }
  }
  // Seeing rays before each ray (seeingBefore[n]: all of them), so that an arc's count is a difference, not a loop per hypothesis.
  if (seeingBuffer.length < n + 1) seeingBuffer = new Int32Array(n + 1);
  const seeingBefore = seeingBuffer;
  seeingBefore[0] = 0;
  for (let a = 0; a < n; a++) seeingBefore[a + 1] = seeingBefore[a]! + (blind[a] === 1 ? 0 : 1);
  const seeing = seeingBefore[n]!;
  const equations = new Float64Array(stride);
  const coefficients = new Float64Array(TERMS);
  const trial = new Float64Array(n);
  let bestLoss = Infinity;
  let bestWeight: Uint8Array | null = null;
  const cap = tolerance * tolerance;
  for (const widthDeg of ARC_WIDTHS_DEG) {
    const width = Math.round((widthDeg * n) / 360);
    const starts = width === 0 ? 1 : Math.round(360 / ARC_STEP_DEG);
    for (let s = 0; s < starts; s++) {
      const start = Math.round((s * n) / starts);
      // The total less the arc [start, start + width) (which may wrap round).
      const end = start + width;
      let left = seeing;
      for (const q of UPPER) {
        const arcSum = end <= n ? running[end * stride + q]! - running[start * stride + q]! : running[n * stride + q]! - running[start * stride + q]! + running[(end - n) * stride + q]!;
        equations[q] = running[n * stride + q]! - arcSum;
      }
      for (let i = 1; i < TERMS; i++) for (let j = 0; j < i; j++) equations[i * TERMS + j] = equations[j * TERMS + i]!;
      left -= end <= n ? seeingBefore[end]! - seeingBefore[start]! : seeing - seeingBefore[start]! + seeingBefore[end - n]!;
      if (left < n / 4 || !solveNormal(equations, coefficients)) continue;
      // Truncated squares (MSAC): exact on most rays beats near on all, which a fit bent towards a
      // bulge can be. The terms are never negative, so a hypothesis is dropped as soon as its sum
      // reaches the best one's (most do early: the same choice, for a fraction of the work).
      // The five terms are summed in the order of the loop they replace (from 0, term 0 first), so
      // every value is the same to the bit; this loop is the fit's cost (150 hypotheses a call).
      const c0 = coefficients[0]!;
      const c1 = coefficients[1]!;
      const c2 = coefficients[2]!;
      const c3 = coefficients[3]!;
      const c4 = coefficients[4]!;
      let loss = 0;
      for (let a = 0; a < n && loss < bestLoss; a++) {
        if (blind[a] !== 0) continue;
        const b = a * TERMS;
        let value = 0;
        value += basis[b]! * c0;
        value += basis[b + 1]! * c1;
        value += basis[b + 2]! * c2;
        value += basis[b + 3]! * c3;
        value += basis[b + 4]! * c4;
        trial[a] = value;
        const residual = radii[a]! - value;
        loss += Math.min(cap, residual * residual);
      }
      // Strictly less: on a tie the narrower arc (tried first) stays.
      if (loss < bestLoss) {
        bestLoss = loss;
        bestWeight = new Uint8Array(n);
        for (let a = 0; a < n; a++) bestWeight[a] = blind[a] === 0 && Math.abs(radii[a]! - trial[a]!) <= tolerance ? 1 : 0;
      }
    }
  }
  if (bestWeight === null) return false;
  // The inliers of the best hypothesis start the trimmed iterations; the other rays count as blind there.
  const outliers = new Uint8Array(n);
  for (let a = 0; a < n; a++) outliers[a] = bestWeight[a] === 1 ? 0 : 1;
  // Rays outside the best hypothesis stay out: a bulge's shoulders, near enough to a fit bent
  // towards them, would pull it out again.
  return robustEemFit(radii, outliers, floor, fit);
}

const TERMS = ELLIPSE_TERMS;
/** Indices of the normal equations' upper triangle (row-major) and right-hand side, as arcRobustEemFit sums them. */
const UPPER: readonly number[] = [
  ...Array.from({ length: TERMS }, (_, i) => Array.from({ length: TERMS - i }, (_, d) => i * TERMS + i + d)).flat(),
  ...Array.from({ length: TERMS }, (_, i) => TERMS * TERMS + i),
];
let runningBuffer = new Float64Array(0);
let seeingBuffer = new Int32Array(0);

/** Solves the normal equations (TERMS × TERMS matrix then right-hand side, in `equations`, which it overwrites) into `out`; false if singular. */
function solveNormal(equations: Float64Array, out: Float64Array): boolean {
  const m = TERMS;
  const rhs = m * m;
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let row = col + 1; row < m; row++) if (Math.abs(equations[row * m + col]!) > Math.abs(equations[pivot * m + col]!)) pivot = row;
    if (Math.abs(equations[pivot * m + col]!) < 1e-9) return false;
    if (pivot !== col) {
      for (let j = 0; j <= m; j++) {
        // j = m: the right-hand side's entries.
        const p = j < m ? pivot * m + j : rhs + pivot;
        const c = j < m ? col * m + j : rhs + col;
        const held = equations[c]!;
        equations[c] = equations[p]!;
        equations[p] = held;
      }
    }
    for (let row = 0; row < m; row++) {
      if (row === col) continue;
      const factor = equations[row * m + col]! / equations[col * m + col]!;
      for (let j = col; j < m; j++) equations[row * m + j]! -= factor * equations[col * m + j]!;
      equations[rhs + row]! -= factor * equations[rhs + col]!;
    }
  }
  for (let i = 0; i < m; i++) out[i] = equations[rhs + i]! / equations[i * m + i]!;
  return true;
}

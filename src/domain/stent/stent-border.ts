/**
 * The stent border of a frame: a smooth closed curve through the struts around it (issue 28). A
 * frame shows only 5 to 10 struts, and the guidewire's or a calcium's shadow hides some, so the
 * curve is fitted to the struts of the frames within a fraction of a millimetre (the cell pattern
 * turns the struts from frame to frame, so neighbours fill the gaps between them) as a radius
 * around the catheter with two harmonics: r(θ) = c0 + c1 cos θ + s1 sin θ + c2 cos 2θ + s2 sin 2θ.
 * The first harmonic is a circle off the catheter's centre, the second its ovality; that is the
 * shape a stent holds. Struts off the curve by far more than the others (a mistaken echo) are
 * dropped and the curve fitted again.
 */
import type { Strut } from './strut-detection.ts';

export interface StentBorder {
  /** The five coefficients [c0, c1, s1, c2, s2], in mm. */
  readonly coefficients: readonly number[];
  /** How many struts the curve went through (after dropping outliers). */
  readonly strutCount: number;
}

/** Fewer struts than this, or struts on one side only, and the frame's stent is not measurable. */
export const MIN_STRUTS = 5;
/**
 * The ovality is damped by this weight per strut (ridge regression): where struts cover the circle
 * it changes nothing, and where a shadow hides an arc it keeps the curve from bulging there. Ovality
 * repeats every half turn, so struts opposite a hidden arc still tell it.
 */
const OVAL_DAMPING = 0.02;
/** With struts missing over more than this arc, the curve is not drawn at all. */
const MAX_GAP_RAD = (7 * Math.PI) / 6;
const OUTLIER_MM = 0.12;

export function stentRadiusAt(border: Pick<StentBorder, 'coefficients'>, angleRad: number): number {
  const [c0, c1, s1, c2, s2] = border.coefficients as [number, number, number, number, number];
  return c0 + c1 * Math.cos(angleRad) + s1 * Math.sin(angleRad) + c2 * Math.cos(2 * angleRad) + s2 * Math.sin(2 * angleRad);
}

/** Area inside the border (exact for the harmonic curve): π (c0² + (c1² + s1² + c2² + s2²) / 2). */
export function stentBorderAreaMm2(border: StentBorder): number {
  const [c0, c1, s1, c2, s2] = border.coefficients as [number, number, number, number, number];
  return Math.PI * (c0 * c0 + 0.5 * (c1 * c1 + s1 * s1 + c2 * c2 + s2 * s2));
}

/** The widest arc around the catheter without a strut. */
export function largestGapRad(struts: readonly Pick<Strut, 'angleRad'>[]): number {
  if (struts.length === 0) return 2 * Math.PI;
  return largestGapOfSorted(struts.map((s) => aroundOnce(s.angleRad)).sort((a, b) => a - b), struts.length);
}

const aroundOnce = (angleRad: number): number => ((angleRad % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);

/** The widest gap between the first `count` angles, sorted, in [0, 2π), wrapping round. */
function largestGapOfSorted(angles: ArrayLike<number>, count: number): number {
  let gap = angles[0]! + 2 * Math.PI - angles[count - 1]!;
  for (let k = 1; k < count; k++) gap = Math.max(gap, angles[k]! - angles[k - 1]!);
  return gap;
}

/**
 * The border through the struts, or null where they are too few or leave too wide an arc empty.
 * The worst strut is dropped while it lies far off the curve (one at a time: a stray echo pulls
 * the curve towards itself, and so away from its good neighbours), at most a third of them.
 *
 * Each strut's model terms and angle are found once, not once per round (a record's stent fits
 * hundreds of struts a frame and drops up to a third of them one by one: this was nearly all of the
 * record's stent analysis, on the server's main thread after every strut is read). Each round still
 * sums the kept struts in their order, so every border is the same to the bit as refitting from
 * scratch. Angles and radii must be finite (the strut detector's always are): then no residual is
 * NaN, and the median found by selection is the value the sort put in the middle.
 */
export function fitStentBorder(struts: readonly Strut[]): StentBorder | null {
  const count = struts.length;
  for (const s of struts) {
    if (!Number.isFinite(s.angleRad) || !Number.isFinite(s.radiusMm)) throw new RangeError(`a strut's angle and radius must be finite, got ${s.angleRad} rad, ${s.radiusMm} mm`);
  }
  const terms = modelTerms(struts);
  /** The kept struts' indices, in their original order (dropping one keeps the others' order). */
  const kept = Int32Array.from({ length: count }, (_, i) => i);
  const sortedAngles = Float64Array.from(struts, (s) => aroundOnce(s.angleRad)).sort();
  const residuals = new Float64Array(count);
  const maxDropped = Math.floor(count / 3);
  let keptCount = count;
  for (let dropped = 0; ; dropped++) {
    if (keptCount < MIN_STRUTS) return null;
    if (largestGapOfSorted(sortedAngles, keptCount) > MAX_GAP_RAD) return null;
    const coefficients = leastSquares(terms, kept, keptCount);
    if (coefficients === null) return null;
    const border: StentBorder = { coefficients, strutCount: keptCount };
    if (dropped === maxDropped) return border;
    const [c0, c1, s1, c2, s2] = coefficients as [number, number, number, number, number];
    // The first largest residual is the one dropped (as indexOf of the largest found it).
    let worst = 0;
    for (let q = 0; q < keptCount; q++) {
      const i = kept[q]!;
      residuals[q] = Math.abs(terms.radius[i]! - (c0 + c1 * terms.cos1[i]! + s1 * terms.sin1[i]! + c2 * terms.cos2[i]! + s2 * terms.sin2[i]!));
      if (residuals[q]! > residuals[worst]!) worst = q;
    }
    const worstResidual = residuals[worst]!;
    // The limit is never below OUTLIER_MM: within it, the median does not matter.
    if (worstResidual <= OUTLIER_MM) return border;
    const median = kthSmallest(residuals, keptCount, keptCount >> 1);
    if (worstResidual <= Math.max(OUTLIER_MM, 3 * median)) return border;
    const angle = aroundOnce(struts[kept[worst]!]!.angleRad);
    sortedAngles.copyWithin(sortedAngles.indexOf(angle), sortedAngles.indexOf(angle) + 1, keptCount);
    kept.copyWithin(worst, worst + 1, keptCount);
    keptCount--;
  }
}

/** The k-th smallest of values[0 .. count − 1] (none NaN), by selection (Hoare partitions): the order of `values` is lost. */
export function kthSmallest(values: Float64Array, count: number, k: number): number {
  let lo = 0;
  let hi = count - 1;
  while (hi > lo) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

/**
 * The harmonic curve nearest a border given as points around the catheter (a border drawn by hand,
 * sampled densely along it): what the malapposition reads on a frame whose stent border was
 * corrected (its lines need the border as a radius per angle). Null for fewer than 5 points.
 */
export function fitStentCurve(samples: readonly Pick<Strut, 'angleRad' | 'radiusMm'>[]): StentBorder | null {
  if (samples.length < MIN_STRUTS) return null;
  const coefficients = leastSquares(modelTerms(samples), Int32Array.from({ length: samples.length }, (_, i) => i), samples.length);
  return coefficients === null ? null : { coefficients, strutCount: samples.length };
}

/** Per strut, the model's terms cos θ, sin θ, cos 2θ, sin 2θ and its radius. */
interface ModelTerms {
  readonly cos1: Float64Array;
  readonly sin1: Float64Array;
  readonly cos2: Float64Array;
  readonly sin2: Float64Array;
  readonly radius: Float64Array;
}

function modelTerms(struts: readonly Pick<Strut, 'angleRad' | 'radiusMm'>[]): ModelTerms {
  const n = struts.length;
  const terms = { cos1: new Float64Array(n), sin1: new Float64Array(n), cos2: new Float64Array(n), sin2: new Float64Array(n), radius: new Float64Array(n) };
  struts.forEach((s, i) => {
    const t = s.angleRad;
    terms.cos1[i] = Math.cos(t);
    terms.sin1[i] = Math.sin(t);
    terms.cos2[i] = Math.cos(2 * t);
    terms.sin2[i] = Math.sin(2 * t);
    terms.radius[i] = s.radiusMm;
  });
  return terms;
}

/**
 * Least squares of the harmonic model over the struts kept[0 .. count − 1], by its normal equations,
 * the second harmonic damped. Each cell sums row[i] · row[j] over the struts in their order (row =
 * [1, cos θ, sin θ, cos 2θ, sin 2θ]); the matrix is symmetric, so each pair of cells is summed once.
 */
function leastSquares(terms: ModelTerms, kept: Int32Array, count: number): number[] | null {
  let a00 = 0, a01 = 0, a02 = 0, a03 = 0, a04 = 0, a11 = 0, a12 = 0, a13 = 0, a14 = 0, a22 = 0, a23 = 0, a24 = 0, a33 = 0, a34 = 0, a44 = 0;
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0;
  for (let q = 0; q < count; q++) {
    const i = kept[q]!;
    const r1 = terms.cos1[i]!;
    const r2 = terms.sin1[i]!;
    const r3 = terms.cos2[i]!;
    const r4 = terms.sin2[i]!;
    const y = terms.radius[i]!;
    a00 += 1;
    a01 += r1;
    a02 += r2;
    a03 += r3;
    a04 += r4;
    a11 += r1 * r1;
    a12 += r1 * r2;
    a13 += r1 * r3;
    a14 += r1 * r4;
    a22 += r2 * r2;
    a23 += r2 * r3;
    a24 += r2 * r4;
    a33 += r3 * r3;
    a34 += r3 * r4;
    a44 += r4 * r4;
    b0 += y;
    b1 += r1 * y;
    b2 += r2 * y;
    b3 += r3 * y;
    b4 += r4 * y;
  }
  a33 += OVAL_DAMPING * count;
  a44 += OVAL_DAMPING * count;
  const a = [
    Float64Array.of(a00, a01, a02, a03, a04, b0),
    Float64Array.of(a01, a11, a12, a13, a14, b1),
    Float64Array.of(a02, a12, a22, a23, a24, b2),
    Float64Array.of(a03, a13, a23, a33, a34, b3),
    Float64Array.of(a04, a14, a24, a34, a44, b4),
  ];
  return solveAugmented(a, 5);
}

/** Gaussian elimination with partial pivoting of an n × (n + 1) augmented matrix (rows swapped and reduced in place). */
export function solveAugmented(a: Float64Array[], n: number): number[] | null {
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-9) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= n; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return Array.from({ length: n }, (_, i) => a[i]![n]! / a[i]![i]!);
}

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
  const angles = struts.map((s) => ((s.angleRad % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)).sort((a, b) => a - b);
  let gap = angles[0]! + 2 * Math.PI - angles[angles.length - 1]!;
  for (let k = 1; k < angles.length; k++) gap = Math.max(gap, angles[k]! - angles[k - 1]!);
  return gap;
}

/**
 * The border through the struts, or null where they are too few or leave too wide an arc empty.
 * The worst strut is dropped while it lies far off the curve (one at a time: a stray echo pulls
 * the curve towards itself, and so away from its good neighbours), at most a third of them.
 */
export function fitStentBorder(struts: readonly Strut[]): StentBorder | null {
  const kept = struts.slice();
  const maxDropped = Math.floor(struts.length / 3);
  for (let dropped = 0; ; dropped++) {
    if (kept.length < MIN_STRUTS) return null;
    const gap = largestGapRad(kept);
    if (gap > MAX_GAP_RAD) return null;
    const coefficients = leastSquares(kept);
    if (coefficients === null) return null;
    const border: StentBorder = { coefficients, strutCount: kept.length };
    if (dropped === maxDropped) return border;
    const residuals = kept.map((s) => Math.abs(s.radiusMm - stentRadiusAt(border, s.angleRad)));
    const sorted = residuals.slice().sort((a, b) => a - b);
    const limit = Math.max(OUTLIER_MM, 3 * sorted[sorted.length >> 1]!);
    const worst = residuals.indexOf(sorted[sorted.length - 1]!);
    if (residuals[worst]! <= limit) return border;
    kept.splice(worst, 1);
  }
}

/**
 * The harmonic curve nearest a border given as points around the catheter (a border drawn by hand,
 * sampled densely along it): what the malapposition reads on a frame whose stent border was
 * corrected (its lines need the border as a radius per angle). Null for fewer than 5 points.
 */
export function fitStentCurve(samples: readonly Pick<Strut, 'angleRad' | 'radiusMm'>[]): StentBorder | null {
  if (samples.length < MIN_STRUTS) return null;
  const coefficients = leastSquares(samples);
  return coefficients === null ? null : { coefficients, strutCount: samples.length };
}

/** Least squares of the harmonic model, by its normal equations, the second harmonic damped. */
function leastSquares(struts: readonly Pick<Strut, 'angleRad' | 'radiusMm'>[]): number[] | null {
  const n = 5;
  const a = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (const s of struts) {
    const t = s.angleRad;
    const row = [1, Math.cos(t), Math.sin(t), Math.cos(2 * t), Math.sin(2 * t)];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i]![j]! += row[i]! * row[j]!;
      a[i]![n]! += row[i]! * s.radiusMm;
    }
  }
  a[3]![3]! += OVAL_DAMPING * struts.length;
  a[4]![4]! += OVAL_DAMPING * struts.length;
  return solve(a, n);
}

/** Gaussian elimination with partial pivoting of an n × (n + 1) augmented matrix. */
function solve(a: Float64Array[], n: number): number[] | null {
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

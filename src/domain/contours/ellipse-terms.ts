/**
 * The terms of the EEM's ellipse model r(θ) ≈ c₀ + c₁ cos θ + s₁ sin θ + c₂ cos 2θ + s₂ sin 2θ at
 * each ray θ = 2πa / n, computed once per ray count: every robust fit of a frame (vessel-search.ts,
 * eem-shape-prior.ts) evaluates them at every ray several times, and the trigonometry was most of
 * that work.
 */

/** Terms of the ellipse model: 1, cos θ, sin θ, cos 2θ, sin 2θ. */
export const ELLIPSE_TERMS = 5;

const tables = new Map<number, Float64Array>();

/** The model's terms at each of n rays (n × ELLIPSE_TERMS, ray-major). Shared: do not write to it. */
export function ellipseTerms(n: number): Float64Array {
  let table = tables.get(n);
  if (table === undefined) {
    table = new Float64Array(n * ELLIPSE_TERMS);
    for (let a = 0; a < n; a++) {
      const angle = (2 * Math.PI * a) / n;
      table.set([1, Math.cos(angle), Math.sin(angle), Math.cos(2 * angle), Math.sin(2 * angle)], a * ELLIPSE_TERMS);
    }
    tables.set(n, table);
  }
  return table;
}

/** Small robust statistics over the motion signal (quantiles, a running floor, autocorrelation). */

export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const position = Math.min(sorted.length - 1, Math.max(0, q * (sorted.length - 1)));
  const low = Math.floor(position);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * The signal's floor around each sample: a low quantile over a centred window. It follows the slow
 * changes of the still frames' difference along the pullback (brighter tissue, more blood) so that
 * what stands above it is motion.
 */
export function runningQuantile(values: Float64Array, halfWindow: number, q: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const from = Math.max(0, i - halfWindow);
    const to = Math.min(values.length, i + halfWindow + 1);
    out[i] = quantile(values.subarray(from, to), q);
  }
  return out;
}

/** Normalised autocorrelation of a zero-mean signal at a lag (1 at lag 0, near 0 for noise). */
export function autocorrelation(values: Float64Array, lag: number): number {
  let energy = 0;
  for (let i = 0; i < values.length; i++) energy += values[i]! * values[i]!;
  if (energy === 0 || lag >= values.length) return 0;
  let sum = 0;
  for (let i = 0; i + lag < values.length; i++) sum += values[i]! * values[i + lag]!;
  // Scaled for the overlap, so long lags are not penalised for having fewer terms.
  return (sum / (values.length - lag)) / (energy / values.length);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

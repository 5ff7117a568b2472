/**
 * Aligning the previous frame's polar image with the current one before the temporal speckle cue
 * compares them. Between frames the heart moves the vessel relative to the catheter (a shift of a
 * few hundredths of a millimetre per frame, a small rotation, dilation) and the catheter's
 * rotation is not uniform (NURD): without alignment the persistent tissue speckle decorrelates
 * like blood. Blood decorrelates whatever the shift, so a shift that makes a region match is the
 * tissue's motion.
 *
 * Block matching: the polar image is cut into blocks of B_a rays by B_k samples; per block the
 * integer shift (Δa, Δk) within ±A rays and ±K samples minimising
 *      SSD(Δa, Δk) = Σ_{(a, k) ∈ block, every 2nd} (S_P(a, k) − S_Q(a + Δa, k + Δk))² · (1 + ε (Δa² + Δk²))
 * is kept (S_P, S_Q the 3 x 3 means; ε slightly favours no motion where nothing matches, as in
 * black shadows), searched coarse to fine (Δk in steps of 2, then ±1), but only when it halves the
 * unshifted SSD: the best of many shifts of random (blood) speckle is always a little better than
 * none, and taking it would make blood look persistent. The aligned image is
 *      Q'(a, k) = Q(a + Δa_b, k + Δk_b),  b the block holding (a, k).
 */

export interface AlignmentOptions {
  readonly blockRays: number;
  readonly blockSamples: number;
  readonly maxRayShift: number;
  readonly maxSampleShift: number;
}

const SHIFT_PENALTY = 0.01;
/** A shift is taken only when it leaves at most this share of the unshifted block's SSD. */
const ACCEPT_SHARE = 0.5;

/**
 * Writes into `aligned` the previous polar image `previous` shifted block by block onto the current
 * one (both angleCount rows of sampleCount samples); `currentMean` and `previousMean` are their
 * 3 x 3 means. Samples before `first` (the ring-down) are copied unshifted and not matched. Returns the
 * mean absolute shift in samples (how much the frame moved).
 */
export function alignPrevious(
  previous: Float32Array,
  currentMean: Float32Array,
  previousMean: Float32Array,
  angleCount: number,
  sampleCount: number,
  first: number,
  options: AlignmentOptions,
  aligned: Float32Array,
): number {
  const { blockRays, blockSamples, maxRayShift, maxSampleShift } = options;
  // The coarse grid of shifts (Δk in steps of 2, no (0, 0)), in the order they are tried.
  const shifts: number[] = [];
  for (let da = -maxRayShift; da <= maxRayShift; da++) {
    for (let dk = -maxSampleShift; dk <= maxSampleShift; dk += 2) if (da !== 0 || dk !== 0) shifts.push(da, dk);
  }
  const shiftCount = shifts.length / 2;
  aligned.set(previous);
  let moved = 0;
  let blocks = 0;
  for (let a0 = 0; a0 < angleCount; a0 += blockRays) {
    const a1 = Math.min(angleCount, a0 + blockRays);
    for (let k0 = first; k0 < sampleCount; k0 += blockSamples) {
      const k1 = Math.min(sampleCount, k0 + blockSamples);
      let bestA = 0;
      let bestK = 0;
      const still = blockSsd(currentMean, previousMean, angleCount, sampleCount, a0, a1, k0, k1, 0, 0);
      if (still === 0) continue;
      let best = still;
      // The coarse shifts in their order, two at a time (blockSsdPair: two sums side by side, each
      // in its own order); each is then taken or not exactly as if tried alone.
      for (let i = 0; i < shiftCount; i += 2) {
        const da = shifts[2 * i]!;
        const dk = shifts[2 * i + 1]!;
        const weight = 1 + SHIFT_PENALTY * (da * da + dk * dk);
        if (i + 1 === shiftCount) {
          const ssd = blockSsd(currentMean, previousMean, angleCount, sampleCount, a0, a1, k0, k1, da, dk, best, weight) * weight;
          if (ssd < best) {
            best = ssd;
            bestA = da;
            bestK = dk;
          }
          break;
        }
        const da2 = shifts[2 * i + 2]!;
        const dk2 = shifts[2 * i + 3]!;
        const weight2 = 1 + SHIFT_PENALTY * (da2 * da2 + dk2 * dk2);
        blockSsdPair(currentMean, previousMean, angleCount, sampleCount, a0, a1, k0, k1, da, dk, weight, da2, dk2, weight2, best, pairSums);
        const ssd = pairSums[0]! * weight;
        if (ssd < best) {
          best = ssd;
          bestA = da;
          bestK = dk;
        }
        const ssd2 = pairSums[1]! * weight2;
        if (ssd2 < best) {
          best = ssd2;
          bestA = da2;
          bestK = dk2;
        }
      }
      for (const dk of [bestK - 1, bestK + 1]) {
        if (Math.abs(dk) > maxSampleShift) continue;
        const weight = 1 + SHIFT_PENALTY * (bestA * bestA + dk * dk);
        const ssd = blockSsd(currentMean, previousMean, angleCount, sampleCount, a0, a1, k0, k1, bestA, dk, best, weight) * weight;
        if (ssd < best) {
          best = ssd;
          bestK = dk;
        }
      }
      blocks++;
      // Blood matches no shift: the best of many shifts of random speckle is only a little better
      // than none. Moving tissue matches one shift far better.
      if (best > ACCEPT_SHARE * still || (bestA === 0 && bestK === 0)) continue;
      moved += Math.abs(bestK) + Math.abs(bestA);
      for (let a = a0; a < a1; a++) {
        const from = ((a + bestA + angleCount) % angleCount) * sampleCount;
        const row = a * sampleCount;
        for (let k = k0; k < k1; k++) {
          const j = k + bestK;
          aligned[row + k] = previous[from + (j < 0 ? 0 : j >= sampleCount ? sampleCount - 1 : j)]!;
        }
      }
    }
  }
  return blocks > 0 ? moved / blocks : 0;
}

/**
 * Sum of squared differences over every 2nd ray and sample of a block, the previous image shifted
 * by (da, dk). With a `bound`, it may stop early, returning a partial sum whose product with
 * `weight` already reaches the bound: the terms are never negative, so the full sum could not beat
 * it either, and the caller's choice is the same as with the full sum.
 */
function blockSsd(
  current: Float32Array,
  previous: Float32Array,
  angleCount: number,
  sampleCount: number,
  a0: number,
  a1: number,
  k0: number,
  k1: number,
  da: number,
  dk: number,
  bound = Infinity,
  weight = 1,
): number {
  // Most blocks' shifted samples stay on the ray: no clamping needed (same sums, same order).
  if (k0 + dk >= 0 && k1 - 1 + dk < sampleCount) return insideSsd(current, previous, angleCount, sampleCount, a0, a1, k0, k1, da, dk, 0, bound, weight);
  let sum = 0;
  for (let a = a0; a < a1; a += 2) {
    const from = ((a + da + angleCount) % angleCount) * sampleCount;
    const row = a * sampleCount;
    for (let k = k0; k < k1; k += 2) {
      const j = k + dk;
      const e = current[row + k]! - previous[from + (j < 0 ? 0 : j >= sampleCount ? sampleCount - 1 : j)]!;
      sum += e * e;
    }
  }
  return sum;
}

/** blockSsd's rows from a0 on, every shifted sample on the ray, added to `sum`; stops early as blockSsd does. */
function insideSsd(
  current: Float32Array,
  previous: Float32Array,
  angleCount: number,
  sampleCount: number,
  a0: number,
  a1: number,
  k0: number,
  k1: number,
  da: number,
  dk: number,
  sum: number,
  bound: number,
  weight: number,
): number {
  for (let a = a0; a < a1; a += 2) {
    const row = a * sampleCount;
    const shifted = ((a + da + angleCount) % angleCount) * sampleCount + dk;
    for (let k = k0; k < k1; k += 2) {
      const e = current[row + k]! - previous[shifted + k]!;
      sum += e * e;
    }
    if (sum * weight >= bound) return sum;
  }
  return sum;
}

/** The two results of blockSsdPair (kept between calls: it runs for every pair of shifts of every block). */
const pairSums = new Float64Array(2);

/**
 * blockSsd of two shifts at once into `out`, both against the same `bound`: each sum is added in
 * blockSsd's order (the same value to the bit), the two chains of additions side by side instead of
 * one after the other (a sum's additions wait on each other; two sums keep the processor busy).
 * The caller compares the second with a best that the first may have lowered: a sum that reached
 * the older bound reaches the lower one too, so the choice is the one made trying them in turn.
 */
function blockSsdPair(
  current: Float32Array,
  previous: Float32Array,
  angleCount: number,
  sampleCount: number,
  a0: number,
  a1: number,
  k0: number,
  k1: number,
  da: number,
  dk: number,
  weight: number,
  da2: number,
  dk2: number,
  weight2: number,
  bound: number,
  out: Float64Array,
): void {
  const inside = k0 + dk >= 0 && k1 - 1 + dk < sampleCount;
  const inside2 = k0 + dk2 >= 0 && k1 - 1 + dk2 < sampleCount;
  if (!inside || !inside2) {
    out[0] = blockSsd(current, previous, angleCount, sampleCount, a0, a1, k0, k1, da, dk, bound, weight);
    out[1] = blockSsd(current, previous, angleCount, sampleCount, a0, a1, k0, k1, da2, dk2, bound, weight2);
    return;
  }
  let sum = 0;
  let sum2 = 0;
  for (let a = a0; a < a1; a += 2) {
    const row = a * sampleCount;
    const shifted = ((a + da + angleCount) % angleCount) * sampleCount + dk;
    const shifted2 = ((a + da2 + angleCount) % angleCount) * sampleCount + dk2;
    for (let k = k0; k < k1; k += 2) {
      const c = current[row + k]!;
      const e = c - previous[shifted + k]!;
      const e2 = c - previous[shifted2 + k]!;
      sum += e * e;
      sum2 += e2 * e2;
    }
    const done = sum * weight >= bound;
    const done2 = sum2 * weight2 >= bound;
    if (done || done2) {
      out[0] = done ? sum : insideSsd(current, previous, angleCount, sampleCount, a + 2, a1, k0, k1, da, dk, sum, bound, weight);
      out[1] = done2 ? sum2 : insideSsd(current, previous, angleCount, sampleCount, a + 2, a1, k0, k1, da2, dk2, sum2, bound, weight2);
      return;
    }
  }
  out[0] = sum;
  out[1] = sum2;
}

/**
 * The scanner's log compression of echo power to an 8-bit grey level,
 *      level(p) = clamp(trunc(gain · ln p + offset), 0, 255),
 * without a logarithm per sample. Math.log was a third of a frame's rendering (issue 23: a
 * 3,600-frame demo record is 1.3 million of them per core-second budget). The level is a step
 * function of p, so it is found from its 255 steps instead:
 *
 * - thresholds[n] is the least power whose level is n or more, found once per look by evaluating
 *   the formula itself (Math.exp only gives the starting guess; the step is then walked to the exact
 *   double), so the table reproduces the formula's every rounding.
 * - A sample's power is located among the steps by the top bits of its float64 representation
 *   (exponent and 8 mantissa bits: buckets 0.4 % wide, narrower than one grey level, which is
 *   exp(1 / gain) − 1 ≈ 4.6 % wide), which gives the level at the bucket's start; at most a step
 *   or two further comparisons finish it.
 *
 * The result is the formula's, bit for bit, for every power (tests/domain/synthetic/log-compression.test.ts
 * checks the neighbours of every step and random powers across the whole range).
 */

/** Mantissa bits kept in a bucket index, beside the 11 exponent bits. */
const BUCKET_MANTISSA_BITS = 8;
const BUCKET_SHIFT = 20 - BUCKET_MANTISSA_BITS;

export interface LogCompression {
  readonly gain: number;
  readonly offset: number;
  /** thresholds[n], n = 1..255: the least power mapped to level n or above; [0] = 0, [256] = ∞. */
  readonly thresholds: Float64Array;
  /** The level at the start of each bucket, from the bucket of thresholds[1] on. */
  readonly bucketLevels: Uint8Array;
  /** The bucket index (high word of the float64, shifted) of thresholds[1]. */
  readonly firstBucket: number;
}

/** The formula itself: what the table must reproduce. */
export function compressedLevel(gain: number, offset: number, power: number): number {
  const value = gain * Math.log(power) + offset;
  return value <= 0 ? 0 : value >= 255 ? 255 : Math.trunc(value);
}

const scratch = new Float64Array(1);
const scratchBits = new BigUint64Array(scratch.buffer);
const scratchWords = new Uint32Array(scratch.buffer);
/** The high 32 bits of a double, in the platform's byte order (little-endian: word 1). */
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

function adjacentDouble(value: number, direction: 1 | -1): number {
  scratch[0] = value;
  scratchBits[0] = scratchBits[0]! + (direction === 1 ? 1n : -1n);
  return scratch[0]!;
}

function bucketOf(value: number): number {
  scratch[0] = value;
  return scratchWords[HIGH_WORD]! >>> BUCKET_SHIFT;
}

/** The least positive double whose level is at least n (1 ≤ n ≤ 255). */
function exactThreshold(gain: number, offset: number, n: number): number {
  let t = Math.exp((n - offset) / gain);
  if (!(t > 0) || !Number.isFinite(t)) throw new RangeError(`log compression step ${n} lies outside the doubles (gain ${gain}, offset ${offset})`);
  while (compressedLevel(gain, offset, t) < n) t = adjacentDouble(t, 1);
  for (let below = adjacentDouble(t, -1); below > 0 && compressedLevel(gain, offset, below) >= n; below = adjacentDouble(t, -1)) t = below;
  return t;
}

export function createLogCompression(gain: number, offset: number): LogCompression {
  if (!(gain > 0) || !Number.isFinite(gain) || !Number.isFinite(offset)) throw new RangeError('log compression needs a positive gain and a finite offset');
  const thresholds = new Float64Array(257);
  thresholds[256] = Infinity;
  for (let n = 1; n <= 255; n++) thresholds[n] = exactThreshold(gain, offset, n);
  const firstBucket = bucketOf(thresholds[1]!);
  const bucketLevels = new Uint8Array(bucketOf(thresholds[255]!) - firstBucket + 1);
  let level = 0;
  for (let b = 0; b < bucketLevels.length; b++) {
    // The bucket's first double: its high word, low word zero.
    scratchWords[HIGH_WORD] = (firstBucket + b) << BUCKET_SHIFT;
    scratchWords[1 - HIGH_WORD] = 0;
    const start = scratch[0]!;
    while (level < 255 && thresholds[level + 1]! <= start) level++;
    bucketLevels[b] = level;
  }
  return { gain, offset, thresholds, bucketLevels, firstBucket };
}

/** The grey level of `power`, exactly compressedLevel(gain, offset, power). Small, so that the renderer's loop inlines it. */
export function levelOf(compression: LogCompression, power: number): number {
  const { thresholds } = compression;
  // Written so that NaN (whose logarithm the formula clamps to 0) lands here too.
  if (!(power >= thresholds[1]!)) return 0;
  if (power >= thresholds[255]!) return 255;
  scratch[0] = power;
  let level = compression.bucketLevels[(scratchWords[HIGH_WORD]! >>> BUCKET_SHIFT) - compression.firstBucket]!;
  while (power >= thresholds[level + 1]!) level++;
  return level;
}

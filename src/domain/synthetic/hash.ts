/**
 * Stateless integer hashing. Frames must be computable on their own from (model, frame index), so
 * every random value is a hash of its coordinates rather than the next draw of a running stream.
 */

/** lowbias32 (Chris Wellons): a fast 32-bit mix with good avalanche, returned unsigned. */
export function hash32(value: number): number {
  let x = value | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A seed for item `index` of the stream `seed` (frames, speckle anchors, texture keyframes). */
export function deriveSeed(seed: number, index: number): number {
  return hash32((seed | 0) ^ hash32((index | 0) + 0x9e3779b9));
}

/** Uniform in [0, 1) from a hash of (seed, a, b). */
export function hashUnit(seed: number, a: number, b: number): number {
  return hash32(seed ^ hash32(a * 0x27d4eb2d + hash32(b + 0x165667b1))) / 4294967296;
}

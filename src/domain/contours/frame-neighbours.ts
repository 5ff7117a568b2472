/**
 * Are two frames temporal neighbours (issue 23)? The temporal speckle cue (blood decorrelates from
 * frame to frame, tissue persists) and the continuity prior hold only between frames a few
 * hundredths of a millimetre and one frame period apart. Gated exports (one frame per heartbeat),
 * dropped frames, a pullback that jumps, shuffled files or two runs stitched give pairs whose tissue
 * speckle is as unrelated as blood: read with the temporal cue, everything looks like blood and
 * both borders run to the field's edge.
 *
 * The test reuses what the detector computes anyway: the current polar image P and the previous one
 * aligned onto it block by block (Q', temporal-alignment.ts: each block moved by its best small
 * shift within the alignment's range). The speckle alone is compared: h(a, k) = P(a, k) −
 * ½ (P(a, k − 2) + P(a, k + 2)) removes the large-scale structure (the wall's layers and texture,
 * which frames a heartbeat apart share). Per block b of the alignment's grid past the ring-down and
 * inside the frame, the correlation
 *      ρ_b = Σ (h_P − h̄_P)(h_Q' − h̄_Q') / √(Σ (h_P − h̄_P)² · Σ (h_Q' − h̄_Q')²)
 * (every 4th ray, every 2nd sample), over the blocks that carry speckle in both images. The score is the
 * upper quartile of ρ_b (the tissue's blocks, however large the lumen; blood never correlates),
 * and the pair are neighbours when it reaches NEIGHBOUR_SCORE. On the generator's tuning cases
 * (`npm run -s bench:contours-order -- --scores --tuning`) consecutive frames score 0.89–0.97,
 * two apart (a dropped frame) 0.67–0.93, three apart 0.49–0.84, five apart 0.28–0.70, ten or
 * thirty apart (a heartbeat, ≈ 0.5 mm) 0.11–0.40, another part of the pullback 0.07–0.25. A black
 * or flat frame has no block with speckle and is no one's neighbour. About 0.1 ms a frame.
 */

/** Every this many rays is compared (speckle is correlated over a ray or two; the test runs on every frame). */
const RAY_STEP = 4;
/** Samples along the ray between a sample and the neighbours its speckle is measured against. */
const LAG = 2;
/** Quantile of the block correlations taken as the pair's score: the persistent (tissue) blocks. */
const SCORE_QUANTILE = 0.75;
/** Blocks whose variance in either image is below this share of the frame's speckle variance carry no speckle (shadow, outside the field). */
const QUIET_SHARE = 0.25;
/** Fewer blocks with speckle than this: the pair cannot be told neighbours. */
const MIN_BLOCKS = 8;

/**
 * The score from which two frames are taken as temporal neighbours: every consecutive pair and 80
 * of 88 pairs two frames apart on TUNING_SEEDS, 16 of 88 three apart and none five or more apart. The temporal cue does not hold much beyond: at 0.5, frames
 * four to six apart in a shuffled run passed, and their tissue, half decorrelated, read as blood.
 */
export const NEIGHBOUR_SCORE = 0.75;

export interface NeighbourGrid {
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly blockRays: number;
  readonly blockSamples: number;
  /** Samples before this (the ring-down) are left out. */
  readonly first: number;
  /** Per ray, how many samples lie inside the frame. */
  readonly insideCount: Int32Array;
}

/**
 * The neighbour score of the current polar image `current` and the previous one aligned onto it
 * (`aligned`), in [−1, 1]; −1 when too few blocks carry speckle to tell (a black or flat frame).
 * `speckleVariance` is the current frame's typical speckle variance. `scratch` holds at least
 * (angleCount / blockRays + 1) · (sampleCount / blockSamples + 1) values.
 */
export function neighbourScore(current: Float32Array, aligned: Float32Array, grid: NeighbourGrid, speckleVariance: number, scratch: Float32Array): number {
  const { angleCount, sampleCount, blockRays, blockSamples, first, insideCount } = grid;
  // A grey level's variance at least, so that a black or flat frame has no block at all.
  const quiet = Math.max(1, QUIET_SHARE * speckleVariance);
  let blocks = 0;
  for (let a0 = 0; a0 < angleCount; a0 += blockRays) {
    const a1 = Math.min(angleCount, a0 + blockRays);
    let inside = sampleCount;
    for (let a = a0; a < a1; a++) inside = Math.min(inside, insideCount[a]!);
    for (let k0 = Math.max(0, first); k0 + blockSamples <= inside; k0 += blockSamples) {
      const k1 = k0 + blockSamples;
      let n = 0;
      let sp = 0;
      let sq = 0;
      let spp = 0;
      let sqq = 0;
      let spq = 0;
      for (let a = a0; a < a1; a += RAY_STEP) {
        const row = a * sampleCount;
        for (let k = Math.max(k0, LAG); k < Math.min(k1, sampleCount - LAG); k += 2) {
          // Speckle only: the sample less the mean of its neighbours along the ray (large-scale
          // structure, the wall's layers and texture, is shared by frames far apart).
          const s = row + k;
          const p = current[s]! - 0.5 * (current[s - LAG]! + current[s + LAG]!);
          const q = aligned[s]! - 0.5 * (aligned[s - LAG]! + aligned[s + LAG]!);
          n++;
          sp += p;
          sq += q;
          spp += p * p;
          sqq += q * q;
          spq += p * q;
        }
      }
      const vp = spp - (sp * sp) / n;
      const vq = sqq - (sq * sq) / n;
      if (!(vp >= quiet * n && vq >= quiet * n)) continue;
      scratch[blocks++] = (spq - (sp * sq) / n) / Math.sqrt(vp * vq);
    }
  }
  if (blocks < MIN_BLOCKS) return -1;
  const sorted = scratch.subarray(0, blocks).sort();
  return sorted[Math.min(blocks - 1, Math.floor(SCORE_QUANTILE * blocks))]!;
}

/** Room for the block correlations of a grid. */
export function neighbourScratch(angleCount: number, sampleCount: number, blockRays: number, blockSamples: number): Float32Array {
  return new Float32Array((Math.ceil(angleCount / blockRays) + 1) * (Math.ceil(sampleCount / blockSamples) + 1));
}

/**
 * Slowly varying echogenicity of the wall (fibrous, lipid-rich, loose adventitia), as a small grid
 * over (angle, depth layer) that changes smoothly along the pullback. The grid is value noise at
 * keyframes along z, blended linearly in between, so any frame computes its own grid from the seed.
 */
import { hashUnit } from './hash.ts';

export const TEXTURE_ANGLES = 64;
/** Depth rows: 0..PLAQUE_ROWS-1 span the plaque from lumen to EEM, the rest lie outside the EEM. */
export const TEXTURE_ROWS = 16;
export const PLAQUE_ROWS = 10;

const FINE_KEY_SPACING_MM = 0.6;
const COARSE_KEY_SPACING_MM = 2.5;
const COARSE_ANGLES = 16;
const COARSE_ROWS = 4;
const FINE_WEIGHT = 0.4;
const TEXTURE_CONTRAST = 2.6;

function keyValue(seed: number, key: number, a: number, b: number): number {
  return hashUnit(seed + key * 0x632be5ab, a, b);
}

/**
 * Fills `grid` (TEXTURE_ANGLES x TEXTURE_ROWS, angle-major) with amplitude gains around 1 (about
 * -9 dB to +9 dB, log-normal-like: tissue echogenicity varies by factors, not by offsets)
 * for the pullback position zMm.
 */
export function fillTextureGrid(seed: number, zMm: number, grid: Float32Array): void {
  const fineKey = Math.floor(zMm / FINE_KEY_SPACING_MM);
  const fineT = zMm / FINE_KEY_SPACING_MM - fineKey;
  const coarseKey = Math.floor(zMm / COARSE_KEY_SPACING_MM);
  const coarseT = zMm / COARSE_KEY_SPACING_MM - coarseKey;
  const coarseSeed = seed ^ 0x5bd1e995;
  // The coarse octave's lattice values at both keys, drawn once per frame instead of once per cell
  // that reads them (eight reads a cell; issue 23). The same draws, so the same grid to the bit.
  const coarseValues = coarseLattice(coarseSeed, coarseKey);
  const nextCoarseValues = coarseLattice(coarseSeed, coarseKey + 1);
  for (let a = 0; a < TEXTURE_ANGLES; a++) {
    // The coarse octave is sampled with wrap-around in angle, bilinearly.
    const ca = (a / TEXTURE_ANGLES) * COARSE_ANGLES;
    const ca0 = Math.floor(ca);
    const caT = ca - ca0;
    const ca1 = (ca0 + 1) % COARSE_ANGLES;
    for (let b = 0; b < TEXTURE_ROWS; b++) {
      const fine =
        keyValue(seed, fineKey, a, b) * (1 - fineT) + keyValue(seed, fineKey + 1, a, b) * fineT;
      const cb = (b / (TEXTURE_ROWS - 1)) * (COARSE_ROWS - 1);
      const cb0 = Math.min(COARSE_ROWS - 2, Math.floor(cb));
      const cbT = cb - cb0;
      let coarse = 0;
      coarse += (1 - coarseT) * coarseAt(coarseValues, ca0, ca1, cb0, cbT, caT);
      coarse += coarseT * coarseAt(nextCoarseValues, ca0, ca1, cb0, cbT, caT);
      grid[a * TEXTURE_ROWS + b] = Math.exp(TEXTURE_CONTRAST * (FINE_WEIGHT * fine + (1 - FINE_WEIGHT) * coarse - 0.5));
    }
  }
}

/** keyValue(seed, key, a, b) for every coarse lattice point, angle-major. */
function coarseLattice(seed: number, key: number): Float64Array {
  const values = new Float64Array(COARSE_ANGLES * COARSE_ROWS);
  for (let a = 0; a < COARSE_ANGLES; a++) for (let b = 0; b < COARSE_ROWS; b++) values[a * COARSE_ROWS + b] = keyValue(seed, key, a, b);
  return values;
}

/** The coarse octave at one key, bilinear between its lattice points (rows first, then angle). */
function coarseAt(values: Float64Array, ca0: number, ca1: number, cb0: number, cbT: number, caT: number): number {
  const v00 = values[ca0 * COARSE_ROWS + cb0]!;
  const v01 = values[ca0 * COARSE_ROWS + cb0 + 1]!;
  const v10 = values[ca1 * COARSE_ROWS + cb0]!;
  const v11 = values[ca1 * COARSE_ROWS + cb0 + 1]!;
  const near = v00 + (v01 - v00) * cbT;
  const far = v10 + (v11 - v10) * cbT;
  return near + (far - near) * caT;
}

/** The grid's column at an angle (linear in angle, wrapping), written into `column` (TEXTURE_ROWS). */
export function textureColumn(grid: Float32Array, angleRad: number, column: Float32Array): void {
  let t = (angleRad / (2 * Math.PI)) * TEXTURE_ANGLES;
  t -= Math.floor(t / TEXTURE_ANGLES) * TEXTURE_ANGLES;
  const a0 = Math.floor(t) % TEXTURE_ANGLES;
  const a1 = (a0 + 1) % TEXTURE_ANGLES;
  const w = t - Math.floor(t);
  for (let b = 0; b < TEXTURE_ROWS; b++) {
    const v0 = grid[a0 * TEXTURE_ROWS + b]!;
    column[b] = v0 + (grid[a1 * TEXTURE_ROWS + b]! - v0) * w;
  }
}

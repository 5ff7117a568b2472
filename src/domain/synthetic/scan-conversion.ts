/**
 * Polar-to-Cartesian scan conversion with bilinear interpolation. The geometry (which two lines and
 * which two samples feed each pixel, and with what weights) depends only on the frame size, so it
 * is computed once per renderer and every frame is then a pass of integer multiply-adds.
 */
import type { PolarGrid } from './polar-frame.ts';

/** Interpolation weights are fixed point with this many fractional bits; the four sum to 1. */
const WEIGHT_BITS = 12;
const WEIGHT_ONE = 1 << WEIGHT_BITS;

export interface ScanConversion {
  readonly frameSizePx: number;
  /** Row-major index of each pixel inside the field of view; pixels not listed stay black. */
  readonly pixelIndex: Int32Array;
  /** For each listed pixel, the polar index of its nearer line and shallower sample. */
  readonly polarIndex: Int32Array;
  /** Four weights per listed pixel: (line, sample), (line, sample + 1), (line + 1, sample), (line + 1, sample + 1). */
  readonly weights: Uint16Array;
  readonly polarStride: number;
}

/**
 * The catheter sits at (centreXPx, centreYPx), the frame's middle unless an export panned the image;
 * the field of view is a circle of half the frame's width around it, cut off at the frame's edges.
 */
export function createScanConversion(
  frameSizePx: number,
  pixelSpacingMm: number,
  grid: PolarGrid,
  centreXPx = frameSizePx / 2,
  centreYPx = frameSizePx / 2,
): ScanConversion {
  const centrePx = frameSizePx / 2;
  const samplesPerPx = pixelSpacingMm / grid.sampleSpacingMm;
  // The last samples of a line are padding (see PolarGrid): stay clear of them.
  const maxRadiusPx = Math.min(centrePx, (grid.sampleCount - grid.paddingSamples) / samplesPerPx);
  // Sized for every pixel, trimmed to the ones inside the field of view at the end.
  const pixelIndex = new Int32Array(frameSizePx * frameSizePx);
  const polarIndex = new Int32Array(frameSizePx * frameSizePx);
  const weights = new Uint16Array(4 * frameSizePx * frameSizePx);
  let count = 0;
  for (let row = 0; row < frameSizePx; row++) {
    const y = row + 0.5 - centreYPx;
    for (let col = 0; col < frameSizePx; col++) {
      const x = col + 0.5 - centreXPx;
      const radiusPx = Math.hypot(x, y);
      if (radiusPx > maxRadiusPx) continue;
      let angle = Math.atan2(y, x);
      if (angle < 0) angle += 2 * Math.PI;
      const linePosition = (angle / (2 * Math.PI)) * grid.lineCount;
      const line = Math.min(grid.lineCount - 1, Math.floor(linePosition));
      const lineT = linePosition - line;
      const samplePosition = radiusPx * samplesPerPx;
      const sample = Math.floor(samplePosition);
      const sampleT = samplePosition - sample;
      // Rounded so that the four weights sum to exactly WEIGHT_ONE (a flat image stays flat).
      const w01 = Math.round((1 - lineT) * sampleT * WEIGHT_ONE);
      const w10 = Math.round(lineT * (1 - sampleT) * WEIGHT_ONE);
      const w11 = Math.round(lineT * sampleT * WEIGHT_ONE);
      const w00 = WEIGHT_ONE - w01 - w10 - w11;
      pixelIndex[count] = row * frameSizePx + col;
      polarIndex[count] = line * grid.sampleCount + sample;
      weights[4 * count] = w00;
      weights[4 * count + 1] = w01;
      weights[4 * count + 2] = w10;
      weights[4 * count + 3] = w11;
      count++;
    }
  }
  return {
    frameSizePx,
    pixelIndex: pixelIndex.slice(0, count),
    polarIndex: polarIndex.slice(0, count),
    weights: weights.slice(0, 4 * count),
    polarStride: grid.sampleCount,
  };
}

/** Writes the Cartesian frame; `polar` holds lineCount + 1 lines (the last repeats line 0). */
export function scanConvert(conversion: ScanConversion, polar: Uint8Array, out: Uint8Array): void {
  const { pixelIndex, polarIndex, weights, polarStride } = conversion;
  out.fill(0);
  const half = WEIGHT_ONE >> 1;
  for (let p = 0; p < pixelIndex.length; p++) {
    const k = polarIndex[p]!;
    const w = p << 2;
    out[pixelIndex[p]!] =
      (polar[k]! * weights[w]! +
        polar[k + 1]! * weights[w + 1]! +
        polar[k + polarStride]! * weights[w + 2]! +
        polar[k + polarStride + 1]! * weights[w + 3]! +
        half) >>
      WEIGHT_BITS;
  }
}

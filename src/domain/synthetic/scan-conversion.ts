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
  /**
   * The pixels inside the field of view as runs along the rows: (first row-major index, length)
   * pairs. Pixels not in a run stay black.
   */
  readonly runs: Int32Array;
  /**
   * Three integers per pixel of the runs, in their order: the polar index of its nearer line and
   * shallower sample, then its four weights packed two to an integer, (line, sample) | (line,
   * sample + 1) << 16 and (line + 1, sample) | (line + 1, sample + 1) << 16. One stream instead
   * of four (the scan conversion was a tenth of a frame's rendering: issue 23).
   */
  readonly taps: Int32Array;
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
  const runs: number[] = [];
  const taps = new Int32Array(3 * frameSizePx * frameSizePx);
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
      const pixel = row * frameSizePx + col;
      const lastRun = runs.length - 2;
      if (lastRun >= 0 && runs[lastRun]! + runs[lastRun + 1]! === pixel) runs[lastRun + 1]!++;
      else runs.push(pixel, 1);
      taps[3 * count] = line * grid.sampleCount + sample;
      // As 16-bit weights, as they always were stored (a w00 of -1 from rounding reads as 65535).
      taps[3 * count + 1] = (w00 & 0xffff) | (w01 << 16);
      taps[3 * count + 2] = (w10 & 0xffff) | (w11 << 16);
      count++;
    }
  }
  return { frameSizePx, runs: Int32Array.from(runs), taps: taps.slice(0, 3 * count), polarStride: grid.sampleCount };
}

/** Geometries whose tables are kept: a server renders one or two (every demo record shares one), benches a few. */
const KEPT_GEOMETRIES = 8;
const conversions = new Map<string, ScanConversion>();

/**
 * createScanConversion's tables for a geometry, made once and shared by every renderer of it (they
 * are only read). Building them is 20–40 ms of atan2 and hypot per pixel, which every new record
 * paid on each frame worker before its first frame (issue 27: a first open's first chunks).
 */
export function scanConversionFor(frameSizePx: number, pixelSpacingMm: number, grid: PolarGrid, centreXPx: number, centreYPx: number): ScanConversion {
  const key = [frameSizePx, pixelSpacingMm, grid.lineCount, grid.sampleCount, grid.sampleSpacingMm, grid.paddingSamples, centreXPx, centreYPx].join(' ');
  let conversion = conversions.get(key);
  if (conversion === undefined) {
    conversion = createScanConversion(frameSizePx, pixelSpacingMm, grid, centreXPx, centreYPx);
    if (conversions.size >= KEPT_GEOMETRIES) conversions.delete(conversions.keys().next().value!);
  } else {
    conversions.delete(key);
  }
  // Most recently used last, so the oldest goes first.
  conversions.set(key, conversion);
  return conversion;
}

/** Writes the Cartesian frame; `polar` holds lineCount + 1 lines (the last repeats line 0). */
export function scanConvert(conversion: ScanConversion, polar: Uint8Array, out: Uint8Array): void {
  const { runs, taps, polarStride } = conversion;
  out.fill(0);
  const half = WEIGHT_ONE >> 1;
  let p = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const end = runs[r]! + runs[r + 1]!;
    for (let pixel = runs[r]!; pixel < end; pixel++) {
      const k = taps[p]!;
      const near = taps[p + 1]!;
      const far = taps[p + 2]!;
      p += 3;
      // Integer sums: the same value in any order, so the same pixels as one weight array per corner gave.
      out[pixel] =
        (polar[k]! * (near & 0xffff) + polar[k + 1]! * (near >>> 16) + polar[k + polarStride]! * (far & 0xffff) + polar[k + polarStride + 1]! * (far >>> 16) + half) >>
        WEIGHT_BITS;
    }
  }
}

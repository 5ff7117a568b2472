/**
 * Resampling of a square B-mode frame onto a polar grid around the catheter: `angleCount` rays
 * (angle index a at θ = 2πa / angleCount, image coordinates: 0 along +x, increasing towards +y) by
 * one sample per pixel of radius (sample k at radius firstRadiusPx + k). The lumen border is then a
 * function r(θ), which is what the border search works on.
 *
 * Image coordinates follow domain/imaging/image-point.ts: pixel (col, row) covers [col, col + 1) x
 * [row, row + 1), its centre is (col + 0.5, row + 0.5). A polar sample at radius r and angle θ sits
 * at (cx + r cos θ, cy + r sin θ) and is read by bilinear interpolation between the four nearest
 * pixel centres; outside the frame reads 0.
 */

export interface PolarGeometry {
  readonly frameSizePx: number;
  readonly centreX: number;
  readonly centreY: number;
  readonly angleCount: number;
  /** Radius of sample 0, in pixels. */
  readonly firstRadiusPx: number;
  readonly sampleCount: number;
}

/** The interpolation table of one geometry: computed once, then every frame is a pass of multiply-adds. */
export interface PolarTable {
  readonly geometry: PolarGeometry;
  /** Per polar sample: row-major index of the top-left of its 2x2 pixel neighbourhood. */
  readonly pixelIndex: Int32Array;
  /** Per polar sample: four bilinear weights (top-left, top-right, bottom-left, bottom-right). */
  readonly weights: Float32Array;
}

export function createPolarTable(geometry: PolarGeometry): PolarTable {
  const { frameSizePx: size, centreX, centreY, angleCount, firstRadiusPx, sampleCount } = geometry;
  const count = angleCount * sampleCount;
  const pixelIndex = new Int32Array(count);
  const weights = new Float32Array(4 * count);
  for (let a = 0; a < angleCount; a++) {
    const angle = (2 * Math.PI * a) / angleCount;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    for (let k = 0; k < sampleCount; k++) {
      const r = firstRadiusPx + k;
      // Interpolation coordinates: pixel centres sit at half-integers.
      const x = centreX + r * dx - 0.5;
      const y = centreY + r * dy - 0.5;
      const col = Math.floor(x);
      const row = Math.floor(y);
      const s = a * sampleCount + k;
      if (col < 0 || row < 0 || col + 1 >= size || row + 1 >= size) {
        // Off the frame, or on its outermost pixel ring: the clamped edge pixel, or 0 beyond the frame.
        const inside = x >= -0.5 && y >= -0.5 && x <= size - 0.5 && y <= size - 0.5;
        pixelIndex[s] = Math.min(size - 2, Math.max(0, row)) * size + Math.min(size - 2, Math.max(0, col));
        weights[4 * s] = inside ? 1 : 0;
        continue;
      }
      const fx = x - col;
      const fy = y - row;
      pixelIndex[s] = row * size + col;
      weights[4 * s] = (1 - fx) * (1 - fy);
      weights[4 * s + 1] = fx * (1 - fy);
      weights[4 * s + 2] = (1 - fx) * fy;
      weights[4 * s + 3] = fx * fy;
    }
  }
  return { geometry, pixelIndex, weights };
}

/** Writes the polar image (angleCount rows of sampleCount samples, angle-major) of `frame` into `out`. */
export function resamplePolar(table: PolarTable, frame: Uint8Array, out: Float32Array): void {
  const { pixelIndex, weights, geometry } = table;
  const size = geometry.frameSizePx;
  if (frame.length !== size * size) throw new RangeError(`frame must hold ${size * size} bytes, got ${frame.length}`);
  for (let s = 0; s < pixelIndex.length; s++) {
    const p = pixelIndex[s]!;
    const w = s << 2;
    out[s] =
      frame[p]! * weights[w]! + frame[p + 1]! * weights[w + 1]! + frame[p + size]! * weights[w + 2]! + frame[p + size + 1]! * weights[w + 3]!;
  }
}

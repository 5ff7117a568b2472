/**
 * L-mode sampling at any cut angle, as pure typed-array code (no DOM): the line through the
 * frame centre at the angle, the same geometry as src/domain/synthetic/lmode.ts generalised to
 * frames that are not square. Bilinear weights and sample offsets are computed once per angle
 * and reused for every frame, so a recompute of thousands of frames is one tight loop.
 */

/** Rows of the L-mode image: the frame's longer side, so 0° reads a whole row and 90° a whole column. */
export function lmodeColumnLength(width: number, height: number): number {
  return Math.max(width, height);
}

/** Per row of the column: the four neighbours' byte offsets in the frame and their bilinear weights. */
export interface LmodeSampler {
  readonly width: number;
  readonly height: number;
  readonly angleRad: number;
  readonly length: number;
  readonly offsets: Int32Array;
  readonly weights: Float32Array;
}

/**
 * Row k lies at signed distance (k + 0.5 - length / 2) px from the centre towards the angle
 * (image coordinates: 0 along +x, increasing towards +y), so row 0 is on the opposite side.
 * Neighbours outside the frame get weight 0 (they read black), offset 0 (any valid byte).
 */
export function createLmodeSampler(width: number, height: number, angleRad: number): LmodeSampler {
  const length = lmodeColumnLength(width, height);
  const offsets = new Int32Array(length * 4);
  const weights = new Float32Array(length * 4);
  const dx = Math.cos(angleRad);
  const dy = Math.sin(angleRad);
  for (let k = 0; k < length; k++) {
    const t = k + 0.5 - length / 2;
    // Pixel centres sit at half-integers: shift by half a pixel to get interpolation coordinates.
    const x = width / 2 + t * dx - 0.5;
    const y = height / 2 + t * dy - 0.5;
    const col = Math.floor(x);
    const row = Math.floor(y);
    const fx = x - col;
    const fy = y - row;
    const neighbours: [number, number, number][] = [
      [col, row, (1 - fx) * (1 - fy)],
      [col + 1, row, fx * (1 - fy)],
      [col, row + 1, (1 - fx) * fy],
      [col + 1, row + 1, fx * fy],
    ];
    neighbours.forEach(([c, r, weight], n) => {
      const inside = c >= 0 && r >= 0 && c < width && r < height;
      offsets[k * 4 + n] = inside ? r * width + c : 0;
      weights[k * 4 + n] = inside ? weight : 0;
    });
  }
  return { width, height, angleRad, length, offsets, weights };
}

/**
 * Writes the frame's column into `image` (row-major, `length` rows x `columns` columns) at
 * column `column`. The loop reads only typed arrays: this is the L-mode's hot path.
 */
export function sampleColumn(sampler: LmodeSampler, frame: Uint8Array, image: Uint8Array, column: number, columns: number): void {
  const { offsets, weights, length } = sampler;
  for (let k = 0, i = 0, out = column; k < length; k++, i += 4, out += columns) {
    // +0.5 then truncation rounds: the values are never negative.
    image[out] =
      frame[offsets[i]!]! * weights[i]! +
      frame[offsets[i + 1]!]! * weights[i + 1]! +
      frame[offsets[i + 2]!]! * weights[i + 2]! +
      frame[offsets[i + 3]!]! * weights[i + 3]! +
      0.5;
  }
}

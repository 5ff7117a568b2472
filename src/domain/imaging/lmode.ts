/**
 * L-mode: a longitudinal cut through the B-mode stack along one line through the catheter centre.
 * The image has frameSizePx rows (positions along the cut line) and one column per frame.
 */

/**
 * The frame's samples along the line through its centre at `angleRad` (image coordinates: 0 along
 * +x, increasing towards +y). Row k lies at signed distance (k + 0.5 - size / 2) px from the
 * centre in the direction of the angle, so the first row is on the opposite side (angle + pi);
 * at pi / 2 the column reads the frame top to bottom. Bilinear; outside the frame reads black.
 */
export function lmodeColumn(frame: Uint8Array, frameSizePx: number, angleRad: number, out = new Uint8Array(frameSizePx)): Uint8Array {
  if (frame.length !== frameSizePx * frameSizePx) throw new RangeError(`frame must hold ${frameSizePx * frameSizePx} bytes, got ${frame.length}`);
  const centre = frameSizePx / 2;
  const dx = Math.cos(angleRad);
  const dy = Math.sin(angleRad);
  for (let k = 0; k < frameSizePx; k++) {
    const t = k + 0.5 - centre;
    // Pixel centres sit at half-integers, so shift by half a pixel to get interpolation coordinates.
    const x = centre + t * dx - 0.5;
    const y = centre + t * dy - 0.5;
    const col = Math.floor(x);
    const row = Math.floor(y);
    const fx = x - col;
    const fy = y - row;
    const at = (c: number, r: number): number => (c < 0 || r < 0 || c >= frameSizePx || r >= frameSizePx ? 0 : frame[r * frameSizePx + c]!);
    const top = at(col, row) + (at(col + 1, row) - at(col, row)) * fx;
    const bottom = at(col, row + 1) + (at(col + 1, row + 1) - at(col, row + 1)) * fx;
    out[k] = Math.round(top + (bottom - top) * fy);
  }
  return out;
}

/** Builds an L-mode image column by column, in any order (frames may arrive in chunks). */
export interface LmodeBuilder {
  readonly rows: number;
  readonly columns: number;
  /** Row-major, rows x columns. */
  readonly image: Uint8Array;
  addFrame(frameIndex: number, frame: Uint8Array): void;
  addColumn(frameIndex: number, column: Uint8Array): void;
}

export function createLmodeBuilder(frameSizePx: number, frameCount: number, angleRad: number): LmodeBuilder {
  const image = new Uint8Array(frameSizePx * frameCount);
  const column = new Uint8Array(frameSizePx);
  const builder: LmodeBuilder = {
    rows: frameSizePx,
    columns: frameCount,
    image,
    addColumn(frameIndex, values) {
      if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= frameCount) {
        throw new RangeError(`frame ${frameIndex} is outside 0..${frameCount - 1}`);
      }
      if (values.length !== frameSizePx) throw new RangeError(`a column holds ${frameSizePx} values, got ${values.length}`);
      for (let k = 0; k < frameSizePx; k++) image[k * frameCount + frameIndex] = values[k]!;
    },
    addFrame(frameIndex, frame) {
      builder.addColumn(frameIndex, lmodeColumn(frame, frameSizePx, angleRad, column));
    },
  };
  return builder;
}

/** The L-mode image from all its columns at once (column i is frame i). */
export function buildLmodeImage(columns: readonly Uint8Array[], frameSizePx: number): Uint8Array {
  const builder = createLmodeBuilder(frameSizePx, columns.length, 0);
  columns.forEach((column, frameIndex) => builder.addColumn(frameIndex, column));
  return builder.image;
}

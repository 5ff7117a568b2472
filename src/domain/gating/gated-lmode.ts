/**
 * The gated L-mode image (issue 28): every column shows the column of its cycle's end-diastolic
 * frame (gated-analysis.ts gatedColumns), so the L-mode panel, like the strip, loses the saw-tooth
 * of cardiac motion while keeping one column per frame (the cursor and the slice under the pointer
 * stay where they were). Pure.
 */
import { gatedColumns } from './gated-analysis.ts';

/**
 * Copies the L-mode image `data` (row-major, `width` columns, one per frame) into `out` with each
 * column replaced by its gated frame's column. `out` is reused between calls to spare a 10 MB
 * allocation per redraw on a long pullback.
 */
export function gatedLmodePixels(data: Uint8Array, width: number, height: number, gatedFrames: readonly number[], out: Uint8Array = new Uint8Array(width * height)): Uint8Array {
  const columns = gatedColumns(width, gatedFrames);
  for (let row = 0, start = 0; row < height; row++, start += width) {
    for (let column = 0; column < width; column++) out[start + column] = data[start + columns[column]!]!;
  }
  return out;
}

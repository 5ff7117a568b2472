import { lmodeColumn } from '../../domain/imaging/lmode.ts';
import { LMODE_ANGLE_RAD } from '../imaging/record-imaging.ts';

/**
 * The L-mode column of one imported frame: the same cut as demo records (top to bottom through
 * the centre), for frames that need not be square. Row k samples the vertical line through the
 * frame's centre (x = width / 2, between the two middle columns when the width is even).
 */
export function importedLmodeColumn(frame: Uint8Array, width: number, height: number, out = new Uint8Array(height)): Uint8Array {
  if (width === height) return lmodeColumn(frame, width, LMODE_ANGLE_RAD, out);
  const x = width / 2 - 0.5;
  const left = Math.max(0, Math.floor(x));
  const right = Math.min(width - 1, left + 1);
  const fx = x - left;
  for (let y = 0; y < height; y++) {
    const a = frame[y * width + left]!;
    const b = frame[y * width + right]!;
    out[y] = Math.round(a + (b - a) * fx);
  }
  return out;
}

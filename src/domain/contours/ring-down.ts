/**
 * The catheter's ring-down: the bright rings of the catheter's own echo, the same in every frame
 * and on every ray, which would otherwise read as tissue right next to the catheter.
 */
import { selectNth } from './select-nth.ts';

/** Gray levels per natural-log unit of power for an 8-bit, 50 dB display mapping. */
const LEVELS_PER_NEPER = ((10 / Math.LN10) * 255) / 50;

/**
 * Where the catheter's ring-down ends. Per radius, the 25th percentile of S over every 2nd ray is
 * taken as ring-down plus blood (the lumen surrounds the catheter, so most rays see blood there),
 * written to `level`; the zone ends `margin` past the first radius beyond the level's peak where it
 * has fallen to within 15 % of its drop to the lowest level within `window` of the peak (a 20 MHz
 * catheter rings longer than a 60 MHz one; further out, shadows and walls touching the catheter
 * could pass for the floor).
 */
export function ringDownEnd(values: Float32Array, angleCount: number, sampleCount: number, minEnd: number, maxEnd: number, margin: number, window: number, column: Float32Array, level: Float32Array): number {
  for (let k = 0; k < maxEnd; k++) {
    for (let a = 0, i = 0; a < angleCount; a += 2, i++) column[i] = values[a * sampleCount + k]!;
    level[k] = selectNth(column, column.length, Math.floor(column.length / 4));
  }
  let peak = 0;
  for (let k = 1; k < maxEnd; k++) if (level[k]! > level[peak]!) peak = k;
  let floor = level[peak]!;
  for (let k = peak; k < Math.min(maxEnd, peak + window); k++) floor = Math.min(floor, level[k]!);
  const limit = floor + 0.15 * (level[peak]! - floor);
  let end = peak;
  while (end < maxEnd && level[end]! > limit) end++;
  return Math.max(minEnd, Math.min(maxEnd, end + margin));
}

/**
 * Removes the ring-down's excess over the blood level from the ring zone: the blood level is that
 * of the zone's last radius, and the excess is subtracted as power, floored at a tenth of the
 * blood's (as in the legacy bench/legacy/lumen-detector.ts).
 */
export function removeRingDown(values: Float32Array, angleCount: number, sampleCount: number, ringEnd: number, level: Float32Array): void {
  if (ringEnd <= 0) return;
  const bloodPower = Math.exp(level[Math.min(level.length, ringEnd) - 1]! / LEVELS_PER_NEPER);
  for (let k = 0; k < Math.min(level.length, ringEnd); k++) {
    const excess = Math.exp(level[k]! / LEVELS_PER_NEPER) - bloodPower;
    if (excess <= 0) continue;
    for (let a = 0; a < angleCount; a++) {
      const index = a * sampleCount + k;
      const power = Math.max(0.1 * bloodPower, Math.exp(values[index]! / LEVELS_PER_NEPER) - excess);
      values[index] = LEVELS_PER_NEPER * Math.log(power);
    }
  }
}

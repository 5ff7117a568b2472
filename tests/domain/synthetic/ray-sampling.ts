/**
 * Test helpers: reading a rendered frame along rays from the catheter centre, to check that what
 * the renderer drew sits where the truth says (edges on the truth borders, dark or bright regions).
 */
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import type { PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

/** Bilinear gray value at a point of the frame (0 outside it). */
export function grayAt(model: PullbackModel, frame: Uint8Array, x: number, y: number): number {
  const size = model.frameSizePx;
  const fx = x - 0.5;
  const fy = y - 0.5;
  const col = Math.floor(fx);
  const row = Math.floor(fy);
  if (col < 0 || row < 0 || col + 1 >= size || row + 1 >= size) return 0;
  const tx = fx - col;
  const ty = fy - row;
  const at = (c: number, r: number): number => frame[r * size + c]!;
  return (at(col, row) * (1 - tx) + at(col + 1, row) * tx) * (1 - ty) + (at(col, row + 1) * (1 - tx) + at(col + 1, row + 1) * tx) * ty;
}

/** Mean gray over a short arc (±spreadRad) at a radius (mm) from the catheter, at a display angle. */
export function arcMean(model: PullbackModel, frame: Uint8Array, angleRad: number, radiusMm: number, spreadRad = 0.012): number {
  const centre = catheterCentrePx(model);
  const radiusPx = radiusMm / model.pixelSpacingMm;
  let sum = 0;
  const steps = 5;
  for (let s = 0; s < steps; s++) {
    const angle = angleRad + spreadRad * ((2 * s) / (steps - 1) - 1);
    sum += grayAt(model, frame, centre.x + radiusPx * Math.cos(angle), centre.y + radiusPx * Math.sin(angle));
  }
  return sum / steps;
}

/** Mean gray over the radii [fromMm, toMm) at a display angle. */
export function bandMean(model: PullbackModel, frame: Uint8Array, angleRad: number, fromMm: number, toMm: number): number {
  let sum = 0;
  let count = 0;
  for (let r = fromMm; r < toMm; r += model.pixelSpacingMm / 2) {
    sum += arcMean(model, frame, angleRad, r);
    count++;
  }
  return count > 0 ? sum / count : NaN;
}

/**
 * The radius (mm) of the strongest dark-to-bright step within ±searchMm of `expectedMm` on the ray
 * at a display angle: the mean over `windowMm` outside minus the mean over `windowMm` inside.
 */
export function risingEdgeMm(model: PullbackModel, frame: Uint8Array, angleRad: number, expectedMm: number, searchMm: number, windowMm = 0.06): number {
  const stepMm = model.pixelSpacingMm / 4;
  let best = expectedMm;
  let bestStep = -Infinity;
  for (let r = expectedMm - searchMm; r <= expectedMm + searchMm; r += stepMm) {
    const step = bandMean(model, frame, angleRad, r, r + windowMm) - bandMean(model, frame, angleRad, r - windowMm, r);
    if (step > bestStep) {
      bestStep = step;
      best = r;
    }
  }
  return best;
}

/**
 * The first radius (mm) from `fromMm` outwards where the gray, averaged over a short arc, reaches
 * `level`: where blood gives way to the wall on a look with dark blood. NaN if it never does by `toMm`.
 */
export function firstCrossingMm(model: PullbackModel, frame: Uint8Array, angleRad: number, fromMm: number, toMm: number, level: number): number {
  const stepMm = model.pixelSpacingMm / 4;
  for (let r = fromMm; r <= toMm; r += stepMm) if (arcMean(model, frame, angleRad, r) >= level) return r;
  return NaN;
}

/**
 * Test helper: mean pixel value of a frame over a polar region around the catheter, so tests can
 * compare anatomical regions (lumen, wall, shadow) using the model's own geometry.
 */
import type { PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

export interface PolarRegion {
  /** Inner and outer radius (mm) at an angle; NaN or inner >= outer skips the angle. */
  radiiMm(angleRad: number): readonly [number, number];
  /** Angles to include; all by default. */
  includes?(angleRad: number): boolean;
}

export function regionMean(model: PullbackModel, frame: Uint8Array, region: PolarRegion, angleCount = 360): { mean: number; count: number } {
  const centre = model.frameSizePx / 2;
  let sum = 0;
  let count = 0;
  for (let a = 0; a < angleCount; a++) {
    const angle = (2 * Math.PI * a) / angleCount;
    if (region.includes !== undefined && !region.includes(angle)) continue;
    const [inner, outer] = region.radiiMm(angle);
    for (let r = inner; r < outer; r += model.pixelSpacingMm) {
      const col = Math.floor(centre + (r / model.pixelSpacingMm) * Math.cos(angle));
      const row = Math.floor(centre + (r / model.pixelSpacingMm) * Math.sin(angle));
      sum += frame[row * model.frameSizePx + col]!;
      count++;
    }
  }
  return { mean: count > 0 ? sum / count : NaN, count };
}

/**
 * The square-frame polar table of the legacy lumen detector (lumen-detector.ts, kept for comparison in
 * `npm run bench:contours`), on the one polar sampler of polar-sampler.ts: `angleCount` rays (angle
 * index a at θ = 2πa / angleCount, image coordinates: 0 along +x, increasing towards +y) by one sample
 * per pixel of radius (sample k at radius firstRadiusPx + k), read by bilinear interpolation between
 * the four nearest pixel centres; outside the frame reads 0.
 */
import { createPolarSampler, type PolarSampler } from '../../src/domain/contours/polar-sampler.ts';

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
  readonly sampler: PolarSampler;
}

export function createPolarTable(geometry: PolarGeometry): PolarTable {
  const { frameSizePx, ...rays } = geometry;
  return { geometry, sampler: createPolarSampler({ frameWidth: frameSizePx, frameHeight: frameSizePx, radialStepPx: 1, ...rays }) };
}

/** Writes the polar image (angleCount rows of sampleCount samples, angle-major) of `frame` into `out`. */
export function resamplePolar(table: PolarTable, frame: Uint8Array, out: Float32Array): void {
  table.sampler.resample(frame, out);
}

/**
 * Test fixtures for the hard cases: small models at a realistic frame geometry, the frame where a
 * feature sits, the rays clear of shadows, and how far a drawn edge lies from the truth.
 */
import { angleDifferenceRad, crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import type { HardCaseOptions } from '../../../src/domain/synthetic/hard-cases.ts';
import type { ImagingLookName } from '../../../src/domain/synthetic/imaging-look.ts';
import { createPullbackModel, type PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { risingEdgeMm } from './ray-sampling.ts';

export const FRAME_RATE_HZ = 30;
export const SPEED_MM_PER_S = 0.5;

export function model(look: ImagingLookName, hardCases: HardCaseOptions, seed = 5, sizePx = 384, spacingMm = 0.025): PullbackModel {
  return createPullbackModel({ seed, frameCount: 900, frameSizePx: sizePx, pixelSpacingMm: spacingMm, look, hardCases });
}

export function frameAtMm(zMm: number): number {
  return Math.round((zMm / SPEED_MM_PER_S) * FRAME_RATE_HZ);
}

/** Display angles every 5°, skipping those whose scene angle lies within `margin` of the guidewire or calcium. */
export function clearAngles(m: PullbackModel, frame: number, margin = 0.6): number[] {
  const section = crossSectionAt(m, frame);
  const angles: number[] = [];
  for (let a = 0; a < 72; a++) {
    const display = (2 * Math.PI * a) / 72;
    const scene = section.sceneAngleRad(display);
    if (Math.abs(angleDifferenceRad(scene, section.guidewire.angleRad)) < margin) continue;
    if (section.calcium && Math.abs(angleDifferenceRad(scene, section.calcium.centreAngleRad)) < section.calcium.halfArcRad + 0.3) continue;
    angles.push(display);
  }
  return angles;
}

/** Per display angle, |found − truth| of the EEM's rising edge in pixels, truth read through `radiusAt`. */
export function vesselEdgeErrorsPx(m: PullbackModel, frame: number, pixels: Uint8Array, radiusAt: (display: number) => number): number[] {
  return clearAngles(m, frame).map((display) => {
    const truthMm = radiusAt(display);
    return Math.abs(risingEdgeMm(m, pixels, display, truthMm, 0.2) - truthMm) / m.pixelSpacingMm;
  });
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function centroidPx(points: readonly { x: number; y: number }[]): { x: number; y: number } {
  // Area centroid of the closed polygon (shoelace weights).
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (let k = 0; k < points.length; k++) {
    const a = points[k]!;
    const b = points[(k + 1) % points.length]!;
    const cross = a.x * b.y - b.x * a.y;
    area += cross;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  return { x: cx / (3 * area), y: cy / (3 * area) };
}


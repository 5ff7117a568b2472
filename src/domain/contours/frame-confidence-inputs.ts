/**
 * What one frame's confidence (confidence.ts) is computed from, measured on its final borders: the
 * shares of rays on which each border was interpolated, the blood contrast across the lumen border,
 * the EEM's edge strength, and how far both borders moved from the previous frame's trusted ones.
 */
import type { BorderRadii } from './border-radii.ts';
import type { ConfidenceInputs } from './confidence.ts';
import { lumenBloodContrast } from './lumen-search.ts';

export interface ConfidenceEvidence extends BorderRadii {
  /** The blood log-odds by ray and sample. */
  readonly logit: Float32Array;
  readonly blind: Uint8Array;
  /** Samples each ray holds inside the frame. */
  readonly insideCount: Int32Array;
  /** The previous frame's trusted radii, px, or null. */
  readonly prevLumen: Float32Array | null;
  readonly prevVessel: Float32Array | null;
}

export interface ConfidenceGeometry {
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly firstSample: number;
  /** Pixels per sample; mm per pixel. */
  readonly step: number;
  readonly pixelSpacingMm: number;
  /** Samples on each side of the lumen border over which the blood contrast is read. */
  readonly contrastBand: number;
}

export function frameConfidenceInputs(evidence: ConfidenceEvidence, geometry: ConfidenceGeometry): ConfidenceInputs {
  const { lumenRadii, vesselRadii, blindCount, vesselBlindCount, vesselEdge, logit, blind, insideCount, prevLumen, prevVessel } = evidence;
  const { angleCount, sampleCount, firstSample, step, pixelSpacingMm, contrastBand } = geometry;
  const bloodContrast = lumenBloodContrast(logit, lumenRadii, blind, angleCount, sampleCount, firstSample, step, contrastBand, insideCount);
  let changeMm: number | null = null;
  if (prevLumen && prevVessel) {
    let sum = 0;
    for (let a = 0; a < angleCount; a++) sum += Math.abs(lumenRadii[a]! - prevLumen[a]!) + Math.abs(vesselRadii[a]! - prevVessel[a]!);
    changeMm = (sum / (2 * angleCount)) * pixelSpacingMm;
  }
  return {
    lumenBlindShare: blindCount / angleCount,
    vesselBlindShare: vesselBlindCount / angleCount,
    bloodContrast,
    vesselEdge,
    changeMm,
  };
}

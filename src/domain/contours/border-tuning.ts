/**
 * The border detector's tunable constants (lengths in mm), tuned on the evaluation cases' TUNING
 * seeds (see border-detector.ts for what each one weighs). Region, continuity and cap costs are in
 * blood log-odds per 0.01 mm of ray, whatever the sample spacing; jump costs per squared sample.
 */
import type { BloodWeights } from './speckle-features.ts';

/** Tunable constants (lengths in mm); exported for the tests and tuning scripts. */
export interface BorderDetectorTuning {
  readonly minLumenRadiusMm: number;
  /** Furthest from the catheter a border is looked for (the field of view may end sooner). */
  readonly maxRadiusMm: number;
  readonly ringDownEndMm: number;
  readonly temporalRampMm: number;
  readonly statHalfWindowMm: number;
  readonly statHalfRays: number;
  /** Largest frame-to-frame motion the alignment looks for: rays, and mm along the ray. */
  readonly alignMaxRays: number;
  readonly alignMaxMm: number;
  readonly blood: BloodWeights;
  readonly regionWeight: number;
  /** Weight of the blood evidence of black samples without speckle (20 MHz blood, but also echolucent plaque). */
  readonly unlitWeight: number;
  readonly lumenEdgeWeight: number;
  readonly lumenInnerMm: number;
  readonly lumenOuterMm: number;
  readonly lumenJumpCost: number;
  readonly lumenMaxJump: number;
  readonly bloomMm: number;
  readonly minWallMm: number;
  readonly mediaMm: number;
  readonly adventitiaMm: number;
  readonly plaqueCheckMm: number;
  readonly vesselEdgeWeight: number;
  readonly vesselBrightWeight: number;
  readonly vesselBloodWeight: number;
  readonly vesselJumpCost: number;
  readonly vesselMaxJump: number;
  readonly vesselOffsetMm: number;
  readonly continuityCost: number;
  /** A first EEM search caps the lumen: 0 never, 1 without a previous frame, 2 always; cost per sample beyond the cap. */
  readonly vesselFirst: 0 | 1 | 2;
  readonly lumenCapWeight: number;
  readonly lumenCapToleranceMm: number;
  readonly continuityFreeMm: number;
  readonly lumenHarmonics: number;
  readonly vesselHarmonics: number;
}

export const DEFAULT_TUNING: BorderDetectorTuning = {
  minLumenRadiusMm: 0.58,
  maxRadiusMm: 4.5,
  ringDownEndMm: 1.1,
  temporalRampMm: 0.15,
  statHalfWindowMm: 0.05,
  statHalfRays: 3,
  alignMaxRays: 3,
  alignMaxMm: 0.09,
  blood: { brightness: 1, brightnessMid: 0.5, temporal: 1.2, texture: 1, darkCeiling: 25, darkMargin: 12, darkGain: 0.1, darkVariation: 1, darkVariationMid: 0.7 },
  regionWeight: 1,
  unlitWeight: 0.2,
  lumenEdgeWeight: 8,
  lumenInnerMm: 0.06,
  lumenOuterMm: 0.1,
  lumenJumpCost: 16,
  lumenMaxJump: 3,
  bloomMm: 0.015,
  minWallMm: 0.15,
  mediaMm: 0.08,
  adventitiaMm: 0.15,
  plaqueCheckMm: 0.1,
  vesselEdgeWeight: 20,
  vesselBrightWeight: 2,
  vesselBloodWeight: 5,
  vesselJumpCost: 8,
  vesselMaxJump: 2,
  vesselOffsetMm: 0,
  continuityCost: 0.5,
  vesselFirst: 1,
  lumenCapWeight: 3,
  lumenCapToleranceMm: 0.05,
  continuityFreeMm: 0.01,
  lumenHarmonics: 10,
  vesselHarmonics: 6,
};

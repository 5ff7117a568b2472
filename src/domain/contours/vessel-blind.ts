/**
 * The rays on which the EEM search must not trust the evidence (border-detector.ts): those blind
 * already (no signal, a side branch), those too short to hold the wall past the lumen, and those
 * behind a strong echo just outside the lumen (calcium, a stent strut), whose shadow hides the
 * media. The EEM is interpolated across them.
 */
import { BLIND_MARGIN_RAYS } from './blind-rays.ts';
import { widen } from './radial-profile.ts';
import { shadowedRays } from './vessel-search.ts';

/** Shadow test for the EEM: a strong echo within this band past the lumen, then no signal beyond this gap. */
const SHADOW_BAND_MM = 0.4;
const SHADOW_GAP_MM = 0.1;
/** The search for the echo starts this far inside the lumen border. */
const SHADOW_BACK_MM = 0.15;
const SHADOW_SHARE = 0.1;
/** ... within this depth behind the echo. */
const SHADOW_DEPTH_MM = 0.5;

/** The shadow test's windows in samples of the polar grid, from the grid's mm-to-samples rounding. */
export type ShadowWindows = { readonly back: number; readonly band: number; readonly gap: number; readonly depth: number };

export function shadowWindowsOf(samples: (lengthMm: number) => number): ShadowWindows {
  return { back: samples(SHADOW_BACK_MM), band: samples(SHADOW_BAND_MM), gap: samples(SHADOW_GAP_MM), depth: samples(SHADOW_DEPTH_MM) };
}

export interface VesselBlindInputs {
  /** Rays blind to both borders (1 = blind). */
  readonly blind: Uint8Array;
  /** The lumen's candidate index per ray, counted from `candidateFirst`. */
  readonly lumenPath: Int32Array;
  readonly candidateFirst: number;
  readonly ringEnd: number;
  readonly insideCount: Int32Array;
  /** Samples past the lumen a ray must hold to show the wall (the gap, the adventitia window, a margin). */
  readonly wallSamples: number;
  readonly smooth: Float32Array;
  readonly lit: Uint8Array;
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly brightLevel: number;
}

/** A new mask: `blind`, the rays too short for the wall, and the shadowed rays, widened by BLIND_MARGIN_RAYS. */
export function vesselBlindRays(inputs: VesselBlindInputs, windows: ShadowWindows): Uint8Array {
  const { blind, lumenPath, candidateFirst, ringEnd, insideCount, wallSamples, smooth, lit, angleCount, sampleCount, brightLevel } = inputs;
  const vesselBlind = blind.slice();
  const shadowFrom = new Float32Array(angleCount);
  for (let a = 0; a < angleCount; a++) {
    const lumenSample = candidateFirst + lumenPath[a]!;
    // The strong echo may sit on the lumen border itself (a strut, calcium at the intima).
    shadowFrom[a] = Math.max(ringEnd, lumenSample - windows.back);
    if (insideCount[a]! < lumenSample + wallSamples) vesselBlind[a] = 1;
  }
  shadowedRays(smooth, lit, shadowFrom, insideCount, angleCount, sampleCount, windows.band, windows.gap, windows.depth, brightLevel, SHADOW_SHARE, vesselBlind);
  widen(vesselBlind, BLIND_MARGIN_RAYS);
  return vesselBlind;
}

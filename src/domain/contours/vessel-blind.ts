/**
 * The rays on which the EEM search must not trust the evidence (border-detector.ts): those blind
 * already (no signal, a side branch), those too short to hold the wall past the lumen, and those
 * behind a strong echo just outside the lumen (calcium, a stent strut), whose shadow hides the
 * media. The EEM is interpolated across them; also, after a first search, across an EEM that
 * took a thick echo (calcium) with a shadow behind it for the vessel's edge (eemOnCalcium).
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

/** Where the shadow behind a thick echo (calcium) is read from: where the echo falls below this share of its peak. */
const ECHO_END_SHARE = 0.5;
/** An EEM on calcium over at least this many rays is bridged (eemOnCalcium), widened by the margin. */
const CALCIUM_MIN_RAYS = 6;
const CALCIUM_MARGIN_RAYS = 4;

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
  const { blind, lumenPath, candidateFirst, insideCount, wallSamples, smooth, lit, angleCount, sampleCount, brightLevel } = inputs;
  const vesselBlind = blind.slice();
  for (let a = 0; a < angleCount; a++) if (insideCount[a]! < candidateFirst + lumenPath[a]! + wallSamples) vesselBlind[a] = 1;
  shadowedRays(smooth, lit, shadowFrom(inputs, windows), insideCount, angleCount, sampleCount, windows.band, windows.gap, windows.depth, brightLevel, SHADOW_SHARE, vesselBlind);
  widen(vesselBlind, BLIND_MARGIN_RAYS);
  return vesselBlind;
}

/** Where each ray's search for the strong echo starts: it may sit on the lumen border itself (a strut, calcium at the intima). */
function shadowFrom(inputs: VesselBlindInputs, windows: ShadowWindows): Float32Array {
  const from = new Float32Array(inputs.angleCount);
  for (let a = 0; a < inputs.angleCount; a++) from[a] = Math.max(inputs.ringEnd, inputs.candidateFirst + inputs.lumenPath[a]! - windows.back);
  return from;
}

/**
 * Calcium (issue 23): a band up to 0.2 mm thick, bright through its depth, with an acoustic shadow
 * behind it. Read from the echo's peak the shadow test above counts the calcium's back half as signal
 * and misses it, and the EEM search then takes the calcium's leading edge for the media-adventitia
 * step, 1.3 mm inside the vessel (tuning 1106, frames 794–809). Yet behind some calcium the
 * adventitia still shows faintly past the shadow and the search finds the true EEM there (tuning
 * 1105, frame 1100): those rays keep their evidence. So `out` marks the runs of at least
 * CALCIUM_MIN_RAYS rays behind a thick echo with no signal after it (read from the echo's end)
 * whose EEM (`eem`, candidate indices) lies in front of the shadow window's end, on the echo or in
 * its silent shadow, where no media-adventitia step can be; widened by CALCIUM_MARGIN_RAYS. The EEM
 * is searched again across them as across any shadow. Returns how many rays were marked before widening.
 */
export function eemOnCalcium(inputs: VesselBlindInputs, windows: ShadowWindows, eem: Int32Array, out: Uint8Array): number {
  const { lit, smooth, insideCount, angleCount, sampleCount, brightLevel, candidateFirst } = inputs;
  const shadow = new Uint8Array(angleCount);
  const shadowStart = new Int32Array(angleCount);
  shadowedRays(smooth, lit, shadowFrom(inputs, windows), insideCount, angleCount, sampleCount, windows.band, windows.gap, windows.depth, brightLevel, SHADOW_SHARE, shadow, ECHO_END_SHARE, shadowStart);
  for (let a = 0; a < angleCount; a++) shadow[a] = shadow[a] === 1 && inputs.blind[a] === 0 && candidateFirst + eem[a]! < shadowStart[a]! + windows.depth ? 1 : 0;
  out.fill(0);
  let marked = 0;
  forEachRun(shadow, CALCIUM_MIN_RAYS, (start, length) => {
    for (let j = 0; j < length; j++) out[(start + j) % angleCount] = 1;
    marked += length;
  });
  if (marked > 0) widen(out, CALCIUM_MARGIN_RAYS);
  return marked;
}

/** Calls `visit` for each circular run of at least minRun marked rays of `mask` (not when every ray is marked). */
function forEachRun(mask: Uint8Array, minRun: number, visit: (start: number, length: number) => void): void {
  const n = mask.length;
  for (let a = 0; a < n; a++) {
    if (mask[a] === 0 || mask[(a + n - 1) % n] === 1) continue;
    let length = 0;
    while (length < n && mask[(a + length) % n] === 1) length++;
    if (length >= minRun) visit(a, length);
  }
}

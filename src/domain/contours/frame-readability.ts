/**
 * Whether the detector could read a frame at all (issue 23), decided from what the frame shows,
 * not from the border confidence alone. The confidence ranks how far good borders are right; it is
 * low on many good frames (3 % of them overall, 10 % of frames detected alone score below 0.2), so
 * "no border" on a confidence cut hid good borders from the clinician and could move the MLA. A
 * frame is unreadable when it is not an IVUS frame centred on its catheter, or shows nothing:
 *
 * - ring-down: every IVUS frame shows the catheter's own echo, bright rings around the centre on
 *   every ray, falling to the darker blood (or tissue) just outside. Per radius the 25th
 *   percentile over the rays (robust to the guidewire and to a wall touching the catheter) must
 *   peak between RING_PEAK_MIN_MM and RING_PEAK_MAX_MM, fall by RING_MIN_CONTRAST grey levels
 *   beyond it, and stand out at its peak on nearly every ray (RING_MIN_UNIFORMITY).
 *   Black, uniform, saturated and gradient frames, white noise, an angiogram and a sector
 *   ultrasound of anything else have no such rings; a frame scaled wrong has them too far out or
 *   inside the polar image's first sample.
 * - seeing rays: at least MIN_SEEING_SHARE of the rays carry speckle out to the vessel (the
 *   detector's blind-ray test: shadows, the guidewire, the frame's edge).
 * - borders not pinned: a vessel border at the outermost candidate radius on most rays is the
 *   search giving up (the edge of the field of view), not a wall.
 * - a confidence that is a number (no floor on it: see below).
 *
 * Pure and cheap: a quickselect per radius over every RING_RAY_STRIDE-th ray, out to about 1.5 mm,
 * and one pass over the vessel radii (0.17 ms a frame measured under load, against 15 ms or more for detection).
 */
import { selectNth } from './select-nth.ts';

/** Radius band searched for the ring-down's peak, from the polar image's first sample (about 0.39 mm). */
const RING_SEARCH_MM = 0.9;
/**
 * Where the ring-down's peak may lie: the catheter sheath of 2.6–3.5 F catheters (radius 0.43–0.58
 * mm) and its echo. The generator's lies at 0.465–0.495 mm on every frame of the TUNING seeds; a
 * frame scaled 2x puts it at the search's end (0.89 mm), one scaled 0.5x inside the first sample
 * (what peaks then is the shrunken wall, at 0.76–0.85 mm).
 */
export const RING_PEAK_MIN_MM = 0.4;
export const RING_PEAK_MAX_MM = 0.72;
/**
 * The 25th-percentile level must fall by at least this many grey levels past its peak, within
 * RING_FALL_MM. TUNING seeds: IVUS frames 148–255 (the least at 60 MHz with bright blood); white
 * noise 0–46, a sector scan 0–44, an angiogram 0–106 (a bright spot at the frame's centre).
 */
export const RING_MIN_CONTRAST = 130;
/**
 * The 5th percentile over the rays at the ring's peak, above the floor, as a share of the
 * contrast: the ring-down is on every ray. TUNING seeds: IVUS frames 0.96–1.0 (the guidewire lies
 * outside the ring); a frame scaled 0.5x, whose shrunken wall peaks in the band, −250 to 0.06.
 */
export const RING_MIN_UNIFORMITY = 0.5;
const RING_FALL_MM = 0.6;
const RING_RAY_STRIDE = 4;
/** At least this share of rays must see speckle at the vessel (good frames: 0.82 and more). */
export const MIN_SEEING_SHARE = 0.3;
/** At most this share of rays may have the vessel border within PIN_MARGIN_MM of the outermost candidate radius. */
export const MAX_PINNED_SHARE = 0.6;
const PIN_MARGIN_MM = 0.05;
/*
 * No confidence floor: on the TUNING seeds every garbage frame already fails the tests above, and
 * any floor that would catch a garbage frame on its own (white noise 0.002–0.005) also took IVUS
 * frames the detector read badly (lumen Dice ≈ 0.3, confidence 0.004–0.008), which must keep their
 * flagged border for the clinician to correct. Only a confidence that is no number is unreadable.
 */

export interface ReadabilityInputs {
  /** The raw polar image (angle-major, angleCount rows of sampleCount). */
  readonly polar: Float32Array;
  readonly angleCount: number;
  readonly sampleCount: number;
  /** Per ray: samples 0 .. insideCount[a] − 1 lie inside the frame. */
  readonly insideCount: Int32Array;
  /** Radius of sample 0 and the spacing of samples, in mm. */
  readonly firstRadiusMm: number;
  readonly sampleMm: number;
  readonly pixelSpacingMm: number;
  /** The vessel border per ray in pixels, and the outermost radius the search could place it at. */
  readonly vesselRadiiPx: Float32Array;
  readonly maxBorderRadiusPx: number;
  /** Share of rays on which the vessel border was interpolated (confidence.ts). */
  readonly vesselBlindShare: number;
  readonly confidence: number;
}

export interface ReadabilityFeatures {
  /** Fall of the 25th-percentile level from the ring-down's peak, grey levels. */
  readonly ringContrast: number;
  /** Radius of that peak, mm. */
  readonly ringPeakMm: number;
  /** The 5th percentile over the rays at the peak, above the floor, as a share of the contrast (1: the same on every ray). */
  readonly ringUniformity: number;
  readonly seeingShare: number;
  readonly pinnedShare: number;
  readonly confidence: number;
}

/** Scratch for the per-radius sort, reused across calls. */
let column = new Float32Array(0);

export function readabilityFeatures(inputs: ReadabilityInputs): ReadabilityFeatures {
  const { polar, angleCount, sampleCount, insideCount, firstRadiusMm, sampleMm } = inputs;
  const searchEnd = Math.min(sampleCount, Math.max(1, Math.round((RING_SEARCH_MM - firstRadiusMm) / sampleMm)));
  const fall = Math.max(1, Math.round(RING_FALL_MM / sampleMm));
  const profileEnd = Math.min(sampleCount, searchEnd + fall);
  const rays = Math.ceil(angleCount / RING_RAY_STRIDE);
  if (column.length < rays) column = new Float32Array(rays);
  const level = new Float32Array(profileEnd);
  for (let k = 0; k < profileEnd; k++) {
    let count = 0;
    // Samples outside the frame carry no data (0): a cropped field would read as a ring's fall.
    for (let a = 0; a < angleCount; a += RING_RAY_STRIDE) if (k < insideCount[a]!) column[count++] = polar[a * sampleCount + k]!;
    level[k] = count > 0 ? selectNth(column, count, Math.floor(count / 4)) : 0;
  }
  let peak = 0;
  for (let k = 1; k < searchEnd; k++) if (level[k]! > level[peak]!) peak = k;
  let floor = level[peak]!;
  for (let k = peak; k < Math.min(profileEnd, peak + fall); k++) floor = Math.min(floor, level[k]!);
  // The ring-down is the same on every ray: even the 5th percentile over the rays stands out at its peak.
  let atPeak = 0;
  for (let a = 0; a < angleCount; a += RING_RAY_STRIDE) if (peak < insideCount[a]!) column[atPeak++] = polar[a * sampleCount + peak]!;
  const lowAtPeak = atPeak > 0 ? selectNth(column, atPeak, Math.floor(atPeak / 20)) : 0;
  // A peak on the first sample is no ring: the level only falls from the centre outwards (a gradient,
  // or a ring-down inside the polar image's first sample, a frame scaled too small).
  const ringContrast = peak === 0 ? 0 : level[peak]! - floor;

  const pinLimit = inputs.maxBorderRadiusPx - PIN_MARGIN_MM / inputs.pixelSpacingMm;
  let pinned = 0;
  for (let a = 0; a < inputs.vesselRadiiPx.length; a++) if (inputs.vesselRadiiPx[a]! >= pinLimit) pinned++;
  return {
    ringContrast,
    ringUniformity: ringContrast > 0 ? (lowAtPeak - floor) / ringContrast : 0,
    ringPeakMm: firstRadiusMm + peak * sampleMm,
    seeingShare: 1 - inputs.vesselBlindShare,
    pinnedShare: inputs.vesselRadiiPx.length > 0 ? pinned / inputs.vesselRadiiPx.length : 1,
    confidence: inputs.confidence,
  };
}

/** Whether a frame with these features was read: false sends it to "no border" (api.ts). */
export function isReadableFrame(features: ReadabilityFeatures): boolean {
  return (
    features.ringContrast >= RING_MIN_CONTRAST &&
    features.ringUniformity >= RING_MIN_UNIFORMITY &&
    features.ringPeakMm >= RING_PEAK_MIN_MM &&
    features.ringPeakMm <= RING_PEAK_MAX_MM &&
    features.seeingShare >= MIN_SEEING_SHARE &&
    features.pinnedShare <= MAX_PINNED_SHARE &&
    Number.isFinite(features.confidence)
  );
}

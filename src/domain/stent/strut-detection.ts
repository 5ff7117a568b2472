/**
 * Stent struts in one B-mode frame (issue 28). A metal strut is the brightest thing in the wall's
 * reach on its A-lines, over a short arc (a strut is about 0.1 mm wide), and it casts a shadow: the
 * lines behind it are much darker than the lines on BOTH sides of it. The second test is what tells
 * a strut from a calcium arc (bright with a shadow too, but the shadow spans tens of degrees, so the
 * lines beside a calcium edge are dark on one side) and from bright tissue (no shadow).
 *
 * The frame is read in polar form around the catheter (contours/polar-sampler.ts), one line per
 * degree and one sample per STEP_MM; the guidewire lies against the catheter, inside MIN_RADIUS_MM.
 */
import { createPolarSampler, type PolarSampler } from '../contours/polar-sampler.ts';
import { readWallBins, type WallBins } from './wall-gap.ts';

export interface StentFrameGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly centreX: number;
  readonly centreY: number;
  readonly pixelSpacingMm: number;
}

/** One detected strut: where its middle lies around the catheter, and how sure the detector is. */
export interface Strut {
  readonly angleRad: number;
  readonly radiusMm: number;
  /** Shadow depth: 1 − (behind the strut) / (beside it); higher is surer. */
  readonly shadowContrast: number;
}

/** What one frame's reading keeps: its struts and where wall shows along each line. */
export interface StentFrameReading {
  readonly struts: readonly Strut[];
  /** The echo along each line beyond the catheter, in bins (wall-gap.ts): where the wall lies behind the stent. */
  readonly wall: WallBins;
}

export const LINE_COUNT = 360;
export const STEP_MM = 0.01;
/** Struts lie beyond the guidewire (which touches the catheter, out to about 0.9 mm)... */
const MIN_RADIUS_MM = 0.95;
/** ...and inside the largest stent that fits a coronary artery. */
const MAX_RADIUS_MM = 2.8;
const FIELD_MM = 3.4;
/** In front of the strut: blood and the strut's own echo, as bright as beside it. */
const FRONT_MM = 0.2;
/** The step from no shadow to shadow must be at least this (front ratio minus behind ratio). */
const MIN_STEP = 0.35;
/** Past the first step that qualifies, the best step is looked for this much further out. */
const REFINE_MM = 0.12;
/** What lies beside a shadow must be wall: at least this share of the frame's wall brightness. */
const MIN_BESIDE_SHARE = 0.35;
/** The strut's echo is looked for this far either side of the step. */
const PEAK_SEARCH_MM = 0.08;
/** Where its shadow is read: from just behind the strut's ring-down to half a millimetre behind it. */
const SHADOW_FROM_MM = 0.12;
const SHADOW_TO_MM = 1.0;
/** Lines beside a strut, on each side, that its shadow is compared with (degrees). */
const BESIDE_FROM = 4;
const BESIDE_TO = 10;
/** Behind a strut the lines are at most this share of the brightness beside it. */
const MAX_SHADOW_RATIO = 0.72;
/** A strut spans a few degrees; a run of strut-like lines wider than this is something else. */
const MAX_STRUT_ARC_MM = 0.45;
/** The peak is the strut's front; its middle lies half a strut's thickness behind it. */
const FRONT_TO_MIDDLE_MM = 0.04;

export interface StrutDetector {
  readonly sampler: PolarSampler;
  /** The polar image of the last frame read (LINE_COUNT lines of sampleCount samples). */
  readonly polar: Float32Array;
  readonly sampleCount: number;
  /**
   * Per line, what the last detect() found (for the golden test, tests/domain/stent/strut-golden.ts):
   * the shadow contrast (0 where the line has no strut step) and, where it is above 0, the strut's
   * echo, the sample it lies at and the step's height.
   */
  readonly lines: { readonly contrast: Float32Array; readonly peak: Float32Array; readonly peakAt: Int32Array; readonly step: Float64Array };
  detect(frame: Uint8Array): StentFrameReading;
}

export function createStrutDetector(geometry: StentFrameGeometry): StrutDetector {
  const stepPx = STEP_MM / geometry.pixelSpacingMm;
  const sampleCount = Math.ceil(FIELD_MM / STEP_MM);
  const sampler = createPolarSampler({
    frameWidth: geometry.frameWidth,
    frameHeight: geometry.frameHeight,
    centreX: geometry.centreX,
    centreY: geometry.centreY,
    angleCount: LINE_COUNT,
    firstRadiusPx: 0,
    radialStepPx: stepPx,
    sampleCount,
  });
  const polar = new Float32Array(LINE_COUNT * sampleCount);

  const lineSums = new Float64Array(sampleCount + 1);
  const besideSums = new Float64Array(sampleCount + 1);
  const peakAt = new Int32Array(LINE_COUNT);
  const peak = new Float32Array(LINE_COUNT);
  const contrast = new Float32Array(LINE_COUNT);
  const step = new Float64Array(LINE_COUNT);
  const behindN = Math.round((SHADOW_TO_MM - SHADOW_FROM_MM) / STEP_MM);
  const frontN = Math.round(FRONT_MM / STEP_MM);
  const shadowFrom = Math.round(SHADOW_FROM_MM / STEP_MM);
  const peakSearch = Math.round(PEAK_SEARCH_MM / STEP_MM);
  const refineN = Math.round(REFINE_MM / STEP_MM);
  const minK = Math.round(MIN_RADIUS_MM / STEP_MM);
  const maxK = Math.round(MAX_RADIUS_MM / STEP_MM);
  const { insideCount } = sampler;
  const histogram = new Uint32Array(257);

  // The lines beside line a, on each side (a−10..a−4 and a+4..a+10), are the 7 lines round a−7 and
  // round a+7: their mean is found once per frame for every line as a middle (windowMean), not twice
  // per line (that was two thirds of the struts' time). Summed in float32 in the same order as ever
  // (the lower line first), so every mean is the same to the bit.
  const besideOffset = (BESIDE_FROM + BESIDE_TO) / 2;
  const windowMean = new Float32Array(LINE_COUNT * sampleCount);
  /** Per middle line, the samples all 7 of its lines have (beyond, the mean is no data). */
  const windowInside = new Int32Array(LINE_COUNT);
  const windowMeans = (): void => {
    const count = BESIDE_TO - BESIDE_FROM + 1;
    const rowOf = (line: number): number => ((line + LINE_COUNT) % LINE_COUNT) * sampleCount;
    for (let c = 0; c < LINE_COUNT; c++) {
      const row = c * sampleCount;
      const r0 = rowOf(c - 3);
      const r1 = rowOf(c - 2);
      const r2 = rowOf(c - 1);
      const r4 = rowOf(c + 1);
      const r5 = rowOf(c + 2);
      const r6 = rowOf(c + 3);
      let inside = sampleCount;
      for (let d = -3; d <= 3; d++) inside = Math.min(inside, insideCount[(c + d + LINE_COUNT) % LINE_COUNT]!);
      windowInside[c] = inside;
      for (let k = 0; k < inside; k++) {
        let sum = Math.fround(polar[r0 + k]! + polar[r1 + k]!);
        sum = Math.fround(sum + polar[r2 + k]!);
        sum = Math.fround(sum + polar[row + k]!);
        sum = Math.fround(sum + polar[r4 + k]!);
        sum = Math.fround(sum + polar[r5 + k]!);
        sum = Math.fround(sum + polar[r6 + k]!);
        windowMean[row + k] = sum / count;
      }
    }
  };

  return {
    sampler,
    polar,
    sampleCount,
    lines: { contrast, peak, peakAt, step },
    detect(frame) {
      sampler.resample(frame, polar);
      contrast.fill(0);
      const level = wallLevel(polar, sampleCount, insideCount, histogram);
      const minBeside = MIN_BESIDE_SHARE * level;
      windowMeans();
      for (let a = 0; a < LINE_COUNT; a++) {
        const row = a * sampleCount;
        const leftMiddle = (a - besideOffset + LINE_COUNT) % LINE_COUNT;
        const rightMiddle = (a + besideOffset) % LINE_COUNT;
        const leftRow = leftMiddle * sampleCount;
        const rightRow = rightMiddle * sampleCount;
        const inside = Math.min(insideCount[a]!, sampleCount);
        // Samples where the line and both sides have data; beyond, nothing more is summed.
        const read = Math.min(inside, windowInside[leftMiddle]!, windowInside[rightMiddle]!);
        let lineSum = 0;
        let besideSum = 0;
        lineSums[0] = 0;
        besideSums[0] = 0;
        for (let k = 0; k < read; k++) {
          lineSum += polar[row + k]!;
          besideSum += Math.min(windowMean[leftRow + k]!, windowMean[rightRow + k]!);
          lineSums[k + 1] = lineSum;
          besideSums[k + 1] = besideSum;
        }
        lineSums.fill(lineSum, read + 1);
        besideSums.fill(besideSum, read + 1);
        // The strut's front: where the line turns from as bright as (or brighter than) the lines
        // beside it to much darker than they are.
        const last = Math.min(maxK, inside - shadowFrom - behindN - 1);
        let best = -1;
        let bestScore = 0;
        let bestRatio = 1;
        for (let k = minK; k <= last; k++) {
          // The first shadow along the line is the strut's (deeper ones are calcium or the far field).
          if (best >= 0 && k > best + refineN) break;
          const behindLine = lineSums[k + shadowFrom + behindN]! - lineSums[k + shadowFrom]!;
          const behindSide = besideSums[k + shadowFrom + behindN]! - besideSums[k + shadowFrom]!;
          if (!(behindSide > minBeside * behindN)) continue;
          const ratio = behindLine / behindSide;
          if (ratio > MAX_SHADOW_RATIO) continue;
          const frontLine = lineSums[k]! - lineSums[k - frontN]!;
          const frontSide = besideSums[k]! - besideSums[k - frontN]!;
          // Shadow depth behind, and no shadow yet in front: the step's height.
          const score = frontLine / Math.max(1, frontSide) - ratio;
          if (score >= MIN_STEP && score > bestScore) {
            bestScore = score;
            best = k;
            bestRatio = ratio;
          }
        }
        if (best < 0) continue;
        // The strut's echo is the brightest sample around the step.
        let front = best;
        for (let k = Math.max(0, best - peakSearch); k <= Math.min(inside - 1, best + peakSearch); k++) {
          if (polar[a * sampleCount + k]! > polar[a * sampleCount + front]!) front = k;
        }
        peakAt[a] = front;
        peak[a] = polar[a * sampleCount + front]!;
        contrast[a] = 1 - bestRatio;
        step[a] = bestScore;
      }
      return {
        struts: strutsFromLines(contrast, peak, peakAt),
        wall: readWallBins(polar, LINE_COUNT, sampleCount, STEP_MM, insideCount),
      };
    },
  };
}

/** Runs of strut lines (wrapping round 360°) become one strut each, at the run's brightest line. */
function strutsFromLines(contrast: Float32Array, peak: Float32Array, peakAt: Int32Array): Strut[] {
  const struts: Strut[] = [];
  // Start scanning just after a line that is not a strut line, so no run is split by the wrap.
  let start = 0;
  while (start < LINE_COUNT && contrast[start]! > 0) start++;
  if (start === LINE_COUNT) return struts;
  let a = 0;
  while (a < LINE_COUNT) {
    const line = (start + a) % LINE_COUNT;
    if (contrast[line]! <= 0) {
      a++;
      continue;
    }
    let length = 0;
    let best = line;
    let bestContrast = 0;
    while (a + length < LINE_COUNT && contrast[(start + a + length) % LINE_COUNT]! > 0) {
      const l = (start + a + length) % LINE_COUNT;
      if (peak[l]! > peak[best]!) best = l;
      bestContrast = Math.max(bestContrast, contrast[l]!);
      length++;
    }
    const radiusMm = peakAt[best]! * STEP_MM + FRONT_TO_MIDDLE_MM;
    const arcMm = (length * 2 * Math.PI * radiusMm) / LINE_COUNT;
    if (arcMm <= MAX_STRUT_ARC_MM) struts.push({ angleRad: (2 * Math.PI * best) / LINE_COUNT, radiusMm, shadowContrast: bestContrast });
    a += length;
  }
  return struts;
}

/** The frame's wall brightness: the 90th percentile of the samples within the struts' reach (`histogram`: 257 counts, kept between frames). */
function wallLevel(polar: Float32Array, sampleCount: number, insideCount: Int32Array, histogram: Uint32Array): number {
  histogram.fill(0);
  let total = 0;
  const from = Math.round(MIN_RADIUS_MM / STEP_MM);
  const to = Math.round(MAX_RADIUS_MM / STEP_MM);
  for (let a = 0; a < LINE_COUNT; a += 2) {
    const end = Math.min(to, insideCount[a]! - 1);
    for (let k = from; k <= end; k += 2) {
      histogram[Math.min(256, Math.max(0, Math.round(polar[a * sampleCount + k]!)))]!++;
      total++;
    }
  }
  let seen = 0;
  for (let v = 0; v <= 256; v++) {
    seen += histogram[v]!;
    if (seen >= 0.9 * total) return v;
  }
  return 256;
}

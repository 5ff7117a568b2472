/**
 * Automatic lumen border detection on one B-mode frame, the classic way:
 *
 * 1. Polar resampling around the catheter centre: 360 rays, one sample per pixel of radius
 *    (polar-resample.ts), lightly smoothed across neighbouring rays and along each ray ([1 2 1]/4
 *    both ways) to tame the speckle.
 * 2. Ring-down: the catheter's own echo rings are a fixed pattern, the same in every frame. Its level
 *    per radius is estimated as a low percentile over the rays, where the lumen is what most rays see
 *    near the catheter, and its excess over the blood level is removed in the linear power domain
 *    inside the ring-down zone only.
 * 3. Edge cost: blood is dark, the intima bright. Along every ray the step response
 *      E(a, k) = mean(Q[a][k .. k + W_out − 1]) − mean(Q[a][k − W_in .. k − 1])
 *    is large where a dark run gives way to a bright one. A lumen holds no tissue, so a candidate
 *    also pays for every bright sample between the nearest allowed border and itself:
 *      cost(a, k) = −E(a, k) + λ_in · #{ k_min ≤ k' < k : Q[a][k'] > T }
 *    (T: Otsu's threshold of the frame's polar samples, splitting blood from tissue). This keeps the
 *    border on the lumen side of the plaque rather than on the media-adventitia edge further out,
 *    and in front of calcium rather than on its brighter leading edge just behind the lumen border.
 * 4. Continuity with the previous frame (frames lie 1/60 mm apart, so the border barely moves):
 *      + γ · max(0, |k − k_prev(a)| − τ),  k_prev(a) the previous frame's border sample on ray a
 * 5. Rays without signal: behind the guidewire every echo past the wire's own is lost, the lumen
 *    border included. A ray whose outer band (from BLIND_BAND_START_MM on) holds almost no sample
 *    above T is blind: its cost is flat, so the search crosses it on smoothness alone, and its
 *    radius is afterwards interpolated from the nearest seeing rays on each side. (Calcium shadows
 *    only what lies behind the calcium; its rays still show the lumen border in front of it.)
 * 6. Dynamic programming (border-search.ts) for the closed border, then sub-sample refinement of
 *    each ray's edge (parabola through the step response around the chosen sample), the radius moved
 *    outwards by the log-compression bloom (see AXIAL_BLOOM_MM), and angular low-pass filtering
 *    (Fourier series of r(θ) truncated at FOURIER_HARMONICS).
 *
 * Output: radius per ray, the dense polygon (one vertex per ray) and a few control points (evenly
 * spaced in angle) through which the contour tool draws its smooth closed curve.
 */
import type { Point } from '../../src/domain/annotations/manifest.ts';
import { DEFAULT_ANGLE_COUNT, DEFAULT_CONTROL_POINTS } from '../../src/domain/contours/border-detection.ts';
import { createBorderSearchWorkspace, searchClosedBorder, type BorderSearchWorkspace } from '../../src/domain/contours/border-search.ts';
import { createPolarTable, resamplePolar, type PolarTable } from './polar-resample.ts';
import { controlPointsOf, interpolateBlind, lowPass, polygonOf, widen } from '../../src/domain/contours/radial-profile.ts';
import { removeRingDown } from '../../src/domain/contours/ring-down.ts';

export interface LumenDetectorOptions {
  readonly frameSizePx: number;
  readonly pixelSpacingMm: number;
  /** Catheter centre in image coordinates; the frame's middle by default. */
  readonly centreX?: number;
  readonly centreY?: number;
  /** Rays round the circle. */
  readonly angleCount?: number;
  /** Control points of the output contour. */
  readonly controlPointCount?: number;
  /** Nearest a lumen border may lie to the catheter centre (outside the catheter and its sheath). */
  readonly minLumenRadiusMm?: number;
  /** Furthest a lumen border may lie; by default 3 mm, or less where the field of view ends sooner. */
  readonly maxLumenRadiusMm?: number;
}

export interface LumenDetection {
  /** Border radius per ray, in pixels from the centre (ray a at angle 2πa / angleCount). */
  readonly radiiPx: Float32Array;
  /** The dense closed polygon, one vertex per ray, in image pixels. */
  readonly polygon: Point[];
  /** Control points evenly spaced in angle, starting at angle 0, in image pixels. */
  readonly controlPoints: Point[];
  /** Share of the rays that saw no tissue (guidewire or calcium shadow) and were interpolated. */
  readonly blindFraction: number;
}

export interface LumenDetector {
  readonly angleCount: number;
  /** Detects the border on `frame`; `previous` (the last frame's radiiPx) adds the continuity cost. */
  detect(frame: Uint8Array, previous?: Float32Array | null): LumenDetection;
}

/** Outer radius of the catheter's echo rings (ring-down) zone, in mm from the centre. */
const RING_DOWN_END_MM = 0.72;
/** Just outside a 3 F catheter (0.5 mm radius) and its sheath's echo rings. */
const DEFAULT_MIN_LUMEN_RADIUS_MM = 0.58;
const DEFAULT_MAX_LUMEN_RADIUS_MM = 3;
/** Windows of the step response: inside (lumen side) and outside (wall side) of a candidate. */
const INNER_WINDOW_MM = 0.06;
const OUTER_WINDOW_MM = 0.1;
/** Cost per bright sample inside a candidate border, in gray levels of step response. */
const INSIDE_BRIGHT_COST = 4;
/** Continuity with the previous frame: cost per sample beyond a free band of τ. */
const CONTINUITY_COST = 6;
const CONTINUITY_FREE_MM = 0.01;
/** Smoothness across rays: largest jump between neighbouring rays, and cost per squared sample of jump. */
const MAX_JUMP_SAMPLES = 3;
const JUMP_COST = 8;
/** A ray is blind when less than this share of its outer band is brighter than the tissue threshold. */
const BLIND_BRIGHT_SHARE = 0.03;
/** The blind test looks this far beyond the minimal lumen radius (past a guidewire's own echoes). */
const BLIND_BAND_START_MM = 0.8;
/** Blind rays are widened by this many rays on each side (shadow edges are soft). */
const BLIND_MARGIN_RAYS = 2;
/**
 * Log compression blooms a bright echo towards the dark side: the axial pulse (about 50 µm long)
 * smears the wall's echo over a few samples into the lumen, and in decibels even a tenth of the
 * wall's power is far above blood. The step response therefore peaks about this far inside the
 * true interface, and the refined radius is moved out by it.
 */
const AXIAL_BLOOM_MM = 0.015;
/** Harmonics of r(θ) kept by the angular low-pass filter. */
const FOURIER_HARMONICS = 10;

export function createLumenDetector(options: LumenDetectorOptions): LumenDetector {
  const {
    frameSizePx,
    pixelSpacingMm,
    centreX = frameSizePx / 2,
    centreY = frameSizePx / 2,
    angleCount = DEFAULT_ANGLE_COUNT,
    controlPointCount = DEFAULT_CONTROL_POINTS,
    minLumenRadiusMm = DEFAULT_MIN_LUMEN_RADIUS_MM,
  } = options;
  if (!(pixelSpacingMm > 0)) throw new RangeError('pixelSpacingMm must be positive');
  if (!Number.isInteger(angleCount) || angleCount < 16) throw new RangeError('angleCount must be an integer of at least 16');
  if (!Number.isInteger(controlPointCount) || controlPointCount < 3) throw new RangeError('controlPointCount must be at least 3');
  const fieldRadiusPx = Math.min(centreX, centreY, frameSizePx - centreX, frameSizePx - centreY) - 1;
  const innerWindow = Math.max(2, Math.round(INNER_WINDOW_MM / pixelSpacingMm));
  const outerWindow = Math.max(2, Math.round(OUTER_WINDOW_MM / pixelSpacingMm));
  const continuityFree = CONTINUITY_FREE_MM / pixelSpacingMm;
  const minRadiusPx = Math.round(minLumenRadiusMm / pixelSpacingMm);
  const maxRadiusPx = Math.min(
    Math.round((options.maxLumenRadiusMm ?? DEFAULT_MAX_LUMEN_RADIUS_MM) / pixelSpacingMm),
    Math.floor(fieldRadiusPx) - outerWindow - 1,
  );
  if (maxRadiusPx <= minRadiusPx + 4) throw new RangeError('the field of view is too small for the lumen search range');

  // Polar samples run from the inner window before the first candidate to the edge of the field of view.
  const firstRadiusPx = Math.max(1, minRadiusPx - innerWindow - 1);
  const sampleCount = Math.floor(fieldRadiusPx) - firstRadiusPx;
  const candidateFirst = minRadiusPx - firstRadiusPx;
  const candidateCount = maxRadiusPx - minRadiusPx + 1;
  const ringEnd = Math.min(sampleCount, Math.round(RING_DOWN_END_MM / pixelSpacingMm) - firstRadiusPx);
  const blindStart = Math.round(BLIND_BAND_START_MM / pixelSpacingMm) - firstRadiusPx;
  const bloomPx = AXIAL_BLOOM_MM / pixelSpacingMm;

  const table: PolarTable = createPolarTable({ frameSizePx, centreX, centreY, angleCount, firstRadiusPx, sampleCount });
  const polar = new Float32Array(angleCount * sampleCount);
  const smooth = new Float32Array(angleCount * sampleCount);
  const prefix = new Float64Array(sampleCount + 1);
  const step = new Float32Array(angleCount * candidateCount);
  const cost = new Float32Array(angleCount * candidateCount);
  const search: BorderSearchWorkspace = createBorderSearchWorkspace(angleCount, candidateCount);
  const path = new Int32Array(angleCount);
  const column = new Float32Array(angleCount);
  const histogram = new Uint32Array(256);

  return {
    angleCount,
    detect(frame, previous = null) {
      resamplePolar(table, frame, polar);
      smoothPolar(polar, smooth, angleCount, sampleCount);
      removeRingDownByPercentile(smooth, angleCount, sampleCount, ringEnd, column);
      const threshold = otsuThreshold(smooth, angleCount, sampleCount, candidateFirst, histogram);

      // Step response and inside-brightness cost per candidate.
      const blind = new Uint8Array(angleCount);
      for (let a = 0; a < angleCount; a++) {
        const row = a * sampleCount;
        prefix[0] = 0;
        for (let k = 0; k < sampleCount; k++) prefix[k + 1] = prefix[k]! + smooth[row + k]!;
        // Bright samples between the first candidate and the current one (the ring-down is removed).
        let bright = 0;
        let outerBright = 0;
        let outerCount = 0;
        for (let k = Math.max(0, blindStart); k < sampleCount; k++) {
          outerCount++;
          if (smooth[row + k]! > threshold) outerBright++;
        }
        blind[a] = outerCount > 0 && outerBright < BLIND_BRIGHT_SHARE * outerCount ? 1 : 0;
        const out = a * candidateCount;
        for (let c = 0; c < candidateCount; c++) {
          const k = candidateFirst + c;
          const inner = (prefix[k]! - prefix[k - innerWindow]!) / innerWindow;
          const outer = (prefix[k + outerWindow]! - prefix[k]!) / outerWindow;
          const e = outer - inner;
          step[out + c] = e;
          cost[out + c] = -e + INSIDE_BRIGHT_COST * bright;
          if (smooth[row + k]! > threshold) bright++;
        }
      }
      widen(blind, BLIND_MARGIN_RAYS);
      let blindCount = 0;
      for (let a = 0; a < angleCount; a++) {
        if (blind[a] === 0) continue;
        blindCount++;
        cost.fill(0, a * candidateCount, (a + 1) * candidateCount);
      }

      if (previous && previous.length === angleCount) {
        for (let a = 0; a < angleCount; a++) {
          const expected = previous[a]! - bloomPx - minRadiusPx;
          const out = a * candidateCount;
          for (let c = 0; c < candidateCount; c++) {
            const excess = Math.abs(c - expected) - continuityFree;
            if (excess > 0) cost[out + c]! += CONTINUITY_COST * excess;
          }
        }
      }

      searchClosedBorder(cost, search, { maxJump: MAX_JUMP_SAMPLES, jumpPenalty: JUMP_COST }, path);

      // Sub-sample edge: parabola through the step response at the chosen sample and its neighbours.
      const radiiPx = new Float32Array(angleCount);
      for (let a = 0; a < angleCount; a++) {
        const c = path[a]!;
        let offset = 0;
        if (c > 0 && c < candidateCount - 1) {
          const row = a * candidateCount;
          const left = step[row + c - 1]!;
          const centre = step[row + c]!;
          const right = step[row + c + 1]!;
          const curvature = left - 2 * centre + right;
          if (curvature < 0) offset = Math.max(-1, Math.min(1, (0.5 * (left - right)) / curvature));
        }
        radiiPx[a] = minRadiusPx + c + offset + bloomPx;
      }
      if (blindCount === angleCount) {
        // Nothing seen at all: keep the last border if there is one.
        if (previous && previous.length === angleCount) radiiPx.set(previous);
      } else if (blindCount > 0) {
        interpolateBlind(radiiPx, blind);
      }
      lowPass(radiiPx, FOURIER_HARMONICS);
      return {
        radiiPx,
        polygon: polygonOf(radiiPx, centreX, centreY),
        controlPoints: controlPointsOf(radiiPx, centreX, centreY, controlPointCount),
        blindFraction: blindCount / angleCount,
      };
    },
  };
}

/** [1 2 1]/4 across rays (circular) then along each ray. */
function smoothPolar(input: Float32Array, out: Float32Array, angleCount: number, sampleCount: number): void {
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const before = ((a + angleCount - 1) % angleCount) * sampleCount;
    const after = ((a + 1) % angleCount) * sampleCount;
    for (let k = 0; k < sampleCount; k++) out[row + k] = 0.25 * (input[before + k]! + 2 * input[row + k]! + input[after + k]!);
  }
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    let left = out[row]!;
    for (let k = 1; k < sampleCount - 1; k++) {
      const centre = out[row + k]!;
      out[row + k] = 0.25 * (left + 2 * centre + out[row + k + 1]!);
      left = centre;
    }
  }
}

/**
 * Removes the ring-down's excess over the blood level in the ring zone (samples before ringEnd). Per
 * radius, the 25th percentile over the rays is taken as ring-down plus blood (the lumen surrounds the
 * catheter, so most rays see blood there); the subtraction in the power domain is ring-down.ts's.
 */
function removeRingDownByPercentile(values: Float32Array, angleCount: number, sampleCount: number, ringEnd: number, column: Float32Array): void {
  if (ringEnd <= 0) return;
  const level = new Float32Array(ringEnd);
  for (let k = 0; k < ringEnd; k++) {
    for (let a = 0; a < angleCount; a++) column[a] = values[a * sampleCount + k]!;
    column.sort();
    level[k] = column[Math.floor(angleCount / 4)]!;
  }
  removeRingDown(values, angleCount, sampleCount, ringEnd, level);
}

/** Otsu's threshold (the split maximising the between-class variance) of the samples from `first` on. */
function otsuThreshold(values: Float32Array, angleCount: number, sampleCount: number, first: number, histogram: Uint32Array): number {
  histogram.fill(0);
  let count = 0;
  let sum = 0;
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    for (let k = first; k < sampleCount; k++) {
      const v = values[row + k]!;
      const bin = v <= 0 ? 0 : v >= 255 ? 255 : Math.floor(v);
      histogram[bin]!++;
      sum += bin;
      count++;
    }
  }
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 255; t++) {
    below += histogram[t]!;
    belowSum += t * histogram[t]!;
    const above = count - below;
    if (below === 0 || above === 0) continue;
    const meanBelow = belowSum / below;
    const meanAbove = (sum - belowSum) / above;
    const between = below * above * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 0.5;
    }
  }
  return threshold;
}

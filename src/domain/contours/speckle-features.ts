/**
 * Per-sample evidence of blood versus tissue in the polar image (see border-detector.ts for how it
 * is used). Three cues, each a local statistic over a small polar window (box filters, computed
 * with running sums so every map costs two passes over the image):
 *
 * - Brightness: the local mean μ(a, k). Blood scatters far less than the wall, but echolucent
 *   plaque and the media are nearly as dark, and at 40–60 MHz blood is not dark at all.
 * - Temporal decorrelation: blood cells move between frames, so their speckle is redrawn; tissue
 *   persists. With the previous frame's polar image Q,
 *      d(a, k) = box((P − Q)²) / (2 σ²),
 *   σ² the frame's typical local speckle variance (the median of box(P²) − box(P)² over the search
 *   zone: in log-compressed, fully developed speckle it is the same for blood and tissue, about
 *   5.6 dB squared). Independent speckle gives d ≈ 1, persistent tissue d ≈ 0. A persistent step
 *   between regions cancels in P − Q, so d is not biased at the border the way a windowed
 *   correlation coefficient is. Where the image carries no speckle (clipped to black, a shadow)
 *   d means nothing; its weight is the local variance over σ², clamped to 1.
 * - Texture: the local variance over σ². Tissue adds structure (layers, fibres, calcium) to the
 *   speckle and reads above 1; blood is plain fully developed speckle (about 1), or, at 20 MHz,
 *   below the display floor (well under 1).
 *
 * They are combined into a blood log-odds per sample,
 *      L = −w_b g (μ − m) + w_t · c_t · (d − ½) / 0.25 − w_x · max(0, v − 1.5),
 * m the level between blood and tissue brightness, g = (m_t − m_b) / s² the linear discriminant's
 * gain (s the spread of μ within a class, see estimateBloodModel), c_t the temporal reliability, and
 * clamped to ±L_MAX so that no single sample decides a ray. Samples outside the frame are 0 (no
 * evidence). A frame read alone whose blood is nearly black (isDarkBlood: 20 MHz) is read on
 * absolute terms instead (issue 23): m at most DARK_MARGIN gray levels above blood's own level and
 * g at least a fixed gain, whatever the adventitia's brightness, plus the coefficient of variation
 * √v / μ over the statistics window (blood clipped at the display floor varies more than its mean,
 * speckled plaque far less). A black sample without speckle is blood by brightness (20 MHz blood falls below the
 * display floor), unless it lies in a shadow, which the lumen search decides (border-detector.ts).
 */

import { boxFilter, boxFilterValuesAndSquares } from './box-filter.ts';

export interface FeatureMaps {
  readonly mean: Float32Array;
  /** Local mean over the statistics window (the texture cue's coefficient of variation divides by it). */
  readonly statMean: Float32Array;
  /** Local variance of the current frame. */
  readonly variance: Float32Array;
  /** Temporal mean squared difference (box-filtered), or empty when there is no previous frame. */
  readonly difference: Float32Array;
  readonly scratch: Float32Array;
  readonly squares: Float32Array;
  readonly runningSum: Float64Array;
  /** The second running sum of the statistics window's fused pass (box-filter.ts). */
  readonly runningSquares: Float64Array;
}

export function createFeatureMaps(angleCount: number, sampleCount: number): FeatureMaps {
  const n = angleCount * sampleCount;
  return {
    mean: new Float32Array(n),
    statMean: new Float32Array(n),
    variance: new Float32Array(n),
    difference: new Float32Array(n),
    scratch: new Float32Array(n),
    squares: new Float32Array(n),
    runningSum: new Float64Array(Math.max(sampleCount + 1, sampleCount)),
    runningSquares: new Float64Array(sampleCount + 1),
  };
}

export interface WindowSizes {
  /** Brightness window, half sizes in rays and samples. */
  readonly meanRays: number;
  readonly meanSamples: number;
  /** Temporal and texture window. */
  readonly statRays: number;
  readonly statSamples: number;
}

/**
 * Fills maps.mean and maps.variance. Returns σ², the median local variance over samples
 * [first, sampleCount) of every ray.
 */
export function computeFeatures(polar: Float32Array, maps: FeatureMaps, angleCount: number, sampleCount: number, first: number, windows: WindowSizes): number {
  const { mean, statMean, variance, scratch, squares, runningSum } = maps;
  const n = angleCount * sampleCount;
  boxFilter(polar, mean, scratch, runningSum, angleCount, sampleCount, windows.meanRays, windows.meanSamples);
  // Local variance over the statistics window: box(P²) − box(P)², both boxes in one pass.
  boxFilterValuesAndSquares(polar, statMean, variance, { values: scratch, squares, running: runningSum, runningSquares: maps.runningSquares }, angleCount, sampleCount, windows.statRays, windows.statSamples);
  for (let s = 0; s < n; s++) {
    const v = variance[s]! - statMean[s]! * statMean[s]!;
    variance[s] = v > 0 ? v : 0;
  }
  return medianVariance(variance, angleCount, sampleCount, first);
}

/** Fills maps.difference: box((P − Q)²) with Q the previous polar image, aligned (temporal-alignment.ts). */
export function temporalDifference(polar: Float32Array, previous: Float32Array, maps: FeatureMaps, angleCount: number, sampleCount: number, windows: WindowSizes): void {
  const { difference, scratch, squares, runningSum } = maps;
  for (let s = 0; s < polar.length; s++) {
    const e = polar[s]! - previous[s]!;
    squares[s] = e * e;
  }
  boxFilter(squares, difference, scratch, runningSum, angleCount, sampleCount, windows.statRays, windows.statSamples);
}

/** Histogram resolution: bins per gray level (local means) and per gray level of standard deviation. */
const BINS_PER_LEVEL = 4;
const HISTOGRAM_BINS = 256 * BINS_PER_LEVEL;

/** The q-quantile (0..1) of the values binned in `histogram`, back in gray levels. */
export function histogramQuantile(histogram: Uint32Array, total: number, q: number): number {
  const target = q * (total - 1);
  let seen = 0;
  for (let bin = 0; bin < histogram.length; bin++) {
    seen += histogram[bin]!;
    if (seen > target) return (bin + 0.5) / BINS_PER_LEVEL;
  }
  return histogram.length / BINS_PER_LEVEL;
}

function binOf(level: number): number {
  const bin = Math.floor(level * BINS_PER_LEVEL);
  return bin < 0 ? 0 : bin >= HISTOGRAM_BINS ? HISTOGRAM_BINS - 1 : bin;
}

/**
 * Median of the local variance over the search zone (samples [first, sampleCount) of every ray),
 * taken on the standard deviation's histogram; samples without any signal (variance ≤ 1) are left out.
 */
function medianVariance(variance: Float32Array, angleCount: number, sampleCount: number, first: number): number {
  const histogram = new Uint32Array(HISTOGRAM_BINS);
  let total = 0;
  for (let a = 0; a < angleCount; a += 2) {
    const row = a * sampleCount;
    for (let k = first; k < sampleCount; k += 2) {
      const v = variance[row + k]!;
      if (v <= 1) continue;
      histogram[binOf(Math.sqrt(v))]!++;
      total++;
    }
  }
  if (total === 0) return 1;
  return histogramQuantile(histogram, total, 0.5) ** 2;
}

/** Below this share of the speckle variance a region carries no signal (see bloodLogit). */
export const NO_SIGNAL_VARIANCE = 0.25;
/** Below this local mean (gray levels) the coefficient of variation means nothing (a black sample). */
const VARIATION_FLOOR = 2;
const VARIATION_SPAN = 0.4;
/** The largest log-odds one sample may carry. */
const LOGIT_LIMIT = 3;

export interface BloodModel {
  /** Typical local-mean brightness of blood and of tissue, gray levels. */
  readonly bloodLevel: number;
  readonly tissueLevel: number;
  /** Pooled spread of the local mean within each class. */
  readonly brightnessSpread: number;
  /** The brightest echoes of the frame (98th percentile of the local mean): calcium, struts, the guidewire. */
  readonly brightLevel: number;
  /** σ²: typical local speckle variance. */
  readonly speckleVariance: number;
  readonly temporal: boolean;
  /** Share of the samples carrying speckle that the temporal cue labels clearly (d > 0.75 or d < 0.25); 0 without it. */
  readonly labelledShare: number;
}

export interface BloodWeights {
  /** Weight of the brightness cue, and where between blood (0) and tissue (1) it reads 50:50. */
  readonly brightness: number;
  readonly brightnessMid: number;
  readonly temporal: number;
  readonly texture: number;
  /** Dark blood (see darkBlood): blood's local mean at or below this gray level just outside the ring-down. */
  readonly darkCeiling: number;
  /**
   * Dark blood: the 50:50 level lies at most this many gray levels above blood's (DARK_MARGIN). 12:
   * real blood's level near the catheter reads about 8.5 (a mean of 11), so 50:50 falls near 20,
   * between blood and the darkest real plaque (median 27); tuning seeds agree from 12 to 25.
   */
  readonly darkMargin: number;
  /** ... and the brightness cue weighs at least this much log-odds per gray level. */
  readonly darkGain: number;
  /** Dark blood: weight of the coefficient of variation (see bloodLogit), and where it reads 50:50. */
  readonly darkVariation: number;
  readonly darkVariationMid: number;
}

/**
 * Whether this frame is read on its ABSOLUTE gray levels: no temporal cue, and blood near the
 * catheter nearly black (20 MHz: real blood has a mean of 11, 8–15 per frame, 90th percentile about
 * 29, while plaque has a median of 52, 27–81 per frame; issue 23). Without a temporal cue the frame's
 * own tissue level is the 75th percentile of its bright samples, which a bright adventitia (mean
 * 150–180) pushes so high that a moderately dark plaque (median 60) falls on blood's side of the
 * relative midpoint; blood is darker than plaque in absolute terms, whatever the adventitia does.
 */
export function isDarkBlood(model: BloodModel, weights: BloodWeights): boolean {
  return !model.temporal && model.bloodLevel <= weights.darkCeiling;
}

/** Class statistics from a histogram: median and a robust spread (interquartile range / 1.35). */
function classStats(histogram: Uint32Array, count: number): { level: number; spread: number } {
  const q1 = histogramQuantile(histogram, count, 0.25);
  const q3 = histogramQuantile(histogram, count, 0.75);
  return { level: histogramQuantile(histogram, count, 0.5), spread: (q3 - q1) / 1.35 };
}

/** Least samples of each class for the temporal labels to be used. */
const MIN_CLASS_SAMPLES = 200;

/**
 * Brightness of blood and tissue, learnt per frame. With the temporal cue, the samples that carry
 * speckle label themselves: decorrelated (d > 0.75) is blood, persistent (d < 0.25) tissue, and the
 * two classes' medians and spreads give a linear discriminant of the local mean, so brightness
 * counts for as much as it separates the classes in this frame (little at 60 MHz, where blood
 * speckle is bright). Without it (or too few labelled samples): blood is what most rays see just
 * outside the ring-down (the 30th percentile over rays tolerates a wall touching the catheter),
 * tissue the 75th percentile of the samples carrying signal, the spread a fifth of their distance.
 */
export function estimateBloodModel(
  maps: FeatureMaps,
  speckleVariance: number,
  temporal: boolean,
  angleCount: number,
  sampleCount: number,
  first: number,
  bloodBandEnd: number,
): BloodModel {
  const { mean, variance, difference } = maps;
  const all = new Uint32Array(HISTOGRAM_BINS);
  const blood = new Uint32Array(HISTOGRAM_BINS);
  const tissue = new Uint32Array(HISTOGRAM_BINS);
  let allCount = 0;
  let bloodCount = 0;
  let tissueCount = 0;
  const signal = NO_SIGNAL_VARIANCE * speckleVariance;
  for (let a = 0; a < angleCount; a += 2) {
    const row = a * sampleCount;
    for (let k = first; k < sampleCount; k += 2) {
      const s = row + k;
      if (variance[s]! <= signal) continue;
      const bin = binOf(mean[s]!);
      all[bin]!++;
      allCount++;
      if (!temporal) continue;
      const d = difference[s]!;
      if (d > 1.5 * speckleVariance) {
        blood[bin]!++;
        bloodCount++;
      } else if (d < 0.5 * speckleVariance) {
        tissue[bin]!++;
        tissueCount++;
      }
    }
  }
  const brightLevel = allCount > 0 ? histogramQuantile(all, allCount, 0.98) : 255;
  const labelledShare = allCount > 0 ? (bloodCount + tissueCount) / allCount : 0;
  if (bloodCount >= MIN_CLASS_SAMPLES && tissueCount >= MIN_CLASS_SAMPLES) {
    const b = classStats(blood, bloodCount);
    const t = classStats(tissue, tissueCount);
    const spread = Math.max(2, Math.sqrt(0.5 * (b.spread ** 2 + t.spread ** 2)));
    return { bloodLevel: b.level, tissueLevel: Math.max(t.level, b.level), brightnessSpread: spread, brightLevel, speckleVariance, temporal, labelledShare };
  }
  const near = new Float32Array(angleCount);
  const end = Math.min(sampleCount, Math.max(first + 1, bloodBandEnd));
  for (let a = 0; a < angleCount; a++) {
    let sum = 0;
    for (let k = first; k < end; k++) sum += mean[a * sampleCount + k]!;
    near[a] = sum / (end - first);
  }
  near.sort();
  const bloodLevel = near[Math.floor(0.3 * (near.length - 1))]!;
  const tissueLevel = Math.max(bloodLevel + 8, allCount > 0 ? histogramQuantile(all, allCount, 0.75) : 255);
  return { bloodLevel, tissueLevel, brightnessSpread: Math.max(2, 0.2 * (tissueLevel - bloodLevel)), brightLevel, speckleVariance, temporal, labelledShare };
}

/**
 * The blood log-odds of every sample into `out` (see the header). `temporalFrom[k]` (0..1) fades the
 * temporal cue in past the ring-down, whose fixed pattern persists like tissue; samples at or past
 * insideCount[a] (outside the frame) get 0.
 */
export function bloodLogit(
  maps: FeatureMaps,
  model: BloodModel,
  weights: BloodWeights,
  temporalRamp: Float32Array,
  insideCount: Int32Array,
  angleCount: number,
  sampleCount: number,
  out: Float32Array,
): void {
  const { mean, statMean, variance, difference } = maps;
  const span = model.tissueLevel - model.bloodLevel;
  const relativeMid = model.bloodLevel + weights.brightnessMid * span;
  // Linear discriminant: (m_t − m_b) / s² per gray level, at most one unit of log-odds per spread.
  const relativeGain = weights.brightness * Math.min(span / model.brightnessSpread ** 2, 1 / model.brightnessSpread);
  // Dark blood: the 50:50 level is anchored on blood's absolute level, not on the tissue's.
  const dark = isDarkBlood(model, weights);
  const mid = dark ? Math.min(relativeMid, model.bloodLevel + weights.darkMargin) : relativeMid;
  const brightnessGain = dark ? Math.max(relativeGain, weights.darkGain) : relativeGain;
  const inverseVariance = 1 / Math.max(1, model.speckleVariance);
  // d = box((P − Q)²) / 2σ²; (d − ½) / 0.25 = 2·box((P − Q)²)/σ² − 2.
  const temporalGain = weights.temporal * 2 * inverseVariance;
  const temporal = model.temporal;
  const textureWeight = weights.texture;
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const inside = insideCount[a]! < sampleCount ? insideCount[a]! : sampleCount;
    out.fill(0, row + inside, row + sampleCount);
    for (let k = 0; k < inside; k++) {
      const s = row + k;
      let logit = -brightnessGain * (mean[s]! - mid);
      const relative = variance[s]! * inverseVariance;
      if (temporal) {
        const reliability = (relative > 1 ? 1 : relative) * temporalRamp[k]!;
        logit += reliability * (temporalGain * difference[s]! - 2 * weights.temporal);
      }
      if (relative > 1.5) logit -= textureWeight * (relative - 1.5);
      if (dark && statMean[s]! > VARIATION_FLOOR) {
        // Nearly black blood clipped at the display floor varies more than its mean (real: std 15
        // over a mean of 11), speckled plaque far less (a log-compressed speckle's spread over a
        // median of 27–81); ±1 unit of log-odds, linear over ±VARIATION_SPAN around the midpoint.
        const variation = (Math.sqrt(variance[s]!) / statMean[s]! - weights.darkVariationMid) / VARIATION_SPAN;
        logit += weights.darkVariation * (variation > 1 ? 1 : variation < -1 ? -1 : variation);
      }
      out[s] = logit > LOGIT_LIMIT ? LOGIT_LIMIT : logit < -LOGIT_LIMIT ? -LOGIT_LIMIT : logit;
    }
  }
}

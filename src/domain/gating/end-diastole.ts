/**
 * Image-based gating (issue 28): one frame per cardiac cycle, at end-diastole, from the inter-frame
 * motion signal alone (no ECG).
 *
 * In diastasis the heart is still and successive frames differ only by blood speckle and the slow
 * pullback; the contraction then moves the whole anatomy at once. End-diastole is the last still
 * frame before that stroke, which is the first frame whose change to the next stands out of the
 * still floor (motion[i] compares frame i with frame i + 1). It is also the frame of least motion
 * and largest lumen of its cycle, as the consensus defines it.
 *
 * The steps: the still floor (a running low quantile) is taken off; the cycle length is the
 * strongest autocorrelation of what remains at a heart rate between 35 and 150 bpm; a stroke is
 * a rise after a still stretch, scored by the motion that follows it; the strongest strokes at least
 * two thirds of a cycle apart are kept. When the signal has no cycle (no cardiac motion, frames
 * already gated, frames dropped at random) the answer is "no cycle" with the reason, never frames.
 */
import { autocorrelation, median, quantile, runningQuantile } from './signal-statistics.ts';

export interface GatingOptions {
  readonly frameRateHz: number;
  /** Slowest and fastest heart rates considered, in beats per minute. */
  readonly minBpm?: number;
  readonly maxBpm?: number;
}

export type GatingResult =
  | {
      readonly kind: 'gated';
      /** Frame indices, ascending, one per cycle. */
      readonly endDiastolicFrames: readonly number[];
      /** The cycle length the signal beats at (its autocorrelation peak), in frames. */
      readonly cycleFrames: number;
      /** From the median interval between the gated frames. */
      readonly heartRateBpm: number;
      /** Autocorrelation of the motion at the cycle length: 1 is a perfectly regular beat. */
      readonly periodicity: number;
    }
  | { readonly kind: 'no-cycle'; readonly reason: string };

/** Below this autocorrelation at the best cycle length the signal is taken as having no cycle. */
export const MIN_PERIODICITY = 0.3;
/** An autocorrelation peak stands at least this far above the dip before it. */
const MIN_PEAK_PROMINENCE = 0.3;
/** A frame moves when its change stands this share of the cycle's stroke above the still floor. */
const MOVING_SHARE = 0.22;
/** A stroke follows a still stretch at least this share of a cycle long (the diastasis). */
const STILL_SHARE = 0.12;
/** The stroke's score: the motion over this share of a cycle after its onset. */
const STROKE_SHARE = 0.22;
/** Two end-diastoles lie at least this share of a cycle apart. */
const MIN_SPACING_SHARE = 0.65;
/** Strokes weaker than this share of the typical kept stroke are noise, not beats. */
const WEAK_STROKE_SHARE = 0.25;
/** Intervals between gated frames may vary this much (coefficient of variation) before the answer is refused. */
const MAX_INTERVAL_SPREAD = 0.3;

export function detectEndDiastole(motion: Float64Array, options: GatingOptions): GatingResult {
  const { frameRateHz, minBpm = 35, maxBpm = 150 } = options;
  if (!(frameRateHz > 0)) throw new RangeError(`frameRateHz must be positive, got ${frameRateHz}`);
  const shortest = Math.max(2, Math.floor((60 * frameRateHz) / maxBpm));
  const longest = Math.ceil((60 * frameRateHz) / minBpm);
  if (motion.length < 3 * longest) {
    return { kind: 'no-cycle', reason: `${motion.length + 1} frames are too few to see three cycles at ${minBpm} bpm` };
  }

  // Half the longest cycle each side: every window holds a diastasis, and the floor follows the
  // still frames' level as it changes with the anatomy (less blood at a stenosis, less change).
  const floor = runningQuantile(motion, Math.ceil(longest / 2), 0.2);
  const excess = motion.map((value, i) => value - floor[i]!);
  const mean = excess.reduce((sum, v) => sum + v, 0) / excess.length;
  const centred = excess.map((v) => v - mean);
  const { lag: cycleFrames, correlation } = strongestCycle(centred, shortest, longest);
  if (cycleFrames === 0) return { kind: 'no-cycle', reason: `the motion does not repeat at any heart rate from ${minBpm} to ${maxBpm} bpm` };
  if (correlation < MIN_PERIODICITY) {
    return { kind: 'no-cycle', reason: `the motion repeats too weakly to be a heartbeat (periodicity ${correlation.toFixed(2)} < ${MIN_PERIODICITY})` };
  }

  const stroke = quantile(excess, 0.95);
  const noise = quantile(excess, 0.5) - quantile(excess, 0.1);
  if (!(stroke > 4 * noise)) return { kind: 'no-cycle', reason: 'the motion does not stand out of the frames’ noise' };
  // The stroke's size changes along the pullback (a small lumen at the lesion moves less blood and
  // wall): what counts as moving is judged against the strokes of the neighbouring cycles.
  const localStroke = runningQuantile(excess, cycleFrames, 0.95);
  const strokes = findStrokes(motion, (i) => Math.max(localStroke[i]!, 2 * noise) * MOVING_SHARE, cycleFrames);
  const kept = strongestApart(strokes, Math.round(MIN_SPACING_SHARE * cycleFrames));
  const frames = withoutWeakStrokes(kept, 3 * cycleFrames).sort((a, b) => a - b);
  if (frames.length < 2) return { kind: 'no-cycle', reason: 'fewer than two cardiac cycles were found' };

  const intervals = frames.slice(1).map((f, k) => f - frames[k]!);
  const interval = median(intervals);
  // Robust: a beat missed here and there doubles one interval, which is not irregularity.
  const spread = median(intervals.map((d) => Math.abs(d - interval))) / interval;
  if (spread > MAX_INTERVAL_SPREAD) {
    return { kind: 'no-cycle', reason: `the cycles found are irregular (interval spread ${(100 * spread).toFixed(0)} %)` };
  }
  return { kind: 'gated', endDiastolicFrames: frames, cycleFrames, heartRateBpm: (60 * frameRateHz) / interval, periodicity: correlation };
}

/**
 * The cycle length: the lag of the strongest autocorrelation peak within the heart rates considered.
 * A peak counts only if the correlation rises to it from a dip (a beat's half cycle, stroke against
 * stillness, correlates negatively); a correlation that merely decays from lag 0, as slow changes
 * along the pullback give, has no cycle. Of near-equal peaks the shortest wins (not a multiple).
 */
function strongestCycle(centred: Float64Array, shortest: number, longest: number): { lag: number; correlation: number } {
  const correlations = [1];
  for (let lag = 1; lag <= longest + 1; lag++) correlations.push(autocorrelation(centred, lag));
  const peaks: { lag: number; correlation: number }[] = [];
  let dip = 1;
  for (let lag = 1; lag <= longest; lag++) {
    const c = correlations[lag]!;
    dip = Math.min(dip, c);
    const isPeak = c > correlations[lag - 1]! && c >= correlations[lag + 1]!;
    if (lag >= shortest && isPeak && c - dip >= MIN_PEAK_PROMINENCE) peaks.push({ lag, correlation: c });
  }
  if (peaks.length === 0) return { lag: 0, correlation: 0 };
  const best = Math.max(...peaks.map((p) => p.correlation));
  return peaks.find((p) => p.correlation >= 0.85 * best)!;
}

interface Stroke {
  readonly frame: number;
  readonly score: number;
}

/**
 * Every frame that moves after a still stretch, scored by the motion that follows it. Judged against
 * the still stretch's own level rather than the floor, which lags where the still level steps.
 */
function findStrokes(motion: Float64Array, movingLevelAt: (frame: number) => number, cycleFrames: number): Stroke[] {
  const minStill = Math.max(2, Math.round(STILL_SHARE * cycleFrames));
  const strokeLength = Math.max(2, Math.round(STROKE_SHARE * cycleFrames));
  const strokes: Stroke[] = [];
  for (let i = minStill; i < motion.length; i++) {
    const movingLevel = movingLevelAt(i);
    const before = motion.subarray(i - minStill, i);
    const still = median(Array.from(before));
    if (motion[i]! - still <= movingLevel || motion[i - 1]! - still > movingLevel) continue;
    // Still on the whole before: one noisy frame in the diastasis does not break it.
    if (quantile(before, 0.75) - quantile(before, 0.25) > movingLevel / 2) continue;
    let score = 0;
    for (let j = i; j < Math.min(motion.length, i + strokeLength); j++) score += Math.max(0, motion[j]! - still);
    strokes.push({ frame: i, score });
  }
  return strokes;
}

/** Strokes much weaker than the kept strokes around them (within `reach` frames) are noise, not beats. */
function withoutWeakStrokes(kept: readonly Stroke[], reach: number): number[] {
  return kept
    .filter((s) => s.score >= WEAK_STROKE_SHARE * median(kept.filter((k) => Math.abs(k.frame - s.frame) <= reach).map((k) => k.score)))
    .map((s) => s.frame);
}

/** Non-maximum suppression: the strongest strokes first, each keeping its neighbours within `spacing` away. */
function strongestApart(strokes: readonly Stroke[], spacing: number): Stroke[] {
  const kept: Stroke[] = [];
  for (const s of [...strokes].sort((a, b) => b.score - a.score)) {
    if (kept.every((k) => Math.abs(k.frame - s.frame) >= spacing)) kept.push(s);
  }
  return kept;
}

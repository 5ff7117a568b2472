/**
 * The closed-border search of border-search.ts, coarse to fine (issue 23: the search was the
 * detector's largest single cost, five to ten full passes over 360 rays x ~250 candidates a frame).
 *
 * 1. Coarse: candidates taken in pairs (k = 2c, 2c + 1), each pair costing its cheaper sample, with
 *    the jump limit and penalty in pairs (a jump of J pairs is about 2J samples: ⌈maxJump / 2⌉ pairs
 *    at most, 4 · jumpPenalty · J²), searched by searchClosedBorder on half the candidates.
 * 2. Fine: the same closed search on every sample, but only within a band of BAND_SAMPLES on each
 *    side of the coarse path's pair: a band a few samples wide instead of the whole ray. The border
 *    an edge or a region places is found by the coarse search to within its pair; the fine search
 *    then places it to the sample, with the same costs, limits and tie-breaking as the full search.
 */
import { createBorderSearchWorkspace, searchClosedBorder, type BorderSearchOptions, type BorderSearchWorkspace } from './border-search.ts';

/** Samples searched on each side of the coarse path's pair. */
export const BAND_SAMPLES = 6;

export interface CoarseToFineWorkspace {
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly coarseCount: number;
  readonly coarse: BorderSearchWorkspace;
  readonly coarseCost: Float32Array;
  readonly coarsePath: Int32Array;
  readonly band: number;
  /** First sample of each ray's band. */
  readonly low: Int32Array;
  readonly total: Float64Array;
  readonly previousTotal: Float64Array;
  /** Back-pointers of a fine pass (band x angles): the jump + maxJump taken into each cell. */
  readonly from: Uint8Array;
  /** The fine pass's penalty per jump (2 · maxJump + 1), kept between calls. */
  penalty: Float64Array;
}

export function createCoarseToFineWorkspace(angleCount: number, sampleCount: number): CoarseToFineWorkspace {
  const coarseCount = Math.ceil(sampleCount / 2);
  const band = Math.min(sampleCount, 2 * BAND_SAMPLES + 2);
  return {
    angleCount,
    sampleCount,
    coarseCount,
    coarse: createBorderSearchWorkspace(angleCount, coarseCount),
    coarseCost: new Float32Array(angleCount * coarseCount),
    coarsePath: new Int32Array(angleCount),
    band,
    low: new Int32Array(angleCount),
    total: new Float64Array(band),
    previousTotal: new Float64Array(band),
    from: new Uint8Array(angleCount * band),
    penalty: new Float64Array(0),
  };
}

/** The best closed border through `cost` (angleCount rows of sampleCount), coarse to fine, into `out`. */
export function searchClosedBorderCoarseToFine(cost: Float32Array, workspace: CoarseToFineWorkspace, options: BorderSearchOptions, out: Int32Array): void {
  const { angleCount, sampleCount, coarseCount, coarseCost, coarsePath, band, low } = workspace;
  if (options.maxJump < 1 || options.maxJump > 100) throw new RangeError('maxJump must be between 1 and 100');
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const coarseRow = a * coarseCount;
    for (let c = 0; c < coarseCount; c++) {
      const k = 2 * c;
      const even = cost[row + k]!;
      coarseCost[coarseRow + c] = k + 1 < sampleCount && cost[row + k + 1]! < even ? cost[row + k + 1]! : even;
    }
  }
  const coarseJump = Math.ceil(options.maxJump / 2);
  searchClosedBorder(coarseCost, workspace.coarse, { maxJump: coarseJump, jumpPenalty: 4 * options.jumpPenalty }, coarsePath);
  for (let a = 0; a < angleCount; a++) low[a] = Math.max(0, Math.min(sampleCount - band, 2 * coarsePath[a]! - BAND_SAMPLES));

  // The fine closed search inside the band, closed as searchClosedBorder closes it: a free lap from
  // half-way round gives the anchor at angle 0, a lap pinned there must end within one jump of it.
  const half = Math.floor(angleCount / 2);
  finePass(cost, workspace, angleCount - half, -1, options);
  backtrack(workspace, angleCount - half, argmin(workspace.total, band), options.maxJump, out);
  const anchor = out[0]!;
  finePass(cost, workspace, 0, anchor, options);
  let bestEnd = -1;
  let best = Infinity;
  const lastLow = low[angleCount - 1]!;
  for (let j = -options.maxJump; j <= options.maxJump; j++) {
    const i = anchor + j - lastLow;
    if (i < 0 || i >= band) continue;
    const candidate = workspace.total[i]! + options.jumpPenalty * j * j;
    if (candidate < best) {
      best = candidate;
      bestEnd = i;
    }
  }
  // No band cell of the last angle within one jump of the anchor (bands that drifted apart): the free lap's path stands.
  if (bestEnd < 0) return;
  backtrack(workspace, 0, bestEnd, options.maxJump, out);
}

/**
 * One lap of the banded dynamic programme from angle `first`, optionally pinned to start at sample
 * `start` (-1: free); cell i of angle a is sample low[a] + i. Leaves the last step's totals in
 * workspace.total, back-pointers in workspace.from.
 */
function finePass(cost: Float32Array, workspace: CoarseToFineWorkspace, first: number, start: number, options: BorderSearchOptions): void {
  const { angleCount, sampleCount, band, low, from } = workspace;
  const { maxJump, jumpPenalty } = options;
  let total = workspace.total;
  let previous = workspace.previousTotal;
  // The penalty of each jump, computed once with the inline expression's arithmetic (jumpPenalty · j · j).
  const penalty = workspace.penalty.length === 2 * maxJump + 1 ? workspace.penalty : (workspace.penalty = new Float64Array(2 * maxJump + 1));
  for (let j = -maxJump; j <= maxJump; j++) penalty[j + maxJump] = jumpPenalty * j * j;
  const p0 = penalty[maxJump]!;
  const p1 = maxJump >= 1 ? penalty[maxJump + 1]! : 0;
  const p2 = maxJump >= 2 ? penalty[maxJump + 2]! : 0;
  const p3 = maxJump >= 3 ? penalty[maxJump + 3]! : 0;
  const firstLow = low[first]!;
  const firstRow = first * sampleCount;
  for (let i = 0; i < band; i++) total[i] = start < 0 || firstLow + i === start ? cost[firstRow + firstLow + i]! : Infinity;
  for (let step = 1; step < angleCount; step++) {
    const swap = previous;
    previous = total;
    total = swap;
    const a = (first + step) % angleCount;
    const rowLow = low[a]!;
    const previousLow = low[(a + angleCount - 1) % angleCount]!;
    const row = a * sampleCount;
    const back = step * band;
    for (let i = 0; i < band; i++) {
      const k = rowLow + i;
      let best = Infinity;
      let bestIndex = maxJump;
      // Candidates from the lowest jump up, only a strictly smaller one replacing the best (as
      // border-search.ts); the jumps that land inside the previous angle's band, found once, not tested each.
      const offset = k - previousLow;
      const jLow = -offset > -maxJump ? -offset : -maxJump;
      const jHigh = band - 1 - offset < maxJump ? band - 1 - offset : maxJump;
      if (maxJump === 3 && jLow === -3 && jHigh === 3) {
        // The lumen's jump limit with every jump inside the band, written out: the same candidates in the same order.
        const base = offset - 3;
        let candidate = previous[base]! + p3;
        if (candidate < best) {
          best = candidate;
          bestIndex = 0;
        }
        candidate = previous[base + 1]! + p2;
        if (candidate < best) {
          best = candidate;
          bestIndex = 1;
        }
        candidate = previous[base + 2]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 2;
        }
        candidate = previous[base + 3]! + p0;
        if (candidate < best) {
          best = candidate;
          bestIndex = 3;
        }
        candidate = previous[base + 4]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 4;
        }
        candidate = previous[base + 5]! + p2;
        if (candidate < best) {
          best = candidate;
          bestIndex = 5;
        }
        candidate = previous[base + 6]! + p3;
        if (candidate < best) {
          best = candidate;
          bestIndex = 6;
        }
        total[i] = cost[row + k]! + best;
        from[back + i] = bestIndex;
        continue;
      }
      if (maxJump === 2 && jLow === -2 && jHigh === 2) {
        // The vessel's jump limit likewise.
        const base = offset - 2;
        let candidate = previous[base]! + p2;
        if (candidate < best) {
          best = candidate;
          bestIndex = 0;
        }
        candidate = previous[base + 1]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 1;
        }
        candidate = previous[base + 2]! + p0;
        if (candidate < best) {
          best = candidate;
          bestIndex = 2;
        }
        candidate = previous[base + 3]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 3;
        }
        candidate = previous[base + 4]! + p2;
        if (candidate < best) {
          best = candidate;
          bestIndex = 4;
        }
        total[i] = cost[row + k]! + best;
        from[back + i] = bestIndex;
        continue;
      }
      for (let j = jLow; j <= jHigh; j++) {
        const candidate = previous[offset + j]! + penalty[j + maxJump]!;
        if (candidate < best) {
          best = candidate;
          bestIndex = j + maxJump;
        }
      }
      total[i] = cost[row + k]! + best;
      from[back + i] = bestIndex;
    }
  }
  if (total !== workspace.total) workspace.total.set(total);
}

/** The last fine pass's path ending in band cell `last`, as samples by angle (step s is angle first + s). */
function backtrack(workspace: CoarseToFineWorkspace, first: number, last: number, maxJump: number, out: Int32Array): void {
  const { angleCount, band, low, from } = workspace;
  let a = (first + angleCount - 1) % angleCount;
  let k = low[a]! + last;
  for (let step = angleCount - 1; step >= 0; step--) {
    out[a] = k;
    if (step > 0) {
      k += from[step * band + (k - low[a]!)]! - maxJump;
      a = (a + angleCount - 1) % angleCount;
    }
  }
}

function argmin(values: Float64Array, count: number): number {
  let best = 0;
  for (let i = 1; i < count; i++) if (values[i]! < values[best]!) best = i;
  return best;
}

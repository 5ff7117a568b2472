/**
 * Dynamic programming for a closed border r(θ) through a polar cost image: one radius index per
 * angle, minimising the sum of the per-sample costs plus a smoothness penalty between neighbouring
 * angles, with the last angle joined back to the first (a closed curve).
 *
 *   total(path) = Σ_a cost[a][k_a] + Σ_a jumpPenalty · (k_{a+1} − k_a)²,   |k_{a+1} − k_a| ≤ maxJump,
 *
 * where a runs round the circle (a + 1 after the last angle is angle 0). The classic recursion
 *
 *   D[a][k] = cost[a][k] + min_{|j| ≤ maxJump} ( D[a − 1][k + j] + jumpPenalty · j² )
 *
 * finds the best open path in O(angles · samples · (2 · maxJump + 1)). Closing it: a first open
 * pass of one lap starting half-way round gives, at angle 0 in its middle, a radius chosen with half
 * a lap of context on each side; a second pass of one lap is then pinned to start at that radius at
 * angle 0 and may only end within one allowed jump of it, so the result closes smoothly.
 */

export interface BorderSearchWorkspace {
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly total: Float32Array;
  readonly previousTotal: Float32Array;
  /** Back-pointers of a pass, one byte per (step, sample): the jump j + maxJump taken into it. */
  readonly from: Uint8Array;
}

export function createBorderSearchWorkspace(angleCount: number, sampleCount: number): BorderSearchWorkspace {
  return {
    angleCount,
    sampleCount,
    total: new Float32Array(sampleCount),
    previousTotal: new Float32Array(sampleCount),
    from: new Uint8Array(angleCount * sampleCount),
  };
}

export interface BorderSearchOptions {
  readonly maxJump: number;
  readonly jumpPenalty: number;
}

/**
 * Pass over one lap of angles starting at angle `first` (wrapping), optionally pinned to start at
 * sample `start` (-1: free). Leaves the per-sample totals of the last step in workspace.total and
 * back-pointers in workspace.from.
 */
function pass(cost: Float32Array, workspace: BorderSearchWorkspace, first: number, start: number, options: BorderSearchOptions): void {
  const { angleCount, sampleCount, from } = workspace;
  let total = workspace.total;
  let previous = workspace.previousTotal;
  const { maxJump, jumpPenalty } = options;
  // The penalty of each jump, computed once (in doubles, as jumpPenalty · j · j would be inline).
  const penalty = new Float64Array(2 * maxJump + 1);
  for (let j = -maxJump; j <= maxJump; j++) penalty[j + maxJump] = jumpPenalty * j * j;
  // Samples whose every jump stays on the ray: the inner loop needs no bounds there.
  const interiorEnd = sampleCount - maxJump;
  const p0 = penalty[maxJump]!;
  const p1 = maxJump >= 1 ? penalty[maxJump + 1]! : 0;
  const p2 = maxJump >= 2 ? penalty[maxJump + 2]! : 0;
  const p3 = maxJump >= 3 ? penalty[maxJump + 3]! : 0;
  const firstRow = first * sampleCount;
  for (let k = 0; k < sampleCount; k++) total[k] = start < 0 || k === start ? cost[firstRow + k]! : Infinity;
  // The samples near the ends of the ray, whose jumps are clipped: the few outside the interior.
  const edgeSample = (previousTotals: Float32Array, k: number): number => {
    let best = Infinity;
    let bestIndex = maxJump;
    const low = k - maxJump < 0 ? -k : -maxJump;
    const high = k + maxJump >= sampleCount ? sampleCount - 1 - k : maxJump;
    for (let j = low; j <= high; j++) {
      const candidate = previousTotals[k + j]! + penalty[j + maxJump]!;
      if (candidate < best) {
        best = candidate;
        bestIndex = j + maxJump;
      }
    }
    edgeBest = best;
    return bestIndex;
  };
  let edgeBest = Infinity;
  const headEnd = Math.min(maxJump, sampleCount);
  const tailStart = Math.max(headEnd, interiorEnd);
  for (let step = 1; step < angleCount; step++) {
    const swap = previous;
    previous = total;
    total = swap;
    const row = ((first + step) % angleCount) * sampleCount;
    const back = step * sampleCount;
    for (let k = 0; k < headEnd; k++) {
      from[back + k] = edgeSample(previous, k);
      total[k] = cost[row + k]! + edgeBest;
    }
    // The interior, one loop per jump limit (the searches use 1, 2 and 3), hoisted out of the
    // sample loop. The lowest jump wins a tie, as it always has: candidates are tried from
    // -maxJump up, and only a strictly smaller one replaces the best. With no finite candidate (a
    // pinned pass's first steps) the pointer says "no jump", as before.
    if (maxJump === 3) {
      for (let k = headEnd; k < interiorEnd; k++) {
        const base = k - 3;
        let best = Infinity;
        let bestIndex = 3;
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
        total[k] = cost[row + k]! + best;
        from[back + k] = bestIndex;
      }
    } else if (maxJump === 2) {
      for (let k = headEnd; k < interiorEnd; k++) {
        const base = k - 2;
        let best = Infinity;
        let bestIndex = 2;
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
        total[k] = cost[row + k]! + best;
        from[back + k] = bestIndex;
      }
    } else if (maxJump === 1) {
      for (let k = headEnd; k < interiorEnd; k++) {
        const base = k - 1;
        let best = Infinity;
        let bestIndex = 1;
        let candidate = previous[base]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 0;
        }
        candidate = previous[base + 1]! + p0;
        if (candidate < best) {
          best = candidate;
          bestIndex = 1;
        }
        candidate = previous[base + 2]! + p1;
        if (candidate < best) {
          best = candidate;
          bestIndex = 2;
        }
        total[k] = cost[row + k]! + best;
        from[back + k] = bestIndex;
      }
    } else {
      for (let k = headEnd; k < interiorEnd; k++) {
        const base = k - maxJump;
        let best = Infinity;
        let bestIndex = maxJump;
        for (let i = 0; i < penalty.length; i++) {
          const candidate = previous[base + i]! + penalty[i]!;
          if (candidate < best) {
            best = candidate;
            bestIndex = i;
          }
        }
        total[k] = cost[row + k]! + best;
        from[back + k] = bestIndex;
      }
    }
    for (let k = tailStart; k < sampleCount; k++) {
      from[back + k] = edgeSample(previous, k);
      total[k] = cost[row + k]! + edgeBest;
    }
  }
  // Keep the final totals where the caller looks for them.
  if (total !== workspace.total) workspace.total.set(total);
}

/** The path of the last pass ending at sample `last`, by step (step s is angle first + s). */
function backtrack(workspace: BorderSearchWorkspace, last: number, maxJump: number, out: Int32Array): void {
  const { angleCount, sampleCount, from } = workspace;
  let k = last;
  for (let step = angleCount - 1; step >= 0; step--) {
    out[step] = k;
    if (step > 0) k += from[step * sampleCount + k]! - maxJump;
  }
}

/**
 * The best closed border through `cost` (angleCount rows of sampleCount samples): the sample index
 * per angle, written to `out` (angleCount entries).
 */
export function searchClosedBorder(cost: Float32Array, workspace: BorderSearchWorkspace, options: BorderSearchOptions, out: Int32Array): void {
  const { angleCount, sampleCount, total } = workspace;
  if (options.maxJump < 1 || options.maxJump > 100) throw new RangeError('maxJump must be between 1 and 100');
  const half = Math.floor(angleCount / 2);
  pass(cost, workspace, angleCount - half, -1, options);
  backtrack(workspace, argmin(total, 0, sampleCount), options.maxJump, out);
  // Step `half` of that lap is angle 0.
  const anchor = out[half]!;

  pass(cost, workspace, 0, anchor, options);
  // The last angle must join the first within one allowed jump, paying the same smoothness penalty.
  let bestEnd = anchor;
  let best = Infinity;
  for (let j = -options.maxJump; j <= options.maxJump; j++) {
    const k = anchor + j;
    if (k < 0 || k >= sampleCount) continue;
    const candidate = total[k]! + options.jumpPenalty * j * j;
    if (candidate < best) {
      best = candidate;
      bestEnd = k;
    }
  }
  backtrack(workspace, bestEnd, options.maxJump, out);
}

function argmin(values: Float32Array, from: number, to: number): number {
  let best = from;
  for (let k = from + 1; k < to; k++) if (values[k]! < values[best]!) best = k;
  return best;
}

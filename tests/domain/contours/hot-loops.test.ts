/**
 * The detector's hot loops were rewritten for speed only (issue 23): the same borders must come out,
 * bit for bit. Each fast loop is checked against the plain formula it replaced, kept here as the
 * reference, on inputs that reach the cases the rewrite split out (window ends, shifts off the ray,
 * ties and infinite costs in the border search). A change of result would move every stored border.
 */
import { describe, expect, it } from 'vitest';
import { createBorderSearchWorkspace, searchClosedBorder } from '../../../src/domain/contours/border-search.ts';
import { boxFilter } from '../../../src/domain/contours/box-filter.ts';
import { alignPrevious } from '../../../src/domain/contours/temporal-alignment.ts';
import { seededRandom } from '../../../src/domain/random.ts';
import type { Point } from '../../../src/domain/annotations/point.ts';
import { diametersThroughCentroid, enclosesContour, measuredOutline, polygonCentroid, rayExit } from '../../../src/domain/contours/measurements.ts';

function randomImage(length: number, seed: number, scale = 255): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length }, () => Math.round(random() * scale * 4) / 4);
}

/** The box mean as it was written before: prefix sums, the window clipped per sample. */
function referenceBoxFilter(input: Float32Array, angleCount: number, sampleCount: number, halfRays: number, halfSamples: number): Float32Array {
  const scratch = new Float32Array(input.length);
  const out = new Float32Array(input.length);
  const running = new Float64Array(sampleCount + 1);
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    running[0] = 0;
    for (let k = 0; k < sampleCount; k++) running[k + 1] = running[k]! + input[row + k]!;
    for (let k = 0; k < sampleCount; k++) {
      const low = Math.max(0, k - halfSamples);
      const high = Math.min(sampleCount, k + halfSamples + 1);
      scratch[row + k] = (running[high]! - running[low]!) / (high - low);
    }
  }
  const sums = new Float64Array(sampleCount);
  for (let d = -halfRays; d <= halfRays; d++) for (let k = 0; k < sampleCount; k++) sums[k]! += scratch[((d + angleCount) % angleCount) * sampleCount + k]!;
  for (let a = 0; a < angleCount; a++) {
    for (let k = 0; k < sampleCount; k++) {
      out[a * sampleCount + k] = sums[k]! / (2 * halfRays + 1);
      sums[k]! += scratch[((a + halfRays + 1) % angleCount) * sampleCount + k]! - scratch[((a - halfRays + angleCount) % angleCount) * sampleCount + k]!;
    }
  }
  return out;
}

/** The closed-border search as it was written before: every jump tried with its bounds, the lowest winning a tie. */
function referenceSearch(cost: Float32Array, angleCount: number, sampleCount: number, maxJump: number, jumpPenalty: number): Int32Array {
  const from = new Uint8Array(angleCount * sampleCount);
  let total = new Float32Array(sampleCount);
  const pass = (first: number, start: number) => {
    total = new Float32Array(sampleCount);
    for (let k = 0; k < sampleCount; k++) total[k] = start < 0 || k === start ? cost[first * sampleCount + k]! : Infinity;
    for (let step = 1; step < angleCount; step++) {
      const previous = total;
      total = new Float32Array(sampleCount);
      const row = ((first + step) % angleCount) * sampleCount;
      for (let k = 0; k < sampleCount; k++) {
        let best = Infinity;
        let bestJump = 0;
        for (let j = Math.max(-k, -maxJump); j <= Math.min(sampleCount - 1 - k, maxJump); j++) {
          const candidate = previous[k + j]! + jumpPenalty * j * j;
          if (candidate < best) [best, bestJump] = [candidate, j];
        }
        total[k] = cost[row + k]! + best;
        from[step * sampleCount + k] = bestJump + maxJump;
      }
    }
  };
  const out = new Int32Array(angleCount);
  const backtrack = (last: number) => {
    for (let step = angleCount - 1, k = last; step >= 0; step--) {
      out[step] = k;
      if (step > 0) k += from[step * sampleCount + k]! - maxJump;
    }
  };
  const half = Math.floor(angleCount / 2);
  pass(angleCount - half, -1);
  backtrack(total.indexOf(Math.min(...total)));
  const anchor = out[half]!;
  pass(0, anchor);
  let bestEnd = anchor;
  let best = Infinity;
  for (let j = -maxJump; j <= maxJump; j++) {
    const k = anchor + j;
    if (k >= 0 && k < sampleCount && total[k]! + jumpPenalty * j * j < best) [best, bestEnd] = [total[k]! + jumpPenalty * j * j, k];
  }
  backtrack(bestEnd);
  return out;
}

describe('the detector hot loops give the results of the plain formulas', () => {
  it('box mean: the same values at the ends of the ray and in the middle, for windows wider than the ray too', () => {
    for (const [angles, samples, halfRays, halfSamples] of [
      [36, 50, 2, 1],
      [36, 50, 3, 7],
      [20, 9, 1, 6],
      [20, 5, 2, 9],
    ] as const) {
      const input = randomImage(angles * samples, angles + samples + halfSamples);
      const out = new Float32Array(input.length);
      boxFilter(input, out, new Float32Array(input.length), new Float64Array(samples + 1), angles, samples, halfRays, halfSamples);
      expect(out).toEqual(referenceBoxFilter(input, angles, samples, halfRays, halfSamples));
    }
  });

  it('closed border search: the same path with ties (flat stretches), forbidden samples and both jump limits', () => {
    const angles = 72;
    const samples = 40;
    for (const [maxJump, penalty, seed] of [
      [3, 16, 1],
      [2, 8, 2],
      [3, 0.5, 3],
    ] as const) {
      // Coarse costs tie often; a flat band of rays and a forbidden column test the edge cases.
      const cost = randomImage(angles * samples, seed, 6);
      for (let a = 10; a < 20; a++) cost.fill(1, a * samples, (a + 1) * samples);
      for (let a = 0; a < angles; a++) for (let k = 0; k < 3; k++) cost[a * samples + k] = Infinity;
      const path = new Int32Array(angles);
      searchClosedBorder(cost, createBorderSearchWorkspace(angles, samples), { maxJump, jumpPenalty: penalty }, path);
      expect([...path]).toEqual([...referenceSearch(cost, angles, samples, maxJump, penalty)]);
    }
  });

  it('block alignment: a tissue image moved by a few samples is aligned the same wherever the shift leaves the ray', () => {
    const angles = 48;
    const samples = 64;
    const current = randomImage(angles * samples, 7);
    // The previous frame: the current one two samples further out and one ray round.
    const previous = new Float32Array(current.length);
    for (let a = 0; a < angles; a++) {
      for (let k = 0; k < samples; k++) previous[a * samples + k] = current[((a + angles - 1) % angles) * samples + Math.max(0, Math.min(samples - 1, k - 2))]!;
    }
    const options = { blockRays: 8, blockSamples: 16, maxRayShift: 2, maxSampleShift: 4 };
    const aligned = new Float32Array(current.length);
    const moved = alignPrevious(previous, current, previous, angles, samples, 0, options, aligned);
    // Every block found the motion, at the first sample (shifts off the ray) as further out.
    expect(moved).toBe(3);
    for (let a = 0; a < angles; a++) {
      for (let k = 0; k < samples - 2; k++) expect(aligned[a * samples + k]).toBe(current[a * samples + k]);
    }
  });
});

/** The diameters as written before issue 25: every ray tested against every edge of the outline. */
function referenceDiameters(points: readonly Point[], pixelSpacingMm: number): { min: number; max: number } {
  const outline = measuredOutline(points);
  const centre = polygonCentroid(outline);
  let min = Infinity;
  let max = 0;
  for (let k = 0; k < 180; k++) {
    const angle = (Math.PI * k) / 180;
    const chord = rayExit(outline, centre, Math.cos(angle), Math.sin(angle)) + rayExit(outline, centre, -Math.cos(angle), -Math.sin(angle));
    if (!Number.isFinite(chord)) continue;
    if (chord < min) min = chord;
    if (chord > max) max = chord;
  }
  return Number.isFinite(min) ? { min: min * pixelSpacingMm, max: max * pixelSpacingMm } : { min: 0, max: 0 };
}

describe('diameters through the centroid, each ray testing only the edges it could cross', () => {
  it('gives the same diameters as testing every edge, bit for bit', () => {
    const random = seededRandom(25);
    const shapes: Point[][] = [
      // Axis-aligned squares and diamonds: rays run exactly through vertices and along edges.
      [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 0, y: 100 }],
      [{ x: 50, y: 0 }, { x: 100, y: 50 }, { x: 50, y: 100 }, { x: 0, y: 50 }],
      // A crescent: its centroid lies outside it, so rays cross it twice or not at all.
      Array.from({ length: 24 }, (_, i) => {
        const t = (i / 24) * 2 * Math.PI;
        const r = i < 12 ? 100 : 70;
        return { x: 256 + r * Math.cos(t / 2 + (i < 12 ? 0 : Math.PI)), y: 256 + r * Math.sin(t / 2 + (i < 12 ? 0 : Math.PI)) };
      }),
    ];
    for (let n = 0; n < 60; n++) {
      const count = [3, 8, 16, 32, 64, 200][n % 6]!;
      const base = 5 + random() * 200;
      const cx = random() * 512;
      const cy = random() * 512;
      shapes.push(
        Array.from({ length: count }, (_, i) => {
          const t = (i / count) * 2 * Math.PI;
          const r = base * (1 + 0.4 * Math.sin(3 * t + random()) + 0.1 * random());
          return { x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) };
        }),
      );
    }
    for (const shape of shapes) expect(diametersThroughCentroid(shape, 0.0125)).toEqual(referenceDiameters(shape, 0.0125));
  });
});

/** Whether the outer curve encloses the inner one as written before issue 25: every inner vertex tested by the even-odd rule. */
function referenceEncloses(outer: readonly Point[], inner: readonly Point[]): boolean {
  const outline = measuredOutline(outer);
  const inside = (point: Point) => {
    let result = false;
    for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
      const a = outline[i]!;
      const b = outline[j]!;
      if (a.y > point.y !== b.y > point.y && point.x < a.x + ((point.y - a.y) * (b.x - a.x)) / (b.y - a.y)) result = !result;
    }
    return result;
  };
  return measuredOutline(inner).every(inside);
}

describe('whether a vessel encloses its lumen, answered early when the lumen is well inside', () => {
  it('gives the answer of testing every vertex, for lumens well inside, touching, crossing and outside', () => {
    const random = seededRandom(2025);
    const wobbly = (cx: number, cy: number, radius: number, count: number) =>
      Array.from({ length: count }, (_, i) => {
        const t = (i / count) * 2 * Math.PI;
        const r = radius * (1 + 0.3 * Math.sin(2 * t + random()));
        return { x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) };
      });
    let enclosed = 0;
    for (let n = 0; n < 80; n++) {
      const outer = wobbly(256, 256, 150, [8, 16, 32, 100][n % 4]!);
      const inner = wobbly(256 + (random() - 0.5) * 120, 256 + (random() - 0.5) * 120, 20 + random() * 130, 16);
      const expected = referenceEncloses(outer, inner);
      if (expected) enclosed++;
      expect(enclosesContour(outer, inner)).toBe(expected);
    }
    // Both answers occur among the cases.
    expect(enclosed).toBeGreaterThan(10);
    expect(enclosed).toBeLessThan(70);
  });
});

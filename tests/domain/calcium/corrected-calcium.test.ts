/**
 * Issue 28: calcium on the borders the clinician corrected. The arc is read again, by the same
 * detector, on the corrected lumen border: the same border gives the server's arc, a border drawn
 * out beyond the calcium loses it, and a border that does not surround the catheter reads nothing.
 */
import { describe, expect, it } from 'vitest';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { measureDetection } from '../../../src/domain/contours/detect-sequence.ts';
import { createCalciumArcDetector } from '../../../src/domain/calcium/calcium-arc.ts';
import { withCalcium } from '../../../src/domain/calcium/slice-calcium.ts';
import { correctedLumens, remeasureCalcium, sliceRanges } from '../../../src/domain/calcium/corrected-calcium.ts';
import { renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { calciumEvaluationPullback } from '../../../src/domain/synthetic/calcium-evaluation.ts';

const ring = (cx: number, cy: number, r: number) => Array.from({ length: 16 }, (_, i) => ({ x: cx + r * Math.cos((2 * Math.PI * i) / 16), y: cy + r * Math.sin((2 * Math.PI * i) / 16) }));

describe('calcium re-measured on a corrected lumen border', () => {
  const pullback = calciumEvaluationPullback('extensive', 1102);
  const calcified = pullback.frames.map((f, i) => ({ f, i })).filter(({ f }) => f.truth !== null);
  const frame = pullback.frames[calcified[Math.floor(calcified.length / 2)]!.i]!;
  const size = pullback.model.frameSizePx;
  const geometry = { frameWidth: size, frameHeight: size, pixelSpacingMm: pullback.model.pixelSpacingMm };
  const pixels = renderBmodeFrame(pullback.model, frame.frameIndex);
  const detector = createCalciumArcDetector(geometry);
  const centre = { x: size / 2, y: size / 2 };
  const measured = measureDetection(createBorderDetector(geometry).detect(pixels, null, null), geometry.pixelSpacingMm);
  const [served] = withCalcium(detector, [measured], pixels, pixels.length, centre);

  it('gives the server\'s arc on the same border, and loses the calcium on a border drawn out beyond it', () => {
    expect(served!.calcium!.arcDeg).toBeGreaterThan(270);
    const same = remeasureCalcium(detector, [{ slice: 7, source: 'manual', controlPoints: measured.controlPoints }], () => pixels, centre);
    expect(same.get(7)).toEqual(served!.calcium);
    // A lumen border 4.5 mm out, past the calcium's bright edge: nothing bright stands just beyond it any more.
    const far = remeasureCalcium(detector, [{ slice: 7, source: 'manual', controlPoints: ring(centre.x, centre.y, 4.5 / geometry.pixelSpacingMm) }], () => pixels, centre);
    expect(far.get(7)!.arcDeg).toBeLessThan(served!.calcium!.arcDeg - 90);
  }, 30_000);

  it('reads nothing on a border that does not surround the catheter, and leaves out frames not at hand', () => {
    const aside = remeasureCalcium(detector, [{ slice: 3, source: 'manual', controlPoints: ring(centre.x + 200, centre.y, 20) }], () => pixels, centre);
    expect(aside.get(3)).toBeNull();
    const unloaded = remeasureCalcium(detector, [{ slice: 4, source: 'propagated', controlPoints: measured.controlPoints }], () => null, centre);
    expect(unloaded.has(4)).toBe(false);
  }, 30_000);
});

describe('the corrected slices and their ranges', () => {
  it('takes the manual and propagated lumen borders only', () => {
    const points = ring(50, 50, 10);
    const slices = [
      { slice: 1, source: 'auto' as const, controlPoints: points },
      { slice: 2, source: 'manual' as const, controlPoints: points },
      { slice: 3, source: 'propagated' as const, controlPoints: points },
      { slice: 4, source: null, controlPoints: [] },
    ];
    expect(correctedLumens(slices).map((s) => s.slice)).toEqual([2, 3]);
  });

  it('writes slices as short ranges', () => {
    expect(sliceRanges([9, 3, 4, 5, 12, 13])).toBe('3–5, 9, 12–13');
    expect(sliceRanges([])).toBe('');
  });
});

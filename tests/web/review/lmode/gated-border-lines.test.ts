/**
 * Issue 28: while gated, the L-mode views show each column as its cycle's end-diastolic frame, and
 * the border lines over them must follow the same frames, or the lines would keep the saw-tooth of
 * cardiac motion over an image that has lost it.
 */
import { describe, expect, it } from 'vitest';
import { gatedBorderLines, type BorderLines } from '../../../../src/web/review/lmode/border-lines.ts';

/** Four lines over 10 frames whose rows go up and down with a 4-frame beat. */
const beating: BorderLines = {
  frameCount: 10,
  columnLength: 512,
  angleRad: 0,
  lines: (['vessel', 'lumen'] as const).flatMap((border) =>
    (['toward', 'away'] as const).map((side) => ({ border, side, y: Float32Array.from({ length: 10 }, (_, i) => (border === 'lumen' ? 100 : 50) + (i % 4) * 5 + (i === 7 ? NaN : 0)) })),
  ),
};

describe('the border lines of a gated L-mode', () => {
  it('show in every column the border of its cycle’s end-diastolic frame, frames before the first taking the first', () => {
    const gated = gatedBorderLines(beating, [2, 6]);
    const lumen = gated.lines.find((l) => l.border === 'lumen' && l.side === 'toward')!.y;
    // Columns 0–5 show frame 2 (row 110), columns 6–9 frame 6 (row 110): no saw-tooth left.
    expect(Array.from(lumen)).toEqual([110, 110, 110, 110, 110, 110, 110, 110, 110, 110]);
    const vessel = gated.lines.find((l) => l.border === 'vessel' && l.side === 'away')!.y;
    expect(Array.from(vessel)).toEqual(Array(10).fill(60));
    expect(gated.frameCount).toBe(10);
  });

  it('keep a frame without a border as a gap where it is the end-diastolic frame shown', () => {
    const gated = gatedBorderLines(beating, [3, 7]);
    const lumen = gated.lines.find((l) => l.border === 'lumen')!.y;
    expect(Array.from(lumen.slice(0, 7))).toEqual(Array(7).fill(115));
    expect(lumen.slice(7).every((y) => Number.isNaN(y))).toBe(true);
  });

  it('are made once per gating of the same lines', () => {
    const frames = [2, 6];
    expect(gatedBorderLines(beating, frames)).toBe(gatedBorderLines(beating, frames));
    expect(gatedBorderLines(beating, [1, 5])).not.toBe(gatedBorderLines(beating, frames));
  });
});

/** The gated L-mode panel image (issue 28): each frame's column shows its cycle's end-diastolic column. */
import { describe, expect, it } from 'vitest';
import { gatedLmodePixels } from '../../../src/domain/gating/gated-lmode.ts';

/** A 6-frame, 2-row L-mode whose pixel is 10 · row + frame, so each column says which frame it came from. */
const width = 6;
const height = 2;
const lmode = Uint8Array.from({ length: width * height }, (_, i) => 10 * Math.floor(i / width) + (i % width));

describe('gatedLmodePixels', () => {
  it('fills every column with the column of the last end-diastolic frame at or before it (the first before the first one)', () => {
    const gated = gatedLmodePixels(lmode, width, height, [1, 4]);
    expect([...gated.subarray(0, width)]).toEqual([1, 1, 1, 1, 4, 4]);
    expect([...gated.subarray(width)]).toEqual([11, 11, 11, 11, 14, 14]);
    // The L-mode itself is left as it was: turning gating off shows it again.
    expect([...lmode.subarray(0, width)]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('writes into the buffer it is given, and shows every frame without gated frames', () => {
    const out = new Uint8Array(width * height);
    expect(gatedLmodePixels(lmode, width, height, [0, 3], out)).toBe(out);
    expect([...out.subarray(0, width)]).toEqual([0, 0, 0, 3, 3, 3]);
    expect([...gatedLmodePixels(lmode, width, height, [])]).toEqual([...lmode]);
  });
});

import { describe, expect, it } from 'vitest';
import { sliceToX, xToSlice } from '../../../../src/web/review/contours/plot-scale.ts';

describe('the plot x axis', () => {
  // The laptop (1366 px wide) and the reading-room monitor (2560 px): plot widths less both margins.
  const laptop = { left: 44, width: 1266, count: 3000 };
  const monitor = { left: 44, width: 2460, count: 3000 };

  it('puts slice 1 at the left edge and the last slice at the right edge', () => {
    expect(sliceToX(1, laptop)).toBe(44);
    expect(sliceToX(3000, laptop)).toBe(44 + 1266);
  });

  it('reads back every slice it draws, on the laptop and on the monitor', () => {
    for (const axis of [laptop, monitor, { left: 10, width: 300, count: 300 }, { left: 0, width: 50, count: 7 }]) {
      for (let slice = 1; slice <= axis.count; slice++) expect(xToSlice(sliceToX(slice, axis), axis)).toBe(slice);
    }
  });

  it('maps x to the nearest slice and clamps outside the plot area', () => {
    const axis = { left: 40, width: 100, count: 11 };
    expect(xToSlice(40 + 14, axis)).toBe(2);
    expect(xToSlice(40 + 16, axis)).toBe(3);
    expect(xToSlice(0, axis)).toBe(1);
    expect(xToSlice(500, axis)).toBe(11);
  });

  it('has one slice only at the left edge', () => {
    expect(sliceToX(1, { left: 40, width: 100, count: 1 })).toBe(40);
    expect(xToSlice(90, { left: 40, width: 100, count: 1 })).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { malapposedLines, malappositionRegions, regionsMeet } from '../../../src/domain/stent/malapposition.ts';
import { fitStentBorder } from '../../../src/domain/stent/stent-border.ts';
import { LINE_COUNT } from '../../../src/domain/stent/strut-detection.ts';
import { stentReading } from './stent-fixtures.ts';

const lines = (from: number, to: number): Uint8Array => {
  const mask = new Uint8Array(LINE_COUNT);
  for (let a = from; a < to; a++) mask[((a % LINE_COUNT) + LINE_COUNT) % LINE_COUNT] = 1;
  return mask;
};

describe('malapposed lines of a frame', () => {
  it('are where the wall lies more than 0.4 mm beyond the stent border, and only there', () => {
    const reading = stentReading(1.5, { from: 100, to: 160, gapMm: 0.6 });
    const found = malapposedLines(fitStentBorder(reading.struts)!, reading.wall, reading.struts);
    expect(found[130]).toBe(1);
    expect(found[20]).toBe(0);
    expect(found[250]).toBe(0);
    const count = found.reduce((n, v) => n + v, 0);
    expect(count).toBeGreaterThan(50);
    expect(count).toBeLessThan(70);
  });

  it('are none where the gap is under the threshold', () => {
    const reading = stentReading(1.5, { from: 100, to: 160, gapMm: 0.25 });
    expect(malapposedLines(fitStentBorder(reading.struts)!, reading.wall, reading.struts).reduce((n, v) => n + v, 0)).toBe(0);
  });
});

describe('malapposed regions along the pullback', () => {
  it('join overlapping arcs of consecutive frames into one region with its length and widest arc', () => {
    const frames = [null, lines(100, 140), lines(110, 160), lines(120, 150), null, null];
    const regions = malappositionRegions(frames, 10);
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ firstFrame: 1, lastFrame: 3, maxArcDeg: 50, maxArcFrame: 2 });
    expect(regions[0]!.lengthMm).toBeCloseTo(0.3);
  });

  it('keep arcs on opposite sides apart, join across 0°, and drop one frame of speckle', () => {
    const both = (a: Uint8Array, b: Uint8Array) => a.map((v, k) => v | b[k]!);
    const frames = [lines(350, 380), both(lines(355, 375), lines(170, 200)), lines(170, 200), lines(170, 200), lines(60, 75)];
    // 5 frames a mm: two frames are 0.4 mm, one frame 0.2 mm (too short for a region).
    const regions = malappositionRegions(frames, 5);
    expect(regions.map((r) => [r.firstFrame, r.lastFrame])).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(regionsMeet(regions[0]!, regions[1]!)).toBe(false);
  });
});

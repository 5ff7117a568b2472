import { describe, expect, it } from 'vitest';
import { compressedLevel, createLogCompression, levelOf } from '../../../src/domain/synthetic/log-compression.ts';

/** The looks' gains (50 and 60 dB display ranges) with offsets like the renderer's, and two extremes. */
const mappings = [
  ...[50, 60].map((rangeDb) => ({ gain: ((10 / Math.LN10) * 255) / rangeDb, offset: (38 * 255) / rangeDb - (((10 / Math.LN10) * 255) / rangeDb) * Math.log(1.94) })),
  { gain: 3.7, offset: -12.25 },
  { gain: 80, offset: 400 },
];

function adjacent(value: number, direction: 1 | -1): number {
  const bits = new Float64Array([value]);
  const words = new BigUint64Array(bits.buffer);
  words[0] = words[0]! + (direction === 1 ? 1n : -1n);
  return bits[0]!;
}

describe('log compression by table', () => {
  it('maps every power to the grey level the logarithm gives, bit for bit', () => {
    for (const { gain, offset } of mappings) {
      const compression = createLogCompression(gain, offset);
      const mismatches: string[] = [];
      const check = (power: number) => {
        const expected = compressedLevel(gain, offset, power);
        if (levelOf(compression, power) !== expected) mismatches.push(`${power}: ${levelOf(compression, power)} vs ${expected}`);
      };
      // Each step's edge and the doubles around it: where a table is most likely to be off by one.
      for (let n = 1; n <= 255; n++) {
        let power = compression.thresholds[n]!;
        for (let k = 0; k < 4; k++) power = adjacent(power, -1);
        for (let k = 0; k < 9; k++, power = adjacent(power, 1)) check(power);
      }
      // Powers across and well beyond the mapped range, spread evenly in the logarithm (seeded).
      let state = 12345;
      const low = Math.log(compression.thresholds[1]!) - 5;
      const high = Math.log(compression.thresholds[255]!) + 5;
      for (let k = 0; k < 200_000; k++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        check(Math.exp(low + ((high - low) * state) / 2 ** 32));
      }
      for (const power of [0, Number.MIN_VALUE, 1e-300, 1, 1e300, Infinity]) check(power);
      expect(mismatches.slice(0, 5)).toEqual([]);
    }
  });

  it('is black at no echo and saturates white, as the display does', () => {
    const compression = createLogCompression(mappings[0]!.gain, mappings[0]!.offset);
    expect(levelOf(compression, 0)).toBe(0);
    expect(levelOf(compression, Infinity)).toBe(255);
  });
});

import { describe, expect, it } from 'vitest';
import { createLmodeSampler, lmodeColumnLength, sampleColumn } from '../../../../src/web/review/lmode/lmode-sampling.ts';

/** A frame whose pixel (c, r) is f(c, r). */
function frameOf(width: number, height: number, f: (c: number, r: number) => number): Uint8Array {
  const frame = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) frame[r * width + c] = f(c, r);
  return frame;
}

function column(frame: Uint8Array, width: number, height: number, angleDeg: number): number[] {
  const sampler = createLmodeSampler(width, height, (angleDeg * Math.PI) / 180);
  const image = new Uint8Array(sampler.length);
  sampleColumn(sampler, frame, image, 0, 1);
  return [...image];
}

const ramp = (c: number, r: number) => 10 * r + c;

/**
 * A plain reference for square frames, written apart from the sampler: row k lies at signed
 * distance k + 0.5 - size / 2 from the centre along the angle, read bilinearly, black outside.
 */
function referenceColumn(frame: Uint8Array, size: number, angleRad: number): number[] {
  const at = (c: number, r: number) => (c < 0 || r < 0 || c >= size || r >= size ? 0 : frame[r * size + c]!);
  return Array.from({ length: size }, (_, k) => {
    const t = k + 0.5 - size / 2;
    // Pixel centres sit at half-integers: shift by half a pixel to interpolate between them.
    const x = size / 2 + t * Math.cos(angleRad) - 0.5;
    const y = size / 2 + t * Math.sin(angleRad) - 0.5;
    const c = Math.floor(x);
    const r = Math.floor(y);
    const top = at(c, r) + (at(c + 1, r) - at(c, r)) * (x - c);
    const bottom = at(c, r + 1) + (at(c + 1, r + 1) - at(c, r + 1)) * (x - c);
    return Math.round(top + (bottom - top) * (y - r));
  });
}

describe('L-mode sampling', () => {
  it('reads the middle row at 0° and the middle column at 90°', () => {
    const frame = frameOf(5, 5, ramp);
    expect(column(frame, 5, 5, 0)).toEqual([20, 21, 22, 23, 24]);
    expect(column(frame, 5, 5, 90)).toEqual([2, 12, 22, 32, 42]);
    // The opposite direction reads the same line the other way round.
    expect(column(frame, 5, 5, 180)).toEqual([24, 23, 22, 21, 20]);
  });

  it('reads a diagonal at 45°', () => {
    // Linear in c + r, so bilinear interpolation is exact: 45 + 10 * sqrt(2) * t at distance t.
    const frame = frameOf(5, 5, (c, r) => 10 * (c + r) + 5);
    const expected = [-2, -1, 0, 1, 2].map((t) => Math.round(45 + 10 * Math.SQRT2 * t));
    expect(column(frame, 5, 5, 45)).toEqual(expected);
  });

  it('samples frames that are not square along their longer side, black outside', () => {
    const frame = frameOf(7, 3, ramp);
    expect(lmodeColumnLength(7, 3)).toBe(7);
    expect(column(frame, 7, 3, 0)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(column(frame, 7, 3, 90)).toEqual([0, 0, 3, 13, 23, 0, 0]);
  });

  it('interpolates bilinearly between pixel centres', () => {
    // A 2 x 2 frame: the 0° line runs between its two rows, so each sample is their mean.
    const frame = Uint8Array.from([0, 100, 50, 250]);
    expect(column(frame, 2, 2, 0)).toEqual([25, 175]);
  });

  it('agrees with a direct bilinear reference on square frames at any angle', () => {
    const size = 32;
    const frame = frameOf(size, size, (c, r) => (c * 37 + r * 91 + ((c * r) % 17)) % 256);
    for (const angle of [0, 17, 90, 133, 270, 359]) {
      const reference = referenceColumn(frame, size, (angle * Math.PI) / 180);
      const page = column(frame, size, size, angle);
      page.forEach((value, k) => expect(Math.abs(value - reference[k]!)).toBeLessThanOrEqual(1));
    }
  });

  it('writes a column into its place in a wider image', () => {
    const frame = frameOf(3, 3, ramp);
    const sampler = createLmodeSampler(3, 3, 0);
    const image = new Uint8Array(3 * 4);
    sampleColumn(sampler, frame, image, 2, 4);
    expect([...image]).toEqual([0, 0, 10, 0, 0, 0, 11, 0, 0, 0, 12, 0]);
  });
});

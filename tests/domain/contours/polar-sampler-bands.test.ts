import { describe, expect, it } from 'vitest';
import { createPolarSampler } from '../../../src/domain/contours/polar-sampler.ts';

/** A frame with structure everywhere (a gradient and a checker), so that any misplaced sample shows. */
function patternFrame(width: number, height: number): Uint8Array {
  const frame = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) frame[y * width + x] = (x * 3 + y * 5 + ((x >> 2) ^ (y >> 2)) * 17) & 255;
  return frame;
}

describe('polar resampling of bands (calcium reads a band round the lumen, issue 23 speed)', () => {
  // Off-centre catheter and a non-square frame: rays leave the frame at different radii, so bands cross the edge samples too.
  const geometry = { frameWidth: 90, frameHeight: 70, centreX: 38.5, centreY: 30, angleCount: 48, firstRadiusPx: 0, radialStepPx: 1, sampleCount: 60 };
  const sampler = createPolarSampler(geometry);
  const frame = patternFrame(geometry.frameWidth, geometry.frameHeight);
  const whole = new Float32Array(geometry.angleCount * geometry.sampleCount);
  sampler.resample(frame, whole);

  it('gives inside each band exactly what the whole resampling gives, and leaves the rest of the image as it was', () => {
    const from = Int32Array.from({ length: geometry.angleCount }, (_, a) => (a * 7) % 50 - 5);
    const to = Int32Array.from({ length: geometry.angleCount }, (_, a) => from[a]! + ((a * 11) % 30) + (a % 5 === 0 ? 40 : 0));
    const banded = new Float32Array(whole.length).fill(-1);
    sampler.resampleBands(frame, banded, from, to);
    let inside = 0;
    for (let a = 0; a < geometry.angleCount; a++) {
      for (let k = 0; k < geometry.sampleCount; k++) {
        const s = a * geometry.sampleCount + k;
        if (k >= from[a]! && k < to[a]!) {
          expect(banded[s]).toBe(whole[s]);
          inside++;
        } else expect(banded[s]).toBe(-1);
      }
    }
    expect(inside).toBeGreaterThan(500);
  });

  it('with every band the whole ray, is the whole resampling', () => {
    const banded = new Float32Array(whole.length);
    sampler.resampleBands(frame, banded, new Int32Array(geometry.angleCount), new Int32Array(geometry.angleCount).fill(geometry.sampleCount));
    expect(Buffer.from(banded.buffer).equals(Buffer.from(whole.buffer))).toBe(true);
  });

  it('refuses a frame of the wrong size and writes nothing', () => {
    const banded = new Float32Array(whole.length).fill(-1);
    expect(() => sampler.resampleBands(new Uint8Array(10), banded, new Int32Array(geometry.angleCount), new Int32Array(geometry.angleCount).fill(5))).toThrow(RangeError);
    expect(banded.every((v) => v === -1)).toBe(true);
  });
});

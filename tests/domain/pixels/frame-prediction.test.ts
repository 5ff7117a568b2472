/**
 * A frame predicted from the one before is stored as its temporal residual and made whole again
 * exactly, wherever the bytes lie in their buffers; and the cheap estimate picks the residual for a
 * pullback's consecutive frames and the frame alone for frames that are not neighbours.
 */
import { describe, expect, it } from 'vitest';
import { addPreviousFrame, predictionPays, temporalResidual } from '../../../src/domain/pixels/frame-prediction.ts';
import { seededRandom } from '../../../src/domain/random.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

function noise(length: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

describe('temporal residual', () => {
  it('gives the frame back byte for byte, every value pair, aligned or not, of any length', () => {
    // Every (frame, previous) pair of byte values: 65,536 pixels.
    const frame = Uint8Array.from({ length: 65536 }, (_, k) => k & 255);
    const previous = Uint8Array.from({ length: 65536 }, (_, k) => k >> 8);
    const residual = new Uint8Array(frame.length);
    temporalResidual(frame, previous, residual);
    expect(residual[0x0380]).toBe((0x80 - 0x03 + 128) & 255);
    addPreviousFrame(residual, previous);
    expect(Buffer.from(residual).equals(Buffer.from(frame))).toBe(true);

    for (const [offset, length] of [[1, 1001], [2, 4099], [3, 7], [0, 4097]] as const) {
      const a = noise(length + 8, offset).subarray(offset, offset + length);
      const b = noise(length + 8, 10 + offset).subarray(offset, offset + length);
      const out = new Uint8Array(length + 8).subarray(offset, offset + length);
      temporalResidual(a, b, out);
      const expected = Uint8Array.from(a, (value, k) => (value - b[k]! + 128) & 255);
      expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
      addPreviousFrame(out, b);
      expect(Buffer.from(out).equals(Buffer.from(a))).toBe(true);
    }
  });

  it('refuses frames of different sizes', () => {
    expect(() => addPreviousFrame(new Uint8Array(4), new Uint8Array(5))).toThrow(RangeError);
    expect(() => temporalResidual(new Uint8Array(4), new Uint8Array(4), new Uint8Array(3))).toThrow(RangeError);
  });
});

describe('whether predicting pays', () => {
  const model = createPullbackModel({ seed: 31, frameCount: 600, frameSizePx: 256, pixelSpacingMm: 0.02 });
  const renderer = createBmodeRenderer(model);
  const frame = (k: number) => renderer.renderFrame(k);

  it('is yes for consecutive frames of a pullback, no for frames far apart or of another pullback', () => {
    expect(predictionPays(frame(101), frame(100), 256, 256)).toBe(true);
    expect(predictionPays(frame(400), frame(100), 256, 256)).toBe(false);
    const other = createBmodeRenderer(createPullbackModel({ seed: 32, frameCount: 600, frameSizePx: 256, pixelSpacingMm: 0.02 }));
    expect(predictionPays(other.renderFrame(101), frame(100), 256, 256)).toBe(false);
    expect(predictionPays(noise(256 * 256, 5), frame(100), 256, 256)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createBmodeRenderer } from '../../../src/domain/imaging/bmode-frame.ts';
import { crossSectionAt } from '../../../src/domain/imaging/cross-section.ts';
import { buildLmodeImage, createLmodeBuilder, lmodeColumn } from '../../../src/domain/imaging/lmode.ts';
import { createPullbackModel } from '../../../src/domain/imaging/pullback-model.ts';

/** A frame whose pixel value is its column (x) index, or its row (y) index. */
function ramp(sizePx: number, along: 'x' | 'y'): Uint8Array {
  const frame = new Uint8Array(sizePx * sizePx);
  for (let row = 0; row < sizePx; row++) for (let col = 0; col < sizePx; col++) frame[row * sizePx + col] = along === 'x' ? col : row;
  return frame;
}

describe('lmodeColumn', () => {
  it('reads the line through the centre: left to right at 0, top to bottom at pi/2, reversed at pi', () => {
    const size = 64;
    expect([...lmodeColumn(ramp(size, 'x'), size, 0)]).toEqual(Array.from({ length: size }, (_, k) => k));
    expect([...lmodeColumn(ramp(size, 'y'), size, Math.PI / 2)]).toEqual(Array.from({ length: size }, (_, k) => k));
    expect([...lmodeColumn(ramp(size, 'x'), size, Math.PI)]).toEqual(Array.from({ length: size }, (_, k) => size - 1 - k));
  });

  it('rejects a frame of the wrong size', () => {
    expect(() => lmodeColumn(new Uint8Array(10), 64, 0)).toThrow(RangeError);
  });
});

describe('L-mode image', () => {
  const model = createPullbackModel({ seed: 8, frameCount: 24 });
  const renderer = createBmodeRenderer(model);
  const angle = 0.7;
  const frames = Array.from({ length: model.frameCount }, (_, frameIndex) => renderer.renderFrame(frameIndex));

  it('has frameSize rows and one column per frame, column i being frame i cut at the angle', () => {
    const builder = createLmodeBuilder(512, model.frameCount, angle);
    // Frames arrive out of order, as chunks from several workers would.
    for (const frameIndex of [...frames.keys()].reverse()) builder.addFrame(frameIndex, frames[frameIndex]!);
    expect(builder.rows).toBe(512);
    expect(builder.columns).toBe(24);
    expect(builder.image).toHaveLength(512 * 24);
    const column5 = lmodeColumn(frames[5]!, 512, angle);
    for (let row = 0; row < 512; row++) expect(builder.image[row * 24 + 5]).toBe(column5[row]);
    expect(buildLmodeImage(frames.map((frame) => lmodeColumn(frame, 512, angle)), 512)).toEqual(builder.image);
  });

  it('shows the catheter dark in the middle rows, the lumen darker than the wall beyond it', () => {
    const builder = createLmodeBuilder(512, model.frameCount, angle);
    frames.forEach((frame, frameIndex) => builder.addFrame(frameIndex, frame));
    const section = crossSectionAt(model, 12);
    const rowAt = (radiusMm: number): number => Math.round(256 - 0.5 + radiusMm / model.pixelSpacingMm);
    const meanOfRows = (from: number, to: number): number => {
      let sum = 0;
      for (let row = from; row < to; row++) for (let col = 0; col < 24; col++) sum += builder.image[row * 24 + col]!;
      return sum / ((to - from) * 24);
    };
    expect(meanOfRows(rowAt(-0.3), rowAt(0.3))).toBeLessThan(10);
    const lumenMm = section.lumenRadiusMm(angle);
    const lumen = meanOfRows(rowAt(0.75), rowAt(lumenMm - 0.1));
    const wall = meanOfRows(rowAt(lumenMm + 0.03), rowAt(section.vesselRadiusMm(angle) - 0.15));
    expect(wall).toBeGreaterThan(lumen + 40);
  });

  it('rejects columns outside the image', () => {
    const builder = createLmodeBuilder(512, 3, 0);
    expect(() => builder.addColumn(3, new Uint8Array(512))).toThrow(RangeError);
    expect(() => builder.addColumn(0, new Uint8Array(10))).toThrow(RangeError);
  });
});

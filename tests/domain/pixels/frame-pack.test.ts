import { describe, expect, it } from 'vitest';
import { buildFramePack, FramePackError, readFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { grayFormat, type PixelFormat } from '../../../src/domain/pixels/pixel-format.ts';

const format: PixelFormat = grayFormat('jpeg-ls', 2, 3);

describe('frame pack', () => {
  it('gives back the format and every frame byte for byte, empty frames included', () => {
    const frames = [new Uint8Array([1, 2, 3]), new Uint8Array([]), new Uint8Array([9, 8, 7, 6, 5])];
    const pack = readFramePack(buildFramePack(format, frames));
    expect(pack.format).toEqual(format);
    expect(pack.frames.map((frame) => [...frame])).toEqual(frames.map((frame) => [...frame]));
  });

  it('refuses bytes that are not a whole pack', () => {
    const whole = buildFramePack(format, [new Uint8Array([1, 2, 3, 4])]);
    expect(() => readFramePack(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0]))).toThrow(FramePackError);
    expect(() => readFramePack(whole.subarray(0, whole.length - 1))).toThrow(/ends inside a frame/);
    const longer = new Uint8Array(whole.length + 1);
    longer.set(whole);
    expect(() => readFramePack(longer)).toThrow(/after its last frame/);
    const hugeHeader = whole.slice();
    new DataView(hugeHeader.buffer).setUint32(4, 0xffffffff, true);
    expect(() => readFramePack(hugeHeader)).toThrow(/header runs past/);
  });
});

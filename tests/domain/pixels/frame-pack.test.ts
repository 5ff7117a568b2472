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

describe('a frame pack with frames predicted from the one before', () => {
  const frames = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5, 6])];

  it('keeps which frames are predicted, and writes nothing when none is (a pack as before)', () => {
    expect(readFramePack(buildFramePack(format, frames, [false, true, true])).predict).toEqual([false, true, true]);
    const plain = buildFramePack(format, frames, [false, false, false]);
    expect(Buffer.from(plain).equals(Buffer.from(buildFramePack(format, frames)))).toBe(true);
    expect(readFramePack(plain).predict).toBeUndefined();
  });

  it('begins IVF2 when a frame is predicted, which a previous build refuses as no pack (never showing a residual)', () => {
    const pack = buildFramePack(format, frames, [false, true, false]);
    expect(new TextDecoder().decode(pack.subarray(0, 4))).toBe('IVF2');
    expect(new TextDecoder().decode(buildFramePack(format, frames).subarray(0, 4))).toBe('IVFP');
    // A predict field with predicted frames behind the old magic is refused too.
    expect(() => readFramePack(packWith([false, true, false], format, [0x49, 0x56, 0x46, 0x50]))).toThrow(/IVF2/);
  });

  it('reads a pack a previous build wrote (no predict field) as every frame alone', () => {
    const header = new TextEncoder().encode(JSON.stringify({ format, frameLengths: [2, 1, 3] }));
    const old = new Uint8Array(8 + header.length + 6);
    old.set([0x49, 0x56, 0x46, 0x50]);
    new DataView(old.buffer).setUint32(4, header.length, true);
    old.set(header, 8);
    old.set([1, 2, 3, 4, 5, 6], 8 + header.length);
    const pack = readFramePack(old);
    expect(pack.predict).toBeUndefined();
    expect(pack.frames.map((frame) => [...frame])).toEqual([[1, 2], [3], [4, 5, 6]]);
  });

  /** A pack whose header JSON has `predict` as given, as another writer could send it (magic 'IVF2'). */
  function packWith(predict: unknown, packFormat: PixelFormat = format, magic = [0x49, 0x56, 0x46, 0x32]): Uint8Array {
    const header = new TextEncoder().encode(JSON.stringify({ format: packFormat, frameLengths: [2, 1, 3], predict }));
    const pack = new Uint8Array(8 + header.length + 6);
    pack.set(magic);
    new DataView(pack.buffer).setUint32(4, header.length, true);
    pack.set(header, 8);
    return pack;
  }

  it.each([
    ['not an array', 'true', /one boolean per frame/],
    ['shorter than the frames', [false, true], /one boolean per frame/],
    ['not booleans', [0, 1, 1], /one boolean per frame/],
    ['null in it', [false, null, true], /one boolean per frame/],
    ['the first frame predicted', [true, false, false], /first frame/],
  ])('refuses a predict field that is %s', (_, predict, message) => {
    expect(() => readFramePack(packWith(predict))).toThrow(FramePackError);
    expect(() => readFramePack(packWith(predict))).toThrow(message);
  });

  it('refuses predicted frames whose decode is not the gray itself (colour, 16-bit, palette)', () => {
    const rgb: PixelFormat = { ...format, samplesPerPixel: 3, photometric: 'RGB' };
    const wide: PixelFormat = { ...format, bitsAllocated: 16, bitsStored: 12 };
    const palette: PixelFormat = { ...format, photometric: 'PALETTE COLOR', palette: { first: 0, gray: [0, 255] } };
    for (const other of [rgb, wide, palette]) {
      expect(() => readFramePack(packWith([false, true, false], other))).toThrow(/only plain 8-bit gray/);
      // The same pack with every frame alone is fine.
      expect(readFramePack(packWith([false, false, false], other)).frames).toHaveLength(3);
      expect(() => buildFramePack(other, frames, [false, true, false])).toThrow(FramePackError);
    }
  });
});

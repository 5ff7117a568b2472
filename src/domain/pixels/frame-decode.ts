/**
 * One DICOM frame's bytes to 8-bit grayscale (rows x columns, row-major): uncompressed (little or
 * big endian), RLE lossless, or through a codec (JPEG, JPEG-LS, JPEG 2000, HTJ2K) the caller
 * looks up (the server's registry in Node, the page's decode workers in the browser: the same
 * WASM libraries, so both give the same pixels); the samples then go through pixel-conversion.ts.
 * Pure and synchronous once the codec is loaded.
 */
import type { CodecAdapter, DecodedSamples } from './decoded-samples.ts';
import { samplesToGray } from './pixel-conversion.ts';
import { nativeFrameBytes, type PixelFormat } from './pixel-format.ts';

/** A frame that cannot be turned into pixels; `code` is the import error it becomes. */
export class FrameDecodeError extends Error {
  readonly code: 'decode_failed' | 'inconsistent_frames';

  constructor(code: 'decode_failed' | 'inconsistent_frames', message: string) {
    super(message);
    this.code = code;
  }
}

function samples(format: PixelFormat, data: DecodedSamples['data'], planar: boolean): DecodedSamples {
  return { width: format.columns, height: format.rows, components: format.samplesPerPixel, bitsPerSample: format.bitsStored, planar, rgb: false, data };
}

/** 16-bit samples from bytes in either byte order. */
function words(data: Uint8Array, count: number, bigEndian: boolean): Uint16Array {
  if (!bigEndian && data.byteOffset % 2 === 0) return new Uint16Array(data.buffer, data.byteOffset, count);
  const out = new Uint16Array(count);
  if (bigEndian) for (let i = 0; i < count; i++) out[i] = (data[2 * i]! << 8) | data[2 * i + 1]!;
  else for (let i = 0; i < count; i++) out[i] = data[2 * i]! | (data[2 * i + 1]! << 8);
  return out;
}

/** An uncompressed frame (exactly nativeFrameBytes long) to gray. */
export function nativeToGray(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  const pixels = format.rows * format.columns;
  const frameBytes = nativeFrameBytes(format);
  if (data.length < frameBytes) {
    throw new FrameDecodeError('inconsistent_frames', `a frame holds ${data.length} bytes where ${frameBytes} were expected`);
  }
  if (format.samplesPerPixel === 3 && (format.photometric === 'YBR_FULL_422' || format.photometric === 'YBR_PARTIAL_422')) {
    // Y0 Y1 Cb Cr for each pair of pixels: the gray is the luma.
    for (let i = 0; i < pixels; i++) out[i] = data[(i >> 1) * 4 + (i & 1)]!;
    return;
  }
  const count = pixels * format.samplesPerPixel;
  // 8-bit samples of a big endian OW element come here already in order (decode-range.ts).
  const values = format.bitsAllocated === 16 ? words(data, count, format.bigEndianWords) : data.subarray(0, count);
  samplesToGray(format, samples(format, values, format.planarConfiguration === 1), out);
}

/** One PackBits segment of an RLE frame into `target` (exactly target.length bytes). */
function unpackSegment(data: Uint8Array, start: number, end: number, target: Uint8Array): void {
  let src = start;
  let dst = 0;
  const length = target.length;
  while (dst < length && src < end) {
    const n = data[src++]!;
    if (n < 128) {
      const count = n + 1;
      if (src + count > end || dst + count > length) throw new FrameDecodeError('decode_failed', 'an RLE segment runs past its end');
      target.set(data.subarray(src, src + count), dst);
      src += count;
      dst += count;
    } else if (n > 128) {
      const count = 257 - n;
      if (src >= end || dst + count > length) throw new FrameDecodeError('decode_failed', 'an RLE segment runs past its end');
      target.fill(data[src++]!, dst, dst + count);
      dst += count;
    }
    // 128 (-128) is a no-op.
  }
  if (dst !== length) throw new FrameDecodeError('inconsistent_frames', `an RLE segment decodes to ${dst} bytes where ${length} were expected`);
}

/** Number of RLE segments a frame of this format has. */
export function rleSegmentCount(format: Pick<PixelFormat, 'samplesPerPixel' | 'bitsAllocated'>): number {
  return format.samplesPerPixel * (format.bitsAllocated / 8);
}

/** An RLE lossless frame (DICOM PS3.5 annex G) to gray. */
export function rleToGray(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  if (data.length < 64) throw new FrameDecodeError('decode_failed', 'an RLE frame is shorter than its 64-byte header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const segments = view.getUint32(0, true);
  const expected = rleSegmentCount(format);
  if (segments !== expected) {
    throw new FrameDecodeError('inconsistent_frames', `an RLE frame has ${segments} segments where ${expected} were expected`);
  }
  const offsets: number[] = [];
  for (let k = 0; k < segments; k++) offsets.push(view.getUint32(4 + 4 * k, true));
  offsets.push(data.length);
  const pixels = format.rows * format.columns;
  // Segments in order: for each sample, its most significant byte first.
  const planes = new Uint8Array(pixels * segments);
  for (let k = 0; k < segments; k++) {
    const start = offsets[k]!;
    const end = offsets[k + 1]!;
    if (start < 64 || start > end || end > data.length) throw new FrameDecodeError('decode_failed', 'an RLE frame has a bad segment offset');
    unpackSegment(data, start, end, planes.subarray(k * pixels, (k + 1) * pixels));
  }
  if (format.bitsAllocated === 8) {
    samplesToGray(format, samples(format, planes, true), out);
    return;
  }
  const values = new Uint16Array(pixels * format.samplesPerPixel);
  for (let s = 0; s < format.samplesPerPixel; s++) {
    const high = planes.subarray(2 * s * pixels);
    const low = planes.subarray((2 * s + 1) * pixels);
    for (let i = 0; i < pixels; i++) values[s * pixels + i] = (high[i]! << 8) | low[i]!;
  }
  samplesToGray(format, samples(format, values, true), out);
}

/** The loaded codec that decodes a format's frames (null for native and RLE). */
export type CodecLookup = (format: Pick<PixelFormat, 'encoding' | 'bitsStored'>) => CodecAdapter | null;

/** A frame of a codec encoding to gray; its size must be the header's. */
function codecToGray(format: PixelFormat, data: Uint8Array, out: Uint8Array, codecFor: CodecLookup): void {
  const codec = codecFor(format);
  if (!codec) throw new FrameDecodeError('decode_failed', `no decoder is loaded for ${format.encoding} frames`);
  let decoded: DecodedSamples;
  try {
    decoded = codec.decode(data);
  } catch (error) {
    throw new FrameDecodeError('decode_failed', error instanceof Error ? error.message : String(error));
  }
  if (decoded.width !== format.columns || decoded.height !== format.rows) {
    throw new FrameDecodeError('inconsistent_frames', `a frame is ${decoded.width}x${decoded.height} where the header says ${format.columns}x${format.rows}`);
  }
  if (decoded.components !== 1 && decoded.components !== 3) {
    throw new FrameDecodeError('inconsistent_frames', `a frame has ${decoded.components} components where the header says ${format.samplesPerPixel}`);
  }
  try {
    samplesToGray(format, decoded, out);
  } catch (error) {
    throw new FrameDecodeError('inconsistent_frames', error instanceof Error ? error.message : String(error));
  }
}

/** Any accepted frame to gray, into `out` (rows x columns bytes). */
export function decodeFrameWith(format: PixelFormat, data: Uint8Array, out: Uint8Array, codecFor: CodecLookup): void {
  if (format.encoding === 'native') nativeToGray(format, data, out);
  else if (format.encoding === 'rle') rleToGray(format, data, out);
  else codecToGray(format, data, out, codecFor);
}

/**
 * One DICOM frame's bytes to 8-bit grayscale (rows x columns, row-major): uncompressed, RLE
 * lossless or JPEG baseline; grayscale, RGB or YBR. Pure computation on buffers, shared by the
 * decode workers and the main thread.
 */
import jpeg from 'jpeg-js';
import { nativeFrameBytes, rgbToGray, type PixelFormat } from './pixel-format.ts';

/** A frame that cannot be turned into pixels; `code` is the import error it becomes. */
export class FrameDecodeError extends Error {
  readonly code: 'decode_failed' | 'inconsistent_frames';

  constructor(code: 'decode_failed' | 'inconsistent_frames', message: string) {
    super(message);
    this.code = code;
  }
}

/** Maps stored values wider than 8 bits to 8-bit gray: a table over every stored value. */
function wideLookup(format: PixelFormat): Uint8Array {
  const size = 1 << format.bitsStored;
  const lut = new Uint8Array(size);
  const signedOffset = format.pixelRepresentation === 1 ? size / 2 : 0;
  for (let stored = 0; stored < size; stored++) {
    // Two's complement values wrap to the top half of the table.
    const value = format.pixelRepresentation === 1 && stored >= size / 2 ? stored - size : stored;
    let gray: number;
    if (format.window && format.window.width >= 1) {
      const modality = value * format.rescaleSlope + format.rescaleIntercept;
      const { center, width } = format.window;
      gray = width <= 1 ? (modality < center ? 0 : 255) : ((modality - (center - 0.5)) / (width - 1) + 0.5) * 255;
    } else {
      gray = (value + signedOffset) / 2 ** (format.bitsStored - 8);
    }
    lut[stored] = gray <= 0 ? 0 : gray >= 255 ? 255 : Math.round(gray);
  }
  return lut;
}

const lookups = new WeakMap<PixelFormat, Uint8Array>();

function lookupFor(format: PixelFormat): Uint8Array {
  let lut = lookups.get(format);
  if (!lut) {
    lut = wideLookup(format);
    lookups.set(format, lut);
  }
  return lut;
}

function invertIfNeeded(format: PixelFormat, out: Uint8Array): void {
  if (format.photometric !== 'MONOCHROME1') return;
  for (let i = 0; i < out.length; i++) out[i] = 255 - out[i]!;
}

/** Stored 16-bit little-endian samples (one per pixel) to gray. */
function wideToGray(format: PixelFormat, low: (i: number) => number, high: (i: number) => number, out: Uint8Array): void {
  const lut = lookupFor(format);
  const mask = (1 << format.bitsStored) - 1;
  for (let i = 0; i < out.length; i++) out[i] = lut[(low(i) | (high(i) << 8)) & mask]!;
}

function is422(format: PixelFormat): boolean {
  return format.photometric === 'YBR_FULL_422' || format.photometric === 'YBR_PARTIAL_422';
}

/** An uncompressed frame (exactly nativeFrameBytes long) to gray. */
export function nativeToGray(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  const pixels = format.rows * format.columns;
  if (data.length < nativeFrameBytes(format)) {
    throw new FrameDecodeError('inconsistent_frames', `a frame holds ${data.length} bytes where ${nativeFrameBytes(format)} were expected`);
  }
  if (format.samplesPerPixel === 1) {
    if (format.bitsAllocated === 8) out.set(data.subarray(0, pixels));
    else wideToGray(format, (i) => data[2 * i]!, (i) => data[2 * i + 1]!, out);
    invertIfNeeded(format, out);
    return;
  }
  if (is422(format)) {
    // Y0 Y1 Cb Cr for each pair of pixels: the gray is the luma.
    for (let i = 0; i < pixels; i++) out[i] = data[(i >> 1) * 4 + (i & 1)]!;
    return;
  }
  const planar = format.planarConfiguration === 1;
  if (format.photometric === 'RGB') {
    if (planar) for (let i = 0; i < pixels; i++) out[i] = rgbToGray(data[i]!, data[pixels + i]!, data[2 * pixels + i]!);
    else for (let i = 0, j = 0; i < pixels; i++, j += 3) out[i] = rgbToGray(data[j]!, data[j + 1]!, data[j + 2]!);
    return;
  }
  // YBR_FULL: the luma is the first sample.
  if (planar) out.set(data.subarray(0, pixels));
  else for (let i = 0, j = 0; i < pixels; i++, j += 3) out[i] = data[j]!;
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
  const segment = (k: number, target: Uint8Array) => {
    const start = offsets[k]!;
    const end = offsets[k + 1]!;
    if (start < 64 || start > end || end > data.length) throw new FrameDecodeError('decode_failed', 'an RLE frame has a bad segment offset');
    unpackSegment(data, start, end, target);
  };
  if (format.samplesPerPixel === 1 && format.bitsAllocated === 8) {
    segment(0, out);
    invertIfNeeded(format, out);
    return;
  }
  if (format.samplesPerPixel === 1) {
    // 16-bit: the most significant bytes come first.
    const high = new Uint8Array(pixels);
    const low = new Uint8Array(pixels);
    segment(0, high);
    segment(1, low);
    wideToGray(format, (i) => low[i]!, (i) => high[i]!, out);
    invertIfNeeded(format, out);
    return;
  }
  if (format.photometric === 'RGB') {
    const r = new Uint8Array(pixels);
    const g = new Uint8Array(pixels);
    const b = new Uint8Array(pixels);
    segment(0, r);
    segment(1, g);
    segment(2, b);
    for (let i = 0; i < pixels; i++) out[i] = rgbToGray(r[i]!, g[i]!, b[i]!);
    return;
  }
  segment(0, out);
}

/** A JPEG baseline frame to gray; its size must be the header's. */
export function jpegToGray(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    // Components as stored: Y of YCbCr is the gray, RGB components are weighed below.
    image = jpeg.decode(data, { useTArray: true, formatAsRGBA: false, colorTransform: false, maxMemoryUsageInMB: 1024 });
  } catch (error) {
    throw new FrameDecodeError('decode_failed', `a JPEG frame cannot be decoded (${error instanceof Error ? error.message : String(error)})`);
  }
  if (image.width !== format.columns || image.height !== format.rows) {
    throw new FrameDecodeError(
      'inconsistent_frames',
      `a JPEG frame is ${image.width}x${image.height} where the header says ${format.columns}x${format.rows}`,
    );
  }
  const pixels = format.rows * format.columns;
  const rgb = image.data;
  if (format.samplesPerPixel === 3 && format.photometric === 'RGB') {
    for (let i = 0, j = 0; i < pixels; i++, j += 3) out[i] = rgbToGray(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!);
  } else {
    for (let i = 0, j = 0; i < pixels; i++, j += 3) out[i] = rgb[j]!;
    invertIfNeeded(format, out);
  }
}

/** Any accepted frame to gray, into `out` (rows x columns bytes). */
export function decodeFrame(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  if (format.encoding === 'native') nativeToGray(format, data, out);
  else if (format.encoding === 'rle') rleToGray(format, data, out);
  else jpegToGray(format, data, out);
}


/**
 * A frame pack: how one chunk of a series is stored for the page and sent to it. It holds the
 * chunk's frames as encoded bitstreams (the console's own JPEG, JPEG-LS, JPEG 2000, HTJ2K or RLE
 * frames, never encoded a second time; or a lossless encoding of the 8-bit gray for sources the
 * page could not decode as they are) and the pixel format that turns each decoded frame into
 * the same 8-bit gray the server makes (frame-decode.ts, pixel-conversion.ts).
 *
 * Layout: the magic `IVFP`, a u32 (little endian) header length, the header as UTF-8 JSON
 * `{ "format": PixelFormat, "frameLengths": number[], "predict"?: boolean[] }`, then the frames'
 * bytes one after another; a pack with predicted frames begins `IVF2`. `predict[k]`: frame k decodes to its temporal residual after frame k - 1
 * of the same pack (frame-prediction.ts), never the first; only in packs of plain 8-bit gray
 * (whose decode is the samples themselves). Absent: every frame stands alone (every pack made
 * before it existed).
 */
import type { PixelFormat } from './pixel-format.ts';

/** The media type a frame pack is served with. */
export const FRAME_PACK_MEDIA_TYPE = 'application/vnd.ivus.frame-pack';

const MAGIC = [0x49, 0x56, 0x46, 0x50]; // 'IVFP'
/**
 * A pack with predicted frames begins 'IVF2' instead: a page from a build before prediction rejects
 * it as no pack (the chunk fails to load) instead of showing residuals as frames.
 */
const PREDICTED_MAGIC = [0x49, 0x56, 0x46, 0x32]; // 'IVF2'
const PREFIX_BYTES = 8;
/** A palette or VOI LUT of 65,536 entries fits; anything larger is not a header we wrote. */
const MAX_HEADER_BYTES = 2 * 1024 * 1024;

export interface FramePackHeader {
  readonly format: PixelFormat;
  readonly frameLengths: readonly number[];
  /** Which frames are residuals after the frame before; absent when none is. */
  readonly predict?: readonly boolean[];
}

export interface FramePack {
  readonly format: PixelFormat;
  /** Each frame's encoded bytes: views into the pack. */
  readonly frames: readonly Uint8Array[];
  /** Which frames are residuals after the frame before; absent when none is. */
  readonly predict?: readonly boolean[];
}

/** A pack that is not one: truncated, of another kind, or with lengths that do not add up. */
export class FramePackError extends Error {}

/** `predict`: which frames are residuals after the one before (written only when one is, so a pack without is as before). */
export function buildFramePack(format: PixelFormat, frames: readonly Uint8Array[], predict?: readonly boolean[]): Uint8Array {
  const fields: FramePackHeader = { format, frameLengths: frames.map((frame) => frame.length) };
  const predicted = predict?.includes(true) ?? false;
  const header = new TextEncoder().encode(JSON.stringify(predicted ? { ...fields, predict } : fields));
  checkPredict(format, fields.frameLengths.length, predict);
  const total = PREFIX_BYTES + header.length + frames.reduce((sum, frame) => sum + frame.length, 0);
  const pack = new Uint8Array(total);
  pack.set(predicted ? PREDICTED_MAGIC : MAGIC, 0);
  new DataView(pack.buffer).setUint32(4, header.length, true);
  pack.set(header, PREFIX_BYTES);
  let at = PREFIX_BYTES + header.length;
  for (const frame of frames) {
    pack.set(frame, at);
    at += frame.length;
  }
  return pack;
}

function isFormat(value: unknown): value is PixelFormat {
  if (typeof value !== 'object' || value === null) return false;
  const format = value as Record<string, unknown>;
  const positiveInt = (key: string) => Number.isInteger(format[key]) && (format[key] as number) > 0;
  return typeof format.encoding === 'string' && typeof format.photometric === 'string' && positiveInt('rows') && positiveInt('columns') && positiveInt('bitsStored');
}

/** Plain 8-bit gray in one sample, unsigned, MONOCHROME2: its decode is the samples, so a residual decodes exactly. */
function decodesToSamples(format: PixelFormat): boolean {
  return format.samplesPerPixel === 1 && format.bitsAllocated === 8 && format.bitsStored === 8 && format.pixelRepresentation === 0 && format.photometric === 'MONOCHROME2' && !format.palette;
}

function checkPredict(format: PixelFormat, frames: number, predict: unknown): void {
  if (predict === undefined) return;
  if (!Array.isArray(predict) || predict.length !== frames || !predict.every((flag) => typeof flag === 'boolean')) {
    throw new FramePackError('a frame pack\'s predict field is not one boolean per frame');
  }
  if (predict[0] === true) throw new FramePackError('the first frame of a frame pack cannot be predicted');
  if (predict.includes(true) && !decodesToSamples(format)) throw new FramePackError('only plain 8-bit gray frames can be predicted from the frame before');
}

/**
 * A pack's header, once `bytes` (the pack's first bytes, as they arrive) hold all of it: its
 * format and frame lengths and where its first frame starts; null while more bytes are needed.
 * Throws FramePackError as soon as what has arrived cannot be a pack's beginning.
 */
export function readFramePackHeader(bytes: Uint8Array): { readonly header: FramePackHeader; readonly dataOffset: number } | null {
  const magic = bytes[3] === PREDICTED_MAGIC[3] ? PREDICTED_MAGIC : MAGIC;
  if (magic.some((byte, k) => k < bytes.length && bytes[k] !== byte)) throw new FramePackError('not a frame pack');
  if (bytes.length < PREFIX_BYTES) return null;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (headerLength > MAX_HEADER_BYTES) throw new FramePackError('a frame pack header runs past its end');
  if (PREFIX_BYTES + headerLength > bytes.length) return null;
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  } catch {
    throw new FramePackError('a frame pack header is not JSON');
  }
  const { format, frameLengths, predict } = (header ?? {}) as Partial<FramePackHeader>;
  if (!isFormat(format)) throw new FramePackError('a frame pack header has no pixel format');
  if (!Array.isArray(frameLengths) || !frameLengths.every((length) => Number.isInteger(length) && length >= 0)) {
    throw new FramePackError('a frame pack header has no frame lengths');
  }
  checkPredict(format, frameLengths.length, predict);
  if (predict?.includes(true) && magic !== PREDICTED_MAGIC) throw new FramePackError('a frame pack with predicted frames does not begin IVF2');
  return { header: { format, frameLengths, ...(predict ? { predict } : {}) }, dataOffset: PREFIX_BYTES + headerLength };
}

/** Reads a pack (the frames stay views into `bytes`); throws FramePackError on anything else. */
export function readFramePack(bytes: Uint8Array): FramePack {
  if (bytes.length < PREFIX_BYTES) throw new FramePackError('not a frame pack');
  const read = readFramePackHeader(bytes);
  if (!read) throw new FramePackError('a frame pack header runs past its end');
  const { format, frameLengths, predict } = read.header;
  const frames: Uint8Array[] = [];
  let at = read.dataOffset;
  for (const length of frameLengths) {
    if (at + length > bytes.length) throw new FramePackError('a frame pack ends inside a frame');
    frames.push(bytes.subarray(at, at + length));
    at += length;
  }
  if (at !== bytes.length) throw new FramePackError('a frame pack has bytes after its last frame');
  return { format, frames, ...(predict ? { predict } : {}) };
}

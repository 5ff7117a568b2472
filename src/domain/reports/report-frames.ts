/**
 * The frames a report shows (issue 26): the MLA slice and the two reference slices, each as a grey
 * image with its lumen and vessel borders drawn over it by the PDF (report-pdf.ts) as vector lines.
 * The browser takes the frames from its frame store, the server from the stored chunks: the same
 * report from the same code. Pure: the PNG is written here (stored deflate blocks; pdf-lib
 * compresses the image again when it embeds it), so nothing needs a DOM, a canvas or Node.
 */
import type { CorrectedAnalysis } from '../contours/corrected-analysis.ts';

/** One B-mode frame: 8-bit grey, row by row. */
export interface ReportFrame {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

export type ReportFrameRole = 'MLA' | 'distal reference' | 'proximal reference';

/** Which slices (1-based) the report shows, in the order the page lays them out: distal, MLA, proximal. */
export function reportFrameSlices(result: Pick<CorrectedAnalysis, 'analysis'>): { role: ReportFrameRole; slice: number }[] {
  const { mla, references } = result.analysis;
  const slices: { role: ReportFrameRole; slice: number }[] = [];
  if (references.distal) slices.push({ role: 'distal reference', slice: references.distal.index + 1 });
  if (mla) slices.push({ role: 'MLA', slice: mla.index + 1 });
  if (references.proximal) slices.push({ role: 'proximal reference', slice: references.proximal.index + 1 });
  return slices;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i += 5552) {
    const end = Math.min(bytes.length, i + 5552);
    for (let k = i; k < end; k++) {
      a += bytes[k]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of `data` in stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  const view = new DataView(out.buffer);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * 65535;
    const length = Math.min(65535, data.length - start);
    out[at] = block === blocks - 1 ? 1 : 0;
    view.setUint16(at + 1, length, true);
    view.setUint16(at + 3, ~length & 0xffff, true);
    out.set(data.subarray(start, start + length), at + 5);
    at += 5 + length;
  }
  view.setUint32(at, adler32(data));
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The frame as an 8-bit greyscale PNG. */
export function grayPng(frame: ReportFrame): Uint8Array {
  const { width, height, pixels } = frame;
  if (pixels.length !== width * height) throw new RangeError(`a ${width}x${height} frame has ${width * height} pixels, not ${pixels.length}`);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter, no interlace
  // Each row starts with its filter type (0: none).
  const raw = new Uint8Array(height * (width + 1));
  for (let row = 0; row < height; row++) raw.set(pixels.subarray(row * width, (row + 1) * width), row * (width + 1) + 1);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlibStored(raw)), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

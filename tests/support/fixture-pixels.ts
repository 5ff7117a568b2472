/**
 * The pixel side of the DICOM test fixtures (dicom-fixtures.ts): the patterns frames are drawn with,
 * the gray levels an import must make of them, and RLE encoding as DICOM segments use it.
 */
import type { FixtureOptions } from './dicom-fixtures.ts';

/** A value rounded into 0..255. */
export const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** A smooth pattern (JPEG keeps it within a few levels) with a black band on top (runs for RLE). */
export function smoothPixel(frame: number, x: number, y: number): number {
  if (y < 4) return 0;
  return clamp(128 + 90 * Math.sin((x + 2 * frame) / 7) * Math.cos((y - frame) / 9));
}

/** A smooth pattern over the whole range of `bits`-bit values. */
export function smoothWidePixel(bits: number): (frame: number, x: number, y: number) => number {
  const top = 2 ** bits - 1;
  return (frame, x, y) => Math.round(top * (0.5 + 0.48 * Math.sin((x + 2 * frame) / 7) * Math.cos((y - frame) / 9)));
}

/** The 8-bit gray of a stored value by the DICOM VOI rules: window, else VOI LUT, else the stored range. */
export function expectedWideGray(value: number, options: Pick<FixtureOptions, 'bits' | 'window' | 'rescale' | 'voiLut' | 'monochrome1'>): number {
  const modality = value * (options.rescale?.slope ?? 1) + (options.rescale?.intercept ?? 0);
  let gray: number;
  if (options.window) {
    const { center, width } = options.window;
    gray = ((modality - (center - 0.5)) / (width - 1) + 0.5) * 255;
  } else if (options.voiLut) {
    const { first, bits, data } = options.voiLut;
    const index = Math.min(data.length - 1, Math.max(0, Math.round(modality) - first));
    gray = (data[index]! / (2 ** bits - 1)) * 255;
  } else {
    gray = value / 2 ** ((options.bits ?? 8) - 8);
  }
  const clamped = clamp(gray);
  return options.monochrome1 ? 255 - clamped : clamped;
}

/** Luma of an RGB pixel with BT.601 weights, rounded (what the import keeps of a colour frame). */
export function expectedLuma(r: number, g: number, b: number): number {
  return Math.round((299 * r + 587 * g + 114 * b) / 1000);
}

/** PackBits, as DICOM RLE segments use it. */
export function packBits(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 128) + 2);
  let o = 0;
  let i = 0;
  while (i < data.length) {
    let run = 1;
    while (i + run < data.length && run < 128 && data[i + run] === data[i]) run++;
    if (run >= 3) {
      out[o++] = 257 - run;
      out[o++] = data[i]!;
      i += run;
      continue;
    }
    const start = i;
    let literal = 0;
    while (i < data.length && literal < 128) {
      if (i + 2 < data.length && data[i] === data[i + 1] && data[i] === data[i + 2]) break;
      i++;
      literal++;
    }
    out[o++] = literal - 1;
    out.set(data.subarray(start, start + literal), o);
    o += literal;
  }
  if (o % 2 === 1) out[o++] = 0x80; // a no-op pads the segment to an even length
  return out.slice(0, o);
}

/** One RLE frame from its planes (each rows x columns bytes). */
export function rleFrame(planes: Uint8Array[]): Uint8Array {
  const segments = planes.map(packBits);
  const header = new Uint8Array(64);
  const view = new DataView(header.buffer);
  view.setUint32(0, segments.length, true);
  let offset = 64;
  segments.forEach((segment, k) => {
    view.setUint32(4 + 4 * k, offset, true);
    offset += segment.length;
  });
  const frame = new Uint8Array(offset);
  frame.set(header);
  let at = 64;
  for (const segment of segments) {
    frame.set(segment, at);
    at += segment.length;
  }
  return frame;
}

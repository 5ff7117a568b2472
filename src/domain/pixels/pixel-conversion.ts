/**
 * Decoded samples to the 8-bit gray every frame is stored as: grayscale through a table over every
 * stored value (PALETTE COLOR as the luma of its entries; data wider than 8 bits through its VOI:
 * window, else VOI LUT, else the stored range; MONOCHROME1 inverted), colour as BT.601 luma of RGB
 * or as the Y of YBR. Pure computation, shared by the workers and the main thread.
 */
import { rgbToGray, type PixelFormat } from './pixel-format.ts';
import type { DecodedSamples } from './decoded-samples.ts';

const clampGray = (gray: number) => (gray <= 0 ? 0 : gray >= 255 ? 255 : Math.round(gray));

/** Gray of a modality value through the first window (DICOM PS3.3 C.11.2.1.2.1, linear). */
function windowed(modality: number, center: number, width: number): number {
  if (width <= 1) return modality < center - 0.5 ? 0 : 255;
  return ((modality - (center - 0.5)) / (width - 1) + 0.5) * 255;
}

/** Gray of a modality value through a VOI LUT: values outside its range take its end entries. */
function throughVoiLut(modality: number, lut: NonNullable<PixelFormat['voiLut']>, top: number): number {
  const index = Math.round(modality) - lut.first;
  const entry = lut.data[index < 0 ? 0 : index >= lut.data.length ? lut.data.length - 1 : index]!;
  return (entry / top) * 255;
}

/** The table of a single-sample format: stored bit pattern (masked to Bits Stored) to gray. */
function buildGrayTable(format: PixelFormat): Uint8Array {
  const size = 2 ** Math.min(format.bitsStored, 16);
  const table = new Uint8Array(size);
  const signed = format.pixelRepresentation === 1;
  const wide = format.bitsStored > 8;
  const { palette, voiLut, window } = format;
  // Some writers declare 16-bit VOI LUT entries that only reach 4095: scale by what is there.
  const voiTop = voiLut ? voiLut.data.reduce((top, entry) => Math.max(top, entry), 2 ** voiLut.bits - 1) || 1 : 1;
  for (let stored = 0; stored < size; stored++) {
    // Two's complement values wrap to the top half of the table.
    const value = signed && stored >= size / 2 ? stored - size : stored;
    let gray: number;
    if (palette) {
      const index = value - palette.first;
      gray = palette.gray[index < 0 ? 0 : index >= palette.gray.length ? palette.gray.length - 1 : index]!;
    } else if (!wide) {
      gray = signed ? value + 128 : value;
    } else {
      const modality = value * format.rescaleSlope + format.rescaleIntercept;
      if (window && window.width >= 1) gray = windowed(modality, window.center, window.width);
      else if (voiLut && voiLut.data.length > 0) gray = throughVoiLut(modality, voiLut, voiTop);
      else gray = (value + (signed ? size / 2 : 0)) / 2 ** (format.bitsStored - 8);
    }
    gray = clampGray(gray);
    table[stored] = format.photometric === 'MONOCHROME1' ? 255 - gray : gray;
  }
  return table;
}

const tables = new WeakMap<PixelFormat, Uint8Array>();

/** The table of a format, built once per format object (per job in a worker). */
export function grayTable(format: PixelFormat): Uint8Array {
  let table = tables.get(format);
  if (!table) {
    table = buildGrayTable(format);
    tables.set(format, table);
  }
  return table;
}

/** Whether the table leaves 8-bit values as they are (plain MONOCHROME2): the frame is copied. */
function isIdentity(format: PixelFormat): boolean {
  return format.bitsStored === 8 && format.photometric === 'MONOCHROME2' && format.pixelRepresentation === 0;
}

/** Whether colour samples are R, G, B (else the first is luma: YBR as stored). */
function isRgb(format: PixelFormat, samples: DecodedSamples): boolean {
  return samples.rgb || format.photometric === 'RGB' || format.photometric === 'YBR_RCT' || format.photometric === 'YBR_ICT';
}

/** One frame's decoded samples into `out` (rows x columns gray bytes). */
export function samplesToGray(format: PixelFormat, samples: DecodedSamples, out: Uint8Array): void {
  const pixels = out.length;
  const data = samples.data;
  if (samples.components === 1) {
    if (data.length < pixels) throw new Error(`a frame decodes to ${data.length} samples where ${pixels} were expected`);
    if (isIdentity(format) && !(data instanceof Uint16Array || data instanceof Int16Array)) {
      out.set(data.subarray(0, pixels) as Uint8Array);
      return;
    }
    const table = grayTable(format);
    const mask = table.length - 1;
    for (let i = 0; i < pixels; i++) out[i] = table[data[i]! & mask]!;
    return;
  }
  if (data.length < pixels * samples.components) {
    throw new Error(`a frame decodes to ${data.length} samples where ${pixels * samples.components} were expected`);
  }
  // Colour wider than 8 bits keeps its top 8 bits.
  const shift = Math.max(0, samples.bitsPerSample - 8);
  const step = samples.planar ? 1 : samples.components;
  const plane = samples.planar ? pixels : 1;
  if (isRgb(format, samples)) {
    for (let i = 0, j = 0; i < pixels; i++, j += step) out[i] = rgbToGray(data[j]! >> shift, data[j + plane]! >> shift, data[j + 2 * plane]! >> shift);
  } else {
    for (let i = 0, j = 0; i < pixels; i++, j += step) out[i] = data[j]! >> shift;
  }
}

/**
 * 12-bit JPEG extended (process 4) frames, which the 8-bit libjpeg-turbo build cannot decode.
 *
 * Chosen: the JpegImage decoder @cornerstonejs/dicom-image-loader ships (codecs/jpeg.js, pdf.js's
 * DCT decoder extended to 12-bit precision with 16-bit output), which Cornerstone3D and OHIF decode
 * DICOM 1.2.840.10008.1.2.4.51 with; released with Cornerstone3D, kept up to date. Evaluated and
 * set aside: pdfjs-dist's own JpegImage clamps every sample to 8 bits (12-bit precision is lost),
 * and dcmjs-codecs has no JPEG extended codec at all (its WASM carries baseline and lossless only)
 * and calls itself "not for production or clinical purposes". The file is not in the package's
 * exports map, so it is imported by its path next to the package's entry point.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { codecErrorText } from './emscripten-decoder.ts';
import type { CodecAdapter, DecodedSamples } from '../../../domain/pixels/decoded-samples.ts';
import { once } from './wasm-module.ts';

interface JpegImage {
  parse(data: Uint8Array): void;
  width: number;
  height: number;
  /** bitConversion is 255 / (2 ** precision - 1). */
  components: { bitConversion: number }[];
  colorTransform: boolean;
  getData16(width: number, height: number): Uint16Array;
}

let JpegImageClass: (new () => JpegImage) | null = null;

const load = once(async () => {
  const entry = createRequire(import.meta.url).resolve('@cornerstonejs/dicom-image-loader');
  const file = path.join(path.dirname(entry), 'codecs', 'jpeg.js');
  JpegImageClass = ((await import(pathToFileURL(file).href)) as { default: new () => JpegImage }).default;
});

/**
 * This decoder adds its 8-bit level shift and rounding constant (2056 sixteenths) scaled by the
 * precision, so 12-bit samples come out 15 too high (measured against dcmdjpeg: exactly that,
 * within IDCT rounding). Taking it off again leaves the top 15 values of the range clamped to 4080.
 */
function removeLevelShiftBias(data: Uint16Array, bitConversion: number): void {
  const top = 255 / bitConversion;
  const bias = Math.round(2056 / bitConversion / 16 - (top + 1) / 2 - 0.5);
  if (bias <= 0) return;
  for (let i = 0; i < data.length; i++) data[i] = data[i]! > bias ? data[i]! - bias : 0;
}

export const jpeg12Bit: CodecAdapter = {
  library: 'JpegImage 12-bit (@cornerstonejs/dicom-image-loader)',
  init: load,
  decode(frame): DecodedSamples {
    if (!JpegImageClass) throw new Error('the 12-bit JPEG decoder is not loaded (init() first)');
    const image = new JpegImageClass();
    let data: Uint16Array;
    try {
      image.parse(frame);
      image.colorTransform = false;
      data = image.getData16(image.width, image.height);
    } catch (error) {
      throw new Error(`the 12-bit JPEG frame cannot be decoded (${codecErrorText(error)})`, { cause: error });
    }
    removeLevelShiftBias(data, image.components[0]!.bitConversion);
    return { width: image.width, height: image.height, components: 1, bitsPerSample: 12, planar: false, rgb: false, data };
  },
};

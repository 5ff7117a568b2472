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
import type { CodecAdapter } from '../../../domain/pixels/decoded-samples.ts';
import { jpeg12BitCodec, type JpegImage } from '../../../domain/pixels/jpeg-12bit-codec.ts';

export const jpeg12Bit: CodecAdapter = jpeg12BitCodec(async () => {
  const entry = createRequire(import.meta.url).resolve('@cornerstonejs/dicom-image-loader');
  const file = path.join(path.dirname(entry), 'codecs', 'jpeg.js');
  return ((await import(pathToFileURL(file).href)) as { default: new () => JpegImage }).default;
});

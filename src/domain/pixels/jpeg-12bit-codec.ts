/**
 * 12-bit JPEG extended frames (angiography runs), which the 8-bit libjpeg-turbo build cannot
 * decode: the JpegImage decoder of @cornerstonejs/dicom-image-loader, one adapter for the server
 * and the page (server/dicom/codecs/jpeg-12bit.ts says why this decoder); the class is loaded by
 * the caller (from node_modules on the server, as a bundled module in the page).
 */
import type { CodecAdapter, DecodedSamples } from './decoded-samples.ts';
import { codecErrorText, once } from './emscripten-codec.ts';

export interface JpegImage {
  parse(data: Uint8Array): void;
  width: number;
  height: number;
  /** bitConversion is 255 / (2 ** precision - 1). */
  components: { bitConversion: number }[];
  colorTransform: boolean;
  getData16(width: number, height: number): Uint16Array;
}

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

export function jpeg12BitCodec(load: () => Promise<new () => JpegImage>): CodecAdapter {
  let JpegImageClass: (new () => JpegImage) | null = null;
  return {
    library: 'JpegImage 12-bit (@cornerstonejs/dicom-image-loader)',
    init: once(async () => {
      JpegImageClass = await load();
    }),
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
}

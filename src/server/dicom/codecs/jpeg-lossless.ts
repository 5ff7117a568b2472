/**
 * JPEG lossless frames (process 14, any predictor, and its SV1 form): Cornerstone's maintained fork
 * of jpeg-lossless-decoder-js. The original package (2.1.2) drops the last pixel of a frame whose
 * entropy-coded data ends without a fill byte (as dcmcjpeg writes every other RGB frame).
 */
import { Decoder } from '@cornerstonejs/jpeg-lossless-decoder-js';
import { codecErrorText } from './emscripten-decoder.ts';
import type { CodecAdapter, DecodedSamples } from '../../../domain/pixels/decoded-samples.ts';

export const jpegLossless: CodecAdapter = {
  library: 'jpeg-lossless-decoder-js (@cornerstonejs fork)',
  // Plain JavaScript: nothing to load.
  init: async () => {},
  decode(frame): DecodedSamples {
    // A new decoder per frame: one keeps the sample size of the first frame it decoded.
    const decoder = new Decoder();
    let data: Uint8Array | Uint16Array;
    try {
      data = decoder.decode(frame.buffer as ArrayBuffer, frame.byteOffset, frame.byteLength);
    } catch (error) {
      throw new Error(`the JPEG lossless frame cannot be decoded (${codecErrorText(error)})`, { cause: error });
    }
    return { width: decoder.xDim, height: decoder.yDim, components: decoder.numComp, bitsPerSample: decoder.precision ?? 8, planar: false, rgb: false, data };
  },
};

/** JPEG baseline and 8-bit extended frames: libjpeg-turbo (8-bit build) in WASM. */
import { emscriptenAdapter } from './emscripten-decoder.ts';

export const libjpegTurbo = emscriptenAdapter({
  library: 'libjpeg-turbo (@cornerstonejs/codec-libjpeg-turbo-8bit)',
  pkg: '@cornerstonejs/codec-libjpeg-turbo-8bit',
  js: 'decodewasmjs',
  wasm: 'decodewasm',
  decoderClass: 'JPEGDecoder',
  // Colour comes out as RGB whatever the JPEG stored (YCbCr for YBR_FULL_422).
  outputsRgb: true,
});

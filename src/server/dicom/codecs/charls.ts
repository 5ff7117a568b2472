/** JPEG-LS lossless and near-lossless frames: CharLS in WASM. */
import { emscriptenAdapter } from './emscripten-decoder.ts';

export const charls = emscriptenAdapter({
  library: 'CharLS (@cornerstonejs/codec-charls)',
  pkg: '@cornerstonejs/codec-charls',
  js: 'decodewasmjs',
  wasm: 'decodewasm',
  decoderClass: 'JpegLSDecoder',
  outputsRgb: false,
});

/** JPEG 2000 frames: OpenJPEG in WASM. Its multi-component transform gives RGB for YBR_RCT/ICT. */
import { emscriptenAdapter } from './emscripten-decoder.ts';

export const openjpeg = emscriptenAdapter({
  library: 'OpenJPEG (@cornerstonejs/codec-openjpeg)',
  pkg: '@cornerstonejs/codec-openjpeg',
  js: 'decodewasmjs',
  wasm: 'decodewasm',
  decoderClass: 'J2KDecoder',
  outputsRgb: true,
});

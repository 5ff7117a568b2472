/** HTJ2K frames: OpenJPH in WASM (one build holds the decoder and the encoder the tests use). */
import { emscriptenAdapter } from './emscripten-decoder.ts';

export const openjph = emscriptenAdapter({
  library: 'OpenJPH (@cornerstonejs/codec-openjph)',
  pkg: '@cornerstonejs/codec-openjph',
  js: 'wasmjs',
  wasm: 'wasm',
  decoderClass: 'HTJ2KDecoder',
  outputsRgb: true,
});

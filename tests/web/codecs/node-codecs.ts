/**
 * The page's codec registry with its libraries loaded as Node loads them (the .wasm read from
 * node_modules instead of fetched): the same glue, the same adapters, the same pixels.
 */
import { createCodecRegistry, type CodecRegistry, type LosslessDecoder } from '../../../src/web/codecs/codec-registry.ts';
import type { EmscriptenModule } from '../../../src/web/codecs/emscripten-codec.ts';
import { loadWasmModule } from '../../../src/server/dicom/codecs/wasm-module.ts';

export function createNodeCodecs(): CodecRegistry {
  return createCodecRegistry({
    libjpegTurbo: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-libjpeg-turbo-8bit', 'decodewasmjs', 'decodewasm'),
    charls: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-charls', 'decodewasmjs', 'decodewasm'),
    openjpeg: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-openjpeg', 'decodewasmjs', 'decodewasm'),
    openjph: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-openjph', 'wasmjs', 'wasm'),
    jpegLossless: async () => (await import('@cornerstonejs/jpeg-lossless-decoder-js')).Decoder as unknown as new () => LosslessDecoder,
  });
}

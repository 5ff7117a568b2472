/**
 * The page's codec registry with its libraries loaded as Node loads them (the .wasm read from
 * node_modules instead of fetched): the same glue, the same adapters, the same pixels.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCodecRegistry, type CodecRegistry, type LosslessDecoder } from '../../../src/web/codecs/codec-registry.ts';
import type { EmscriptenModule } from '../../../src/domain/pixels/emscripten-codec.ts';
import { loadWasmModule } from '../../../src/server/dicom/codecs/wasm-module.ts';
import type { JpegImage } from '../../../src/domain/pixels/jpeg-12bit-codec.ts';

const require = createRequire(import.meta.url);

export function createNodeCodecs(): CodecRegistry {
  return createCodecRegistry({
    libjpegTurbo: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-libjpeg-turbo-8bit', 'decodewasmjs', 'decodewasm'),
    charls: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-charls', 'decodewasmjs', 'decodewasm'),
    openjpeg: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-openjpeg', 'decodewasmjs', 'decodewasm'),
    openjph: () => loadWasmModule<EmscriptenModule>('@cornerstonejs/codec-openjph', 'wasmjs', 'wasm'),
    jpegLossless: async () => (await import('@cornerstonejs/jpeg-lossless-decoder-js')).Decoder as unknown as new () => LosslessDecoder,
    jpeg12Bit: async () => {
      const file = path.join(path.dirname(require.resolve('@cornerstonejs/dicom-image-loader')), 'codecs', 'jpeg.js');
      return ((await import(pathToFileURL(file).href)) as { default: new () => JpegImage }).default;
    },
  });
}

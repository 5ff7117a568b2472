/**
 * The codec libraries as the page loads them, in a decode worker: each library's JavaScript is
 * its own chunk and its .wasm a Vite asset on our origin, both fetched the first time a pack of
 * that encoding arrives (a record of JPEG frames never downloads OpenJPEG). The module is then
 * instantiated from the fetched bytes, as the server instantiates it from the file's
 * (CSP: script-src 'wasm-unsafe-eval', server/http/security-headers.ts).
 */
import charlsWasm from '@cornerstonejs/codec-charls/decodewasm?url';
import libjpegTurboWasm from '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasm?url';
import openjpegWasm from '@cornerstonejs/codec-openjpeg/decodewasm?url';
import openjphWasm from '@cornerstonejs/codec-openjph/wasm?url';
import { createCodecRegistry, type CodecRegistry, type LosslessDecoder } from './codec-registry.ts';
import type { EmscriptenModule } from '../../domain/pixels/emscripten-codec.ts';
import type { JpegImage } from '../../domain/pixels/jpeg-12bit-codec.ts';

type Factory = (options: Record<string, unknown>) => Promise<unknown>;

async function wasmBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the codec ${url} could not be fetched (HTTP ${response.status})`);
  return response.arrayBuffer();
}

async function instantiate(glue: Promise<{ default: Factory }>, wasmUrl: string): Promise<EmscriptenModule> {
  const [{ default: factory }, wasmBinary] = await Promise.all([glue, wasmBytes(wasmUrl)]);
  // OpenJPEG prints every header it reads: the page's console stays quiet.
  const quiet = () => {};
  return (await factory({ wasmBinary, print: quiet, printErr: quiet })) as EmscriptenModule;
}

export function createBrowserCodecs(): CodecRegistry {
  return createCodecRegistry({
    libjpegTurbo: () => instantiate(import('@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs'), libjpegTurboWasm),
    charls: () => instantiate(import('@cornerstonejs/codec-charls/decodewasmjs'), charlsWasm),
    openjpeg: () => instantiate(import('@cornerstonejs/codec-openjpeg/decodewasmjs'), openjpegWasm),
    openjph: () => instantiate(import('@cornerstonejs/codec-openjph/wasmjs'), openjphWasm),
    jpegLossless: async () => (await import('@cornerstonejs/jpeg-lossless-decoder-js')).Decoder as unknown as new () => LosslessDecoder,
    // Not in the package's exports map (the server imports it by its path too): by its file.
    jpeg12Bit: async () => (await import('../../../node_modules/@cornerstonejs/dicom-image-loader/dist/esm/codecs/jpeg.js')).default as unknown as new () => JpegImage,
  });
}

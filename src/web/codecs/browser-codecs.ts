/**
 * The codec libraries as the page loads them, in a decode worker: each library's JavaScript is
 * its own chunk and its .wasm a Vite asset on our origin (codec-wasm.ts), both fetched the first
 * time a pack of that encoding arrives or the pool warms it (a record of JPEG frames never
 * downloads OpenJPEG). The module is instantiated from the WASM the pool compiled and handed over
 * (`expectCompiled`, `provideCompiled`), else from this worker's own streaming compile.
 */
import { createCodecRegistry, type CodecRegistry, type LosslessDecoder } from './codec-registry.ts';
import { CODEC_WASM, compileWasm } from './codec-wasm.ts';
import type { EmscriptenModule } from '../../domain/pixels/emscripten-codec.ts';
import type { JpegImage } from '../../domain/pixels/jpeg-12bit-codec.ts';

type Factory = (options: Record<string, unknown>) => Promise<unknown>;
type ReceiveInstance = (instance: WebAssembly.Instance, module: WebAssembly.Module) => void;

/** The compiled .wasm the page is sending this worker, by URL (null: the page could not compile it). */
const fromPage = new Map<string, Promise<WebAssembly.Module | null>>();
const arrivals = new Map<string, (module: WebAssembly.Module | null) => void>();

/** The page said it compiles this .wasm: the codec waits for it instead of fetching its own. */
export function expectCompiled(url: string): void {
  if (fromPage.has(url)) return;
  fromPage.set(url, new Promise((resolve) => arrivals.set(url, resolve)));
}

export function provideCompiled(url: string, module: WebAssembly.Module | null): void {
  expectCompiled(url);
  arrivals.get(url)?.(module);
}

async function compiledWasm(url: string): Promise<WebAssembly.Module> {
  return (await fromPage.get(url)) ?? compileWasm(url);
}

async function instantiate(glue: Promise<{ default: Factory }>, wasmUrl: string): Promise<EmscriptenModule> {
  const [{ default: factory }, module] = await Promise.all([glue, compiledWasm(wasmUrl)]);
  // The glue's hook gives no way to fail: a failed instantiation rejects beside it.
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // OpenJPEG prints every header it reads: the page's console stays quiet.
  const quiet = () => {};
  const instantiateWasm = (imports: WebAssembly.Imports, receive: ReceiveInstance) => {
    WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), fail);
    return {};
  };
  try {
    return (await Promise.race([factory({ instantiateWasm, print: quiet, printErr: quiet }), failed])) as EmscriptenModule;
  } catch (error) {
    // The next pack compiles its own.
    fromPage.set(wasmUrl, Promise.resolve(null));
    throw error;
  }
}

export function createBrowserCodecs(): CodecRegistry {
  return createCodecRegistry({
    libjpegTurbo: () => instantiate(import('@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs'), CODEC_WASM.libjpegTurbo),
    charls: () => instantiate(import('@cornerstonejs/codec-charls/decodewasmjs'), CODEC_WASM.charls),
    openjpeg: () => instantiate(import('@cornerstonejs/codec-openjpeg/decodewasmjs'), CODEC_WASM.openjpeg),
    openjph: () => instantiate(import('@cornerstonejs/codec-openjph/wasmjs'), CODEC_WASM.openjph),
    jpegLossless: async () => (await import('@cornerstonejs/jpeg-lossless-decoder-js')).Decoder as unknown as new () => LosslessDecoder,
    // Not in the package's exports map (the server imports it by its path too): by its file.
    jpeg12Bit: async () => (await import('../../../node_modules/@cornerstonejs/dicom-image-loader/dist/esm/codecs/jpeg.js')).default as unknown as new () => JpegImage,
  });
}

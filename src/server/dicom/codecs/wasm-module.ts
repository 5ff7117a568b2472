/**
 * Loads an Emscripten-built codec (the @cornerstonejs WASM builds) from its files in node_modules:
 * the .wasm bytes are read from disk and handed over, so nothing is fetched, and the library's
 * own logging (OpenJPEG prints every header it reads) is silenced.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Factory = (options: Record<string, unknown>) => Promise<unknown>;

/** Instantiates `pkg`'s JS glue (`js`, a package export) with the bytes of its WASM (`wasm`, an export). */
export async function loadWasmModule<Module>(pkg: string, js: string, wasm: string): Promise<Module> {
  const loaded = require(`${pkg}/${js}`) as Factory | { default: Factory };
  const factory = typeof loaded === 'function' ? loaded : loaded.default;
  const wasmBinary = fs.readFileSync(require.resolve(`${pkg}/${wasm}`));
  const quiet = () => {};
  return (await factory({ wasmBinary, print: quiet, printErr: quiet })) as Module;
}

export { once } from '../../../domain/pixels/emscripten-codec.ts';

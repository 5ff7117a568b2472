/**
 * The WASM of the page's codec libraries: which .wasm a pack codec needs, and compiling it. Each
 * .wasm is a Vite asset on our origin (CSP: script-src 'wasm-unsafe-eval',
 * server/http/security-headers.ts), compiled as it downloads. With several decode workers the
 * page compiles it once and hands the compiled module to each (decode-pool.ts), so a record's
 * codec crosses the network once, not once a worker, while its first chunk downloads.
 */
import charlsWasm from '@cornerstonejs/codec-charls/decodewasm?url';
import libjpegTurboWasm from '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasm?url';
import openjpegWasm from '@cornerstonejs/codec-openjpeg/decodewasm?url';
import openjphWasm from '@cornerstonejs/codec-openjph/wasm?url';
import type { PackCodec } from '../../domain/images.ts';
import { wasmLibraryOf, type WasmLibrary } from './codec-registry.ts';

export const CODEC_WASM: Record<WasmLibrary, string> = { libjpegTurbo: libjpegTurboWasm, charls: charlsWasm, openjpeg: openjpegWasm, openjph: openjphWasm };

/** The .wasm a codec's library needs (null: it has none, see wasmLibraryOf). */
export function wasmUrlOf(codec: PackCodec): string | null {
  const library = wasmLibraryOf(codec);
  return library ? CODEC_WASM[library] : null;
}

/** Fetches and compiles a .wasm, compiling while it downloads (the whole file first where the answer is not application/wasm). */
export async function compileWasm(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the codec ${url} could not be fetched (HTTP ${response.status})`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A pack codec's compiled WASM (null when its library has none). */
export async function compilePackCodec(codec: PackCodec): Promise<WebAssembly.Module | null> {
  const url = wasmUrlOf(codec);
  return url ? compileWasm(url) : null;
}

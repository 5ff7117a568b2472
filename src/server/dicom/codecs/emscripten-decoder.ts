/**
 * The server's @cornerstonejs WASM decoders: the shared adapter (domain/pixels/emscripten-codec.ts)
 * with the module loaded from node_modules.
 */
import type { CodecAdapter } from '../../../domain/pixels/decoded-samples.ts';
import { emscriptenCodec, type EmscriptenCodecSpec as DecoderSpec, type EmscriptenModule } from '../../../domain/pixels/emscripten-codec.ts';
import { loadWasmModule } from './wasm-module.ts';

export { codecErrorText } from '../../../domain/pixels/emscripten-codec.ts';

export interface EmscriptenCodecSpec extends DecoderSpec {
  readonly pkg: string;
  readonly js: string;
  readonly wasm: string;
}

export function emscriptenAdapter(spec: EmscriptenCodecSpec): CodecAdapter {
  return emscriptenCodec(spec, () => loadWasmModule<EmscriptenModule>(spec.pkg, spec.js, spec.wasm));
}

/**
 * The decoder classes of the @cornerstonejs WASM codecs share one calling convention: copy the
 * frame into the codec's input buffer, decode, read the frame info and the output buffer. This
 * turns such a class into a CodecAdapter, keeping one decoder instance per thread.
 */
import { sixteenBit, type CodecAdapter, type DecodedSamples } from '../../../domain/pixels/decoded-samples.ts';
import { loadWasmModule, once } from './wasm-module.ts';

export interface EmscriptenDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned?: boolean };
  getDecodedBuffer(): Uint8Array;
  /** CharLS only: 0 means one plane per component. */
  getInterleaveMode?(): number;
}

export interface EmscriptenCodecSpec {
  readonly library: string;
  readonly pkg: string;
  readonly js: string;
  readonly wasm: string;
  /** The decoder class's name in the module. */
  readonly decoderClass: string;
  /** The library converts 3-component YCbCr to RGB. */
  readonly outputsRgb: boolean;
}

/** An Emscripten exception may be a pointer, a string or an Error: a readable message. */
export function codecErrorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'number' ? `the codec failed (code ${error})` : String(error);
}

export function emscriptenAdapter(spec: EmscriptenCodecSpec): CodecAdapter {
  let decoder: EmscriptenDecoder | null = null;
  const load = once(async () => {
    const module = await loadWasmModule<Record<string, new () => EmscriptenDecoder>>(spec.pkg, spec.js, spec.wasm);
    decoder = new module[spec.decoderClass]!();
  });
  return {
    library: spec.library,
    init: load,
    decode(frame): DecodedSamples {
      if (!decoder) throw new Error(`${spec.library} is not loaded (init() first)`);
      decoder.getEncodedBuffer(frame.length).set(frame);
      try {
        decoder.decode();
      } catch (error) {
        throw new Error(`${spec.library} cannot decode the frame (${codecErrorText(error)})`, { cause: error });
      }
      const info = decoder.getFrameInfo();
      const bytes = decoder.getDecodedBuffer();
      const wide = info.bitsPerSample > 8;
      return {
        width: info.width,
        height: info.height,
        components: info.componentCount,
        bitsPerSample: info.bitsPerSample,
        planar: info.componentCount > 1 && decoder.getInterleaveMode?.() === 0,
        rgb: spec.outputsRgb && info.componentCount === 3,
        data: wide ? sixteenBit(bytes, info.isSigned === true) : bytes,
      };
    },
  };
}

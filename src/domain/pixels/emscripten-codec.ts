/**
 * The adapter for the @cornerstonejs WASM decoders, one for the server and the page: their decoder
 * classes share one calling convention (copy the frame into the codec's input buffer, decode, read
 * the frame info and the output buffer), read here the same way in both places, so a frame decodes
 * to the same samples wherever it is decoded. Only the loading differs and is handed in (the .wasm
 * read from node_modules on the server, fetched from our origin in the page), once, the first time
 * a frame needs it. One decoder instance per thread.
 */
import { sixteenBit, type CodecAdapter, type DecodedSamples } from './decoded-samples.ts';

export interface EmscriptenDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned?: boolean };
  getDecodedBuffer(): Uint8Array;
  /** CharLS only: 0 means one plane per component. */
  getInterleaveMode?(): number;
}

export type EmscriptenModule = Record<string, new () => EmscriptenDecoder>;

export interface EmscriptenCodecSpec {
  readonly library: string;
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

/** Runs `load` once; later calls share its promise (a failed load is tried again). */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

export function emscriptenCodec(spec: EmscriptenCodecSpec, loadModule: () => Promise<EmscriptenModule>): CodecAdapter {
  let decoder: EmscriptenDecoder | null = null;
  const load = once(async () => {
    const module = await loadModule();
    const Decoder = module[spec.decoderClass];
    if (!Decoder) throw new Error(`${spec.library} has no ${spec.decoderClass}`);
    decoder = new Decoder();
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

/**
 * Frame packs made in Node from 8-bit gray frames, for the e2e spec and the frame decode bench:
 * JPEG baseline (libjpeg-turbo's encoder) and JPEG-LS lossless (CharLS's), both from the full
 * @cornerstonejs WASM builds whose decode halves the page and the server use; and the gray the
 * server's own registry decodes a pack to, which the page must show exactly.
 */
import { buildFramePack } from '../../src/domain/pixels/frame-pack.ts';
import { grayFormat as grayFormatOf, type PixelEncoding, type PixelFormat } from '../../src/domain/pixels/pixel-format.ts';
import { loadWasmModule } from '../../src/server/dicom/codecs/wasm-module.ts';
import { decodePack } from './frame-chunks.ts';

interface Encoder {
  getDecodedBuffer(info: Record<string, unknown>): Uint8Array;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
  setQuality?(quality: number): void;
}

type EncoderModule = Record<string, new () => Encoder>;
let jpegModule: Promise<EncoderModule> | null = null;
let charlsModule: Promise<EncoderModule> | null = null;

/** 8-bit MONOCHROME2 frames of a given encoding: what an IVUS console's gray frames are. */
export function grayFormat(encoding: PixelEncoding, width: number, height: number): PixelFormat {
  return grayFormatOf(encoding, height, width);
}

function encodeWith(Encoder: new () => Encoder, frame: Uint8Array, width: number, height: number, quality?: number): Uint8Array {
  const encoder = new Encoder();
  encoder.getDecodedBuffer({ width, height, bitsPerSample: 8, componentCount: 1, isSigned: false }).set(frame);
  if (quality !== undefined) encoder.setQuality?.(quality);
  encoder.encode();
  return encoder.getEncodedBuffer().slice();
}

/** A chunk's gray bytes (frames one after another) as a pack of `encoding` frames. */
export async function packGrayChunk(encoding: 'jpeg' | 'jpeg-ls', chunk: Uint8Array, width: number, height: number, jpegQuality = 90): Promise<Uint8Array> {
  const size = width * height;
  const frames = Array.from({ length: chunk.length / size }, (_, k) => chunk.subarray(k * size, (k + 1) * size));
  let encode: (frame: Uint8Array) => Uint8Array;
  if (encoding === 'jpeg') {
    jpegModule ??= loadWasmModule('@cornerstonejs/codec-libjpeg-turbo-8bit', 'wasmjs', 'wasm');
    const { JPEGEncoder } = await jpegModule;
    encode = (frame) => encodeWith(JPEGEncoder!, frame, width, height, jpegQuality);
  } else {
    charlsModule ??= loadWasmModule('@cornerstonejs/codec-charls', 'wasmjs', 'wasm');
    const { JpegLSEncoder } = await charlsModule;
    encode = (frame) => encodeWith(JpegLSEncoder!, frame, width, height);
  }
  return buildFramePack(grayFormat(encoding, width, height), frames.map(encode));
}

/** The gray the server's registry decodes a pack to (what the page must show), frames one after another. */
export async function serverGrayOfPack(pack: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(Buffer.concat(await decodePack(pack)));
}

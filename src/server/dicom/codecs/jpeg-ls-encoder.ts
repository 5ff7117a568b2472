/**
 * The lossless encoding of 8-bit gray frames that the page decodes (issue 27): demo frames and
 * frames whose source the page could not decode as they are (uncompressed, 12-bit JPEG) are
 * stored and sent as JPEG-LS lossless, CharLS's encoder (the same library's decoder is charls.ts).
 *
 * Chosen over HTJ2K lossless (OpenJPH) by measurement on 512x512 demo frames in Node: JPEG-LS
 * 109 KB a B-mode frame (0.70x gzip level 1), HTJ2K 119 KB (0.77x); encode 3.5 ms against
 * 4.0 ms, decode 3.3 ms against 2.0 ms. Bytes on the wire are what the issue is about, and both
 * decode far inside a frame period, so the smaller one.
 */
import { predictionPays, temporalResidual } from '../../../domain/pixels/frame-prediction.ts';
import { grayFormat, type PixelFormat } from '../../../domain/pixels/pixel-format.ts';
import { loadWasmModule, once } from './wasm-module.ts';

interface JpegLSEncoder {
  getDecodedBuffer(info: { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned: boolean }): Uint8Array;
  setNearLossless(near: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
}

let encoder: JpegLSEncoder | null = null;

/** Loads CharLS's encoder once per thread (a no-op afterwards). */
export const initGrayEncoder = once(async () => {
  const module = await loadWasmModule<{ JpegLSEncoder: new () => JpegLSEncoder }>('@cornerstonejs/codec-charls', 'wasmjs', 'wasm');
  // One encoder per thread, kept: its WASM buffers are reused frame after frame.
  encoder = new module.JpegLSEncoder();
});

/** The pixel format of frames encodeGray made: plain 8-bit MONOCHROME2, so their decode is the gray itself. */
export function grayLosslessFormat(rows: number, columns: number): PixelFormat {
  return grayFormat('jpeg-ls', rows, columns);
}

/** One gray frame (rows x columns bytes) as a JPEG-LS lossless bitstream (a copy the caller owns). */
export function encodeGray(gray: Uint8Array, rows: number, columns: number): Uint8Array {
  if (!encoder) throw new Error('the JPEG-LS encoder is not loaded (initGrayEncoder() first)');
  if (gray.length !== rows * columns) throw new RangeError(`a ${columns}x${rows} gray frame holds ${rows * columns} bytes, not ${gray.length}`);
  encoder.getDecodedBuffer({ width: columns, height: rows, bitsPerSample: 8, componentCount: 1, isSigned: false }).set(gray);
  encoder.setNearLossless(0);
  encoder.encode();
  return encoder.getEncodedBuffer().slice();
}

/** A chunk's frames encoded for its frame pack: each frame's bitstream, and which of them are residuals after the frame before. */
export interface EncodedGrayFrames {
  readonly frames: Uint8Array[];
  /** predict[k]: frame k was encoded as its temporal residual after frame k - 1 (domain/pixels/frame-prediction.ts). */
  readonly predict: boolean[];
}

/**
 * Frames (concatenated gray, each rows x columns) each encoded with encodeGray, alone or, where a
 * cheap estimate says it codes smaller, as its residual after the frame before (the first frame is
 * always alone: a pack is decoded as a whole). Non-neighbours (gated, shuffled, stitched) stay alone.
 */
export function encodeGrayFrames(frames: Uint8Array, rows: number, columns: number): EncodedGrayFrames {
  const frameBytes = rows * columns;
  const encoded: Uint8Array[] = [];
  const predict: boolean[] = [];
  const residual = new Uint8Array(frameBytes);
  for (let at = 0; at < frames.length; at += frameBytes) {
    const frame = frames.subarray(at, at + frameBytes);
    const previous = at > 0 ? frames.subarray(at - frameBytes, at) : null;
    const predicted = previous !== null && frame.length === frameBytes && predictionPays(frame, previous, rows, columns);
    if (predicted) temporalResidual(frame, previous, residual);
    encoded.push(encodeGray(predicted ? residual : frame, rows, columns));
    predict.push(predicted);
  }
  return { frames: encoded, predict };
}

/**
 * Worker thread body for decode-pool.ts: decodes frame runs of uploaded DICOM files (and gzips
 * them), so decoding never blocks the event loop. Each codec's WASM is loaded on the first job
 * that needs it and kept for the thread's life.
 */
import { parentPort } from 'node:worker_threads';
import { initCodecFor } from '../dicom/codecs/registry.ts';
import { initGrayEncoder } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { pageDecodesAsStored } from '../dicom/page-decodable.ts';
import { decodeRange, type DecodeJob } from './decode-range.ts';
import { FrameDecodeError } from '../dicom/frame-decode.ts';

export type DecodeRequest = { readonly id: number; readonly job: DecodeJob };
export type DecodeResponse =
  | { readonly id: number; readonly pixels: Uint8Array; readonly gzipped: Uint8Array | null; readonly pack: Uint8Array | null }
  | { readonly id: number; readonly error: { readonly code: 'decode_failed' | 'inconsistent_frames'; readonly message: string } };

parentPort?.on('message', async ({ id, job }: DecodeRequest) => {
  try {
    await initCodecFor(job.format);
    if (job.pack && !pageDecodesAsStored(job.format)) await initGrayEncoder();
    const { pixels, gzipped, pack } = decodeRange(job);
    const transfer = [pixels, gzipped, pack].filter((bytes) => bytes !== null).map((bytes) => bytes.buffer);
    parentPort?.postMessage({ id, pixels, gzipped, pack } satisfies DecodeResponse, transfer as ArrayBuffer[]);
  } catch (error) {
    const code = error instanceof FrameDecodeError ? error.code : 'decode_failed';
    parentPort?.postMessage({ id, error: { code, message: error instanceof Error ? error.message : String(error) } } satisfies DecodeResponse);
  }
});

/**
 * Decoding of uploaded frames: in a small pool of worker threads, or on the main thread (between
 * awaits) when the server runs without imaging workers (tests). Jobs queue when every worker is
 * busy; results come back as transferred buffers.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { initCodecFor } from '../dicom/codecs/registry.ts';
import { initGrayEncoder } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { pageDecodesAsStored } from '../dicom/page-decodable.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { decodeRange, type DecodedFrames, type DecodeJob } from './decode-range.ts';
import type { DecodeRequest, DecodeResponse } from './decode-worker.ts';
import { FrameDecodeError } from '../dicom/frame-decode.ts';

export interface FrameDecoder {
  /** How many jobs are worth keeping in flight. */
  readonly parallelism: number;
  decode(job: DecodeJob): Promise<DecodedFrames>;
  close(): Promise<void>;
}

/** Decodes on the calling thread; each job yields to the event loop first (and loads its codec once). */
export function createInlineDecoder(): FrameDecoder {
  return {
    parallelism: 1,
    async decode(job) {
      await yieldToEventLoop();
      await initCodecFor(job.format);
      if (job.pack && !pageDecodesAsStored(job.format)) await initGrayEncoder();
      return decodeRange(job);
    },
    async close() {},
  };
}

/** Worker threads are started on the first jobs and stay until close(). */
export function createDecodePool(size: number): FrameDecoder {
  const pool = createWorkerPool<DecodeJob, DecodeResponse, DecodedFrames>({
    url: new URL('./decode-worker.ts', import.meta.url),
    size,
    lazy: true,
    name: 'decode pool',
    toMessage: (job, id) => ({ message: { id, job } satisfies DecodeRequest }),
    fromMessage: (response) =>
      'error' in response ? new FrameDecodeError(response.error.code, response.error.message) : { pixels: response.pixels, gzipped: response.gzipped, pack: response.pack },
  });
  return { parallelism: size, decode: (job) => pool.run(job), close: () => pool.close() };
}

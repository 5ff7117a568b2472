/**
 * Decoding of uploaded frames: in a small pool of worker threads, or on the main thread (between
 * awaits) when the server runs without imaging workers (tests). Jobs queue when every worker is
 * busy; results come back as transferred buffers.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { decodeRange, type DecodedFrames, type DecodeJob } from './decode-range.ts';
import type { DecodeRequest, DecodeResponse } from './decode-worker.ts';
import { FrameDecodeError } from './frame-decode.ts';

export interface FrameDecoder {
  /** How many jobs are worth keeping in flight. */
  readonly parallelism: number;
  decode(job: DecodeJob): Promise<DecodedFrames>;
  close(): Promise<void>;
}

/** Decodes on the calling thread; each job yields to the event loop first. */
export function createInlineDecoder(): FrameDecoder {
  return {
    parallelism: 1,
    async decode(job) {
      await yieldToEventLoop();
      return decodeRange(job);
    },
    async close() {},
  };
}

interface Pending {
  readonly request: DecodeRequest;
  resolve(result: DecodedFrames): void;
  reject(error: Error): void;
}

/** Worker threads are started on the first job and stay until close(). */
export function createDecodePool(size: number): FrameDecoder {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const queue: Pending[] = [];
  const running = new Map<Worker, Pending>();
  let nextId = 1;
  let closed = false;

  const dispatch = (): void => {
    while (!closed && all.size < size && queue.length > idle.length) spawn();
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      running.set(worker, pending);
      worker.postMessage(pending.request);
    }
  };

  const spawn = (): void => {
    const worker = new Worker(new URL('./decode-worker.ts', import.meta.url));
    all.add(worker);
    worker.on('message', (response: DecodeResponse) => {
      const pending = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (pending) {
        if ('error' in response) pending.reject(new FrameDecodeError(response.error.code, response.error.message));
        else pending.resolve({ pixels: response.pixels, gzipped: response.gzipped });
      }
      dispatch();
    });
    // A crashed worker fails its job and is replaced on demand.
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      dispatch();
    });
    idle.push(worker);
  };

  return {
    parallelism: size,
    decode(job) {
      if (closed) return Promise.reject(new Error('the decode pool is closed'));
      return new Promise<DecodedFrames>((resolve, reject) => {
        queue.push({ request: { id: nextId++, job }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the decode pool was closed'));
      await Promise.all([...all].map((worker) => worker.terminate()));
    },
  };
}

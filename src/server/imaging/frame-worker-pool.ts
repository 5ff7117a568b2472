/**
 * A small pool of worker threads rendering B-mode frame ranges, so generation neither blocks the
 * event loop nor leaves a core idle. Jobs queue when every worker is busy; results arrive as
 * transferred buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PullbackModelOptions } from '../../domain/imaging/pullback-model.ts';
import type { FrameJob, FrameJobResult } from './frame-worker.ts';

export interface FrameWorkerPool {
  readonly size: number;
  /** Frames start..end-1 of the model built from `options`, concatenated. */
  generate(options: PullbackModelOptions, start: number, end: number, angio?: FrameJob['angio']): Promise<Uint8Array>;
  close(): Promise<void>;
}

interface Pending {
  readonly job: FrameJob;
  resolve(frames: Uint8Array): void;
  reject(error: Error): void;
}

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  const idle: Worker[] = [];
  const queue: Pending[] = [];
  const running = new Map<Worker, Pending>();
  let nextId = 1;
  let closed = false;

  const dispatch = (): void => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      running.set(worker, pending);
      worker.postMessage(pending.job);
    }
  };

  const workers = new Set<Worker>();
  const spawn = (): void => {
    const worker = new Worker(new URL('./frame-worker.ts', import.meta.url));
    workers.add(worker);
    worker.on('message', (result: FrameJobResult) => {
      const pending = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (pending !== undefined) {
        if ('error' in result) pending.reject(new Error(result.error));
        else pending.resolve(result.frames);
      }
      dispatch();
    });
    // A crashed worker fails its job and is replaced, so queued jobs still run.
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
      workers.delete(worker);
      const idleIndex = idle.indexOf(worker);
      if (idleIndex >= 0) idle.splice(idleIndex, 1);
      if (!closed) {
        spawn();
        dispatch();
      }
    });
    idle.push(worker);
  };
  for (let k = 0; k < size; k++) spawn();

  return {
    size,
    generate(options, start, end, angio) {
      if (closed) return Promise.reject(new Error('the frame worker pool is closed'));
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ job: { id: nextId++, options, start, end, ...(angio ? { angio } : {}) }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the frame worker pool was closed'));
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}

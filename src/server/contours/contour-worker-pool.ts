/**
 * Worker threads for lumen detection, so a record's contours are computed without blocking the
 * event loop. Jobs queue when every worker is busy; any worker takes any job (the continuity state
 * travels with the job).
 */
import { Worker } from 'node:worker_threads';
import type { ContourJob, ContourJobResult } from './detect-chunk.ts';
import type { SequenceDetection } from '../../domain/contours/detect-sequence.ts';

export interface ContourWorkerPool {
  readonly size: number;
  detect(job: Omit<ContourJob, 'id'>): Promise<SequenceDetection>;
  close(): Promise<void>;
}

interface Pending {
  readonly job: ContourJob;
  resolve(result: SequenceDetection): void;
  reject(error: Error): void;
}

export function createContourWorkerPool(size: number): ContourWorkerPool {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('a contour worker pool needs at least one worker');
  const idle: Worker[] = [];
  const queue: Pending[] = [];
  const running = new Map<Worker, Pending>();
  const workers = new Set<Worker>();
  let nextId = 1;
  let closed = false;

  const dispatch = (): void => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      running.set(worker, pending);
      // Copies are sent (and moved, not cloned): the caller's chunk may be a buffer others still read.
      const gz = new Uint8Array(pending.job.gz);
      const previousRadiiPx = pending.job.previousRadiiPx ? new Float32Array(pending.job.previousRadiiPx) : null;
      const transfer = previousRadiiPx ? [gz.buffer, previousRadiiPx.buffer] : [gz.buffer];
      worker.postMessage({ ...pending.job, gz, previousRadiiPx } satisfies ContourJob, transfer);
    }
  };

  const spawn = (): void => {
    const worker = new Worker(new URL('./contour-worker.ts', import.meta.url));
    workers.add(worker);
    worker.on('message', (result: ContourJobResult) => {
      const pending = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (pending !== undefined) {
        if ('error' in result) pending.reject(new Error(result.error));
        else pending.resolve({ detections: result.detections, lastRadiiPx: result.lastRadiiPx });
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
    detect(job) {
      if (closed) return Promise.reject(new Error('the contour worker pool is closed'));
      return new Promise<SequenceDetection>((resolve, reject) => {
        queue.push({ job: { id: nextId++, ...job }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the contour worker pool was closed'));
      for (const pending of running.values()) pending.reject(new Error('the contour worker pool was closed'));
      running.clear();
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}

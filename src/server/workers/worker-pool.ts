/**
 * A small pool of worker threads running one kind of job, shared by frame generation, lumen
 * detection and DICOM decoding, so none of them blocks the event loop. Jobs queue when every worker
 * is busy; a crashed worker fails its job and is replaced, so queued jobs still run; close() rejects
 * whatever is left and stops the threads.
 */
import { Worker, type Transferable } from 'node:worker_threads';

export interface WorkerPoolOptions<Job, Message, Result> {
  /** The worker module. */
  url: URL;
  size: number;
  /** Threads start on demand (up to size) instead of all at once. */
  lazy?: boolean;
  /** Named in the errors of a closed pool, e.g. 'frame worker pool'. */
  name: string;
  /** The message posted for a job, and the buffers moved with it (not copied). */
  toMessage(job: Job, id: number): { message: unknown; transfer?: readonly Transferable[] };
  /** A worker's answer: the result, or the Error to reject the job with. */
  fromMessage(message: Message): Result | Error;
}

export interface WorkerPool<Job, Result> {
  readonly size: number;
  run(job: Job): Promise<Result>;
  close(): Promise<void>;
}

interface Pending<Job, Result> {
  readonly job: Job;
  readonly id: number;
  resolve(result: Result): void;
  reject(error: Error): void;
}

export function createWorkerPool<Job, Message, Result>(options: WorkerPoolOptions<Job, Message, Result>): WorkerPool<Job, Result> {
  const { size, name } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a ${name} needs at least one worker`);
  const idle: Worker[] = [];
  const workers = new Set<Worker>();
  const queue: Pending<Job, Result>[] = [];
  const running = new Map<Worker, Pending<Job, Result>>();
  let nextId = 1;
  let closed = false;

  const dispatch = (): void => {
    while (!closed && workers.size < size && queue.length > idle.length) spawn();
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      running.set(worker, pending);
      const { message, transfer } = options.toMessage(pending.job, pending.id);
      worker.postMessage(message, transfer);
    }
  };

  const spawn = (): void => {
    const worker = new Worker(options.url);
    workers.add(worker);
    worker.on('message', (message: Message) => {
      const pending = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (pending !== undefined) {
        const result = options.fromMessage(message);
        if (result instanceof Error) pending.reject(result);
        else pending.resolve(result);
      }
      dispatch();
    });
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
      workers.delete(worker);
      const idleIndex = idle.indexOf(worker);
      if (idleIndex >= 0) idle.splice(idleIndex, 1);
      if (!closed) dispatch();
    });
    idle.push(worker);
  };
  if (!options.lazy) for (let k = 0; k < size; k++) spawn();

  return {
    size,
    run(job) {
      if (closed) return Promise.reject(new Error(`the ${name} is closed`));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ job, id: nextId++, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error(`the ${name} was closed`));
      for (const pending of running.values()) pending.reject(new Error(`the ${name} was closed`));
      running.clear();
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}

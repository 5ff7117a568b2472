/**
 * A small pool of worker threads running one kind of job, shared by frame generation, border
 * detection and DICOM decoding, so none of them blocks the event loop. Jobs queue when every worker
 * is busy. A worker that fails (an error, running out of its heap, exiting without a word, or a job
 * that overruns its time) fails its job and is replaced, so queued jobs still run; close() rejects
 * whatever is left and stops the threads.
 */
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';

/** A worker's JavaScript heap: a job that needs more is a runaway (image buffers are outside it). */
export const DEFAULT_WORKER_HEAP_MB = 512;
/** The longest one job may run: the real ones take well under a second to a few seconds. */
export const DEFAULT_JOB_TIMEOUT_MS = 120_000;

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
  /** Whether a message is a job's interim one (handed to run()'s onProgress; the job goes on), not its answer. */
  isProgress?(message: Message): boolean;
  /** Heap of each worker in MiB (DEFAULT_WORKER_HEAP_MB). */
  heapMb?: number;
  /** A job running longer stops its worker and fails (DEFAULT_JOB_TIMEOUT_MS). */
  jobTimeoutMs?: number;
}

export interface WorkerPool<Job, Result, Message = unknown> {
  readonly size: number;
  /** Runs `job` on a free worker; its interim messages (isProgress) go to `onProgress` in the order posted. */
  run(job: Job, onProgress?: (message: Message) => void): Promise<Result>;
  close(): Promise<void>;
}

interface Pending<Job, Result, Message> {
  readonly job: Job;
  readonly id: number;
  readonly onProgress?: (message: Message) => void;
  resolve(result: Result): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export function createWorkerPool<Job, Message, Result>(options: WorkerPoolOptions<Job, Message, Result>): WorkerPool<Job, Result, Message> {
  const { size, name } = options;
  const heapMb = options.heapMb ?? DEFAULT_WORKER_HEAP_MB;
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const resourceLimits: ResourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(16, Math.round(heapMb / 8)) };
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a ${name} needs at least one worker`);
  const idle: Worker[] = [];
  const workers = new Set<Worker>();
  const queue: Pending<Job, Result, Message>[] = [];
  const running = new Map<Worker, Pending<Job, Result, Message>>();
  let nextId = 1;
  let closed = false;

  const dispatch = (): void => {
    while (!closed && workers.size < size && queue.length > idle.length) spawn();
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      running.set(worker, pending);
      pending.timer = setTimeout(() => retire(worker, new Error(`a ${name} job ran longer than ${jobTimeoutMs / 1000} s and was stopped`)), jobTimeoutMs);
      const { message, transfer } = options.toMessage(pending.job, pending.id);
      worker.postMessage(message, transfer);
    }
  };

  /** Takes a worker out of the pool for good (failing its job with `error`), and starts another if work waits. */
  const retire = (worker: Worker, error: Error): void => {
    if (!workers.delete(worker)) return;
    const pending = running.get(worker);
    running.delete(worker);
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    const idleIndex = idle.indexOf(worker);
    if (idleIndex >= 0) idle.splice(idleIndex, 1);
    void worker.terminate();
    if (!closed) dispatch();
  };

  const spawn = (): void => {
    const worker = new Worker(options.url, { resourceLimits });
    workers.add(worker);
    worker.on('message', (message: Message) => {
      const pending = running.get(worker);
      if (options.isProgress?.(message)) {
        pending?.onProgress?.(message);
        return;
      }
      running.delete(worker);
      idle.push(worker);
      if (pending !== undefined) {
        clearTimeout(pending.timer);
        const result = options.fromMessage(message);
        if (result instanceof Error) pending.reject(result);
        else pending.resolve(result);
      }
      dispatch();
    });
    // An error (a throw, or ERR_WORKER_OUT_OF_MEMORY past its heap) is followed by an exit; an exit alone
    // (process.exit, a native crash) fails the job the same way, instead of leaving it waiting forever.
    worker.on('error', (error) => retire(worker, error));
    worker.on('exit', (code) => retire(worker, new Error(`a ${name} thread stopped unexpectedly (exit code ${code})`)));
    idle.push(worker);
  };
  if (!options.lazy) for (let k = 0; k < size; k++) spawn();

  return {
    size,
    run(job, onProgress) {
      if (closed) return Promise.reject(new Error(`the ${name} is closed`));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ job, id: nextId++, resolve, reject, ...(onProgress ? { onProgress } : {}) });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error(`the ${name} was closed`));
      for (const pending of running.values()) {
        clearTimeout(pending.timer);
        pending.reject(new Error(`the ${name} was closed`));
      }
      running.clear();
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}

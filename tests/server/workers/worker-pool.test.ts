import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from '../../../src/server/workers/worker-pool.ts';

type Job = { behaviour: 'answer' | 'exit' | 'hang' | 'throw' | 'leak' | 'progress'; value?: number };

describe('worker pool faults', () => {
  let pool: WorkerPool<Job, number, { value?: number; progress?: number }> | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });
  const makePool = (options: { jobTimeoutMs?: number; heapMb?: number } = {}) =>
    (pool = createWorkerPool<Job, { value?: number; progress?: number }, number>({
      url: new URL('../../support/misbehaving-worker.ts', import.meta.url),
      size: 1,
      name: 'test pool',
      toMessage: (job, id) => ({ message: { id, ...job } }),
      fromMessage: (message) => message.value ?? Number.NaN,
      isProgress: (message) => message.progress !== undefined,
      ...options,
    }));

  it('fails the job of a worker that exits without an error, and the next job runs on a new worker', async () => {
    const workers = makePool();
    await expect(workers.run({ behaviour: 'exit' })).rejects.toThrow(/test pool thread stopped unexpectedly \(exit code 0\)/);
    await expect(workers.run({ behaviour: 'answer', value: 21 })).resolves.toBe(42);
  });

  it('fails the job of a worker that throws, and goes on', async () => {
    const workers = makePool();
    await expect(workers.run({ behaviour: 'throw' })).rejects.toThrow(/the job blew up/);
    await expect(workers.run({ behaviour: 'answer', value: 2 })).resolves.toBe(4);
  });

  it('stops a job that overruns its time, and the queued job behind it still runs', async () => {
    const workers = makePool({ jobTimeoutMs: 500 });
    const hung = workers.run({ behaviour: 'hang' });
    const queued = workers.run({ behaviour: 'answer', value: 5 });
    await expect(hung).rejects.toThrow(/ran longer than 0.5 s and was stopped/);
    await expect(queued).resolves.toBe(10);
  });

  it('bounds a worker’s heap: a runaway job fails instead of taking the server’s memory', async () => {
    const workers = makePool({ heapMb: 32 });
    await expect(workers.run({ behaviour: 'leak' })).rejects.toThrow(/memory|heap|exit code/i);
    await expect(workers.run({ behaviour: 'answer', value: 1 })).resolves.toBe(2);
  }, 30_000);

  it('hands a job its interim messages in order, and keeps its worker until the answer (issue 27: a chunk\'s frames before its pack)', async () => {
    const workers = makePool();
    const progress: number[] = [];
    const first = workers.run({ behaviour: 'progress', value: 10 }, (message) => progress.push(message.progress!));
    // Queued behind it on the one worker: were the worker freed by an interim message, this would be answered first.
    const second = workers.run({ behaviour: 'answer', value: 3 });
    const order: string[] = [];
    await Promise.all([first.then((value) => order.push(`first ${value}`)), second.then((value) => order.push(`second ${value}`))]);
    expect(progress).toEqual([10, 11]);
    expect(order).toEqual(['first 20', 'second 6']);
  });
});

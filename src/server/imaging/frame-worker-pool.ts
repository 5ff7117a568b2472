/**
 * Worker threads rendering B-mode frame ranges, so generation neither blocks the event loop nor
 * leaves a core idle; results arrive as transferred buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import type { PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { FrameJob, FrameJobResult } from './frame-worker.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';

export interface FrameWorkerPool {
  readonly size: number;
  /** Frames start..end-1 of the model built from `options`, concatenated. */
  generate(options: PullbackModelOptions, start: number, end: number, angio?: FrameJob['angio']): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  type Job = Omit<FrameJob, 'id'>;
  const pool = createWorkerPool<Job, FrameJobResult, Uint8Array>({
    url: new URL('./frame-worker.ts', import.meta.url),
    size,
    name: 'frame worker pool',
    toMessage: (job, id) => ({ message: { id, ...job } satisfies FrameJob }),
    fromMessage: (result) => ('error' in result ? new Error(result.error) : result.frames),
  });
  return {
    size,
    generate: (options, start, end, angio) => pool.run({ options, start, end, ...(angio ? { angio } : {}) }),
    close: () => pool.close(),
  };
}

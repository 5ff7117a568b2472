/**
 * Worker threads rendering B-mode frame ranges (and encoding them for the frame pack), so
 * generation neither blocks the event loop nor leaves a core idle; results arrive as transferred
 * buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import type { PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { FrameJob, FrameJobResult } from './frame-worker.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';

/** Frames start..end-1 concatenated, and each one's lossless encoding when it was asked for. */
export interface RenderedFrames {
  readonly frames: Uint8Array;
  readonly encoded: Uint8Array[] | null;
}

export interface FrameWorkerPool {
  readonly size: number;
  /** Frames start..end-1 of the model built from `options` (encoded too with `encode`). */
  generate(options: PullbackModelOptions, start: number, end: number, angio?: FrameJob['angio'], encode?: boolean): Promise<RenderedFrames>;
  close(): Promise<void>;
}

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  type Job = Omit<FrameJob, 'id'>;
  const pool = createWorkerPool<Job, FrameJobResult, RenderedFrames>({
    url: new URL('./frame-worker.ts', import.meta.url),
    size,
    name: 'frame worker pool',
    toMessage: (job, id) => ({ message: { id, ...job } satisfies FrameJob }),
    fromMessage: (result) => ('error' in result ? new Error(result.error) : { frames: result.frames, encoded: result.encoded }),
  });
  return {
    size,
    generate: (options, start, end, angio, encode = false) => pool.run({ options, start, end, encode, ...(angio ? { angio } : {}) }),
    close: () => pool.close(),
  };
}

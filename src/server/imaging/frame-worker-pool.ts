/**
 * Worker threads rendering B-mode frame ranges (and encoding them for the frame pack), so
 * generation neither blocks the event loop nor leaves a core idle; results arrive as transferred
 * buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import type { PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { FrameJobProgress, FrameJobResult, MakeJob, RenderJob } from './frame-worker.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';

export interface FrameWorkerPool {
  readonly size: number;
  /** Frames start..end-1 of the model built from `options`, concatenated (a stored chunk's, for border detection). */
  generate(options: PullbackModelOptions, start: number, end: number, angio?: RenderJob['angio']): Promise<Uint8Array>;
  /**
   * Frames start..end-1 rendered and encoded on one worker (MakeJob): the raw frames go to
   * `rendered` as soon as they are rendered; resolves to their frame pack (rows x columns frames).
   */
  make(options: PullbackModelOptions, frames: { start: number; end: number; rows: number; columns: number; angio?: RenderJob['angio'] }, rendered: (frames: Uint8Array) => void): Promise<Uint8Array>;
  close(): Promise<void>;
}

type Job = Omit<RenderJob, 'id'> | Omit<MakeJob, 'id'>;

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  const pool = createWorkerPool<Job, FrameJobResult, Uint8Array>({
    url: new URL('./frame-worker.ts', import.meta.url),
    size,
    name: 'frame worker pool',
    toMessage: (job, id) => ({ message: 'make' in job ? ({ id, ...job } satisfies MakeJob) : ({ id, ...job } satisfies RenderJob) }),
    isProgress: (message) => 'rendered' in message,
    fromMessage(result) {
      if ('error' in result) return new Error(result.error);
      if ('pack' in result) return result.pack;
      if ('rendered' in result) return new Error('a progress message is not an answer');
      return result.frames;
    },
  });
  return {
    size,
    generate: (options, start, end, angio) => pool.run({ options, start, end, ...(angio ? { angio } : {}) }),
    make: (options, { start, end, rows, columns, angio }, rendered) =>
      pool.run({ make: { options, start, end, rows, columns }, ...(angio ? { angio } : {}) }, (message) => rendered((message as FrameJobProgress).rendered)),
    close: () => pool.close(),
  };
}

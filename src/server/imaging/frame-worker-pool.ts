/**
 * Worker threads rendering B-mode frame ranges (and encoding them for the frame pack), so
 * generation neither blocks the event loop nor leaves a core idle; results arrive as transferred
 * buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import type { PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { EncodedGrayFrames } from '../dicom/codecs/jpeg-ls-encoder.ts';
import type { EncodeJob, FrameJobResult, RenderJob } from './frame-worker.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';

/** Frames start..end-1 concatenated, and each one's lossless encoding when it was asked for. */
export interface RenderedFrames {
  readonly frames: Uint8Array;
  readonly encoded: EncodedGrayFrames | null;
}

export interface FrameWorkerPool {
  readonly size: number;
  /** Frames start..end-1 of the model built from `options` (encoded too with `encode`). */
  generate(options: PullbackModelOptions, start: number, end: number, angio?: RenderJob['angio'], encode?: boolean): Promise<RenderedFrames>;
  /** Each of `frames` (rows x columns each, concatenated) encoded losslessly; the caller's buffer is copied, not taken. */
  encode(frames: Uint8Array, rows: number, columns: number): Promise<EncodedGrayFrames>;
  close(): Promise<void>;
}

type Job = Omit<RenderJob, 'id'> | Omit<EncodeJob, 'id'>;

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  const pool = createWorkerPool<Job, FrameJobResult, RenderedFrames | EncodedGrayFrames>({
    url: new URL('./frame-worker.ts', import.meta.url),
    size,
    name: 'frame worker pool',
    toMessage(job, id) {
      if (!('encodeFrames' in job)) return { message: { id, ...job } satisfies RenderJob };
      // A copy is moved: the caller's frames are still being read (gzip for storage, the detection).
      const encodeFrames = new Uint8Array(job.encodeFrames);
      return { message: { id, encodeFrames, rows: job.rows, columns: job.columns } satisfies EncodeJob, transfer: [encodeFrames.buffer] };
    },
    fromMessage(result) {
      if ('error' in result) return new Error(result.error);
      return result.frames ? { frames: result.frames, encoded: result.encoded } : (result.encoded ?? { frames: [], predict: [] });
    },
  });
  return {
    size,
    generate: (options, start, end, angio, encode = false) => pool.run({ options, start, end, encode, ...(angio ? { angio } : {}) }) as Promise<RenderedFrames>,
    encode: (frames, rows, columns) => pool.run({ encodeFrames: frames, rows, columns }) as Promise<EncodedGrayFrames>,
    close: () => pool.close(),
  };
}

/**
 * Worker threads rendering B-mode frame ranges (and encoding them for the frame pack), so
 * generation neither blocks the event loop nor leaves a core idle; results arrive as transferred
 * buffers (no copy).
 */
import { availableParallelism } from 'node:os';
import type { PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { EncodedGrayFrames } from '../dicom/codecs/jpeg-ls-encoder.ts';
import type { EncodeJob, FrameJobProgress, FrameJobResult, MakeJob, RenderJob } from './frame-worker.ts';
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
  /**
   * Frames start..end-1 rendered and encoded on one worker (MakeJob): the raw frames go to
   * `rendered` as soon as they are rendered; resolves to their frame pack (rows x columns frames).
   */
  make(options: PullbackModelOptions, frames: { start: number; end: number; rows: number; columns: number; angio?: RenderJob['angio'] }, rendered: (frames: Uint8Array) => void): Promise<Uint8Array>;
  close(): Promise<void>;
}

type Job = Omit<RenderJob, 'id'> | Omit<EncodeJob, 'id'> | Omit<MakeJob, 'id'>;

export function createFrameWorkerPool(size = availableParallelism()): FrameWorkerPool {
  const pool = createWorkerPool<Job, FrameJobResult, RenderedFrames | EncodedGrayFrames | Uint8Array>({
    url: new URL('./frame-worker.ts', import.meta.url),
    size,
    name: 'frame worker pool',
    toMessage(job, id) {
      if ('make' in job) return { message: { id, ...job } satisfies MakeJob };
      if (!('encodeFrames' in job)) return { message: { id, ...job } satisfies RenderJob };
      // A copy is moved: the caller's frames are still being read (gzip for storage, the detection).
      const encodeFrames = new Uint8Array(job.encodeFrames);
      return { message: { id, encodeFrames, rows: job.rows, columns: job.columns } satisfies EncodeJob, transfer: [encodeFrames.buffer] };
    },
    isProgress: (message) => 'rendered' in message,
    fromMessage(result) {
      if ('error' in result) return new Error(result.error);
      if ('pack' in result) return result.pack;
      if ('rendered' in result) return new Error('a progress message is not an answer');
      return result.frames ? { frames: result.frames, encoded: result.encoded } : (result.encoded ?? { frames: [], predict: [] });
    },
  });
  return {
    size,
    generate: (options, start, end, angio, encode = false) => pool.run({ options, start, end, encode, ...(angio ? { angio } : {}) }) as Promise<RenderedFrames>,
    encode: (frames, rows, columns) => pool.run({ encodeFrames: frames, rows, columns }) as Promise<EncodedGrayFrames>,
    make: (options, { start, end, rows, columns, angio }, rendered) =>
      pool.run({ make: { options, start, end, rows, columns }, ...(angio ? { angio } : {}) }, (message) => rendered((message as FrameJobProgress).rendered)) as Promise<Uint8Array>,
    close: () => pool.close(),
  };
}

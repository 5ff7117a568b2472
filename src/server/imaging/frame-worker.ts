/**
 * Worker thread body for frame-worker-pool.ts: renders B-mode (or angiography) frame ranges of a model rebuilt from
 * its options (the model is deterministic, so every worker renders the same bytes), and encodes
 * them for the page's frame pack when asked (JPEG-LS lossless: codecs/jpeg-ls-encoder.ts).
 */
import { parentPort } from 'node:worker_threads';
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, initGrayEncoder } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from './demo-pullback.ts';

export interface FrameJob {
  readonly id: number;
  readonly options: PullbackModelOptions;
  readonly start: number;
  readonly end: number;
  /** Set for angiography frames: the run's length and frame size. */
  readonly angio?: { readonly frameCount: number; readonly sizePx: number };
  /** Also encode each frame losslessly for the frame pack. */
  readonly encode?: boolean;
}

export type FrameJobResult =
  | { readonly id: number; readonly frames: Uint8Array; readonly encoded: Uint8Array[] | null }
  | { readonly id: number; readonly error: string };

// The last model is kept because consecutive jobs almost always come from the same record, and its
// renderer's tables take longer to build than a frame takes to render.
let current: { key: string; model: PullbackModel } | null = null;

parentPort?.on('message', async (job: FrameJob) => {
  try {
    if (job.encode) await initGrayEncoder();
    const key = JSON.stringify(job.options);
    if (current?.key !== key) current = { key, model: createPullbackModel(job.options) };
    const frames = job.angio
      ? generateAngioFrames(current.model, job.angio.frameCount, job.angio.sizePx, job.start, job.end)
      : generateFrames(current.model, job.start, job.end);
    const size = job.angio?.sizePx ?? current.model.frameSizePx;
    const encoded = job.encode ? encodeGrayFrames(frames, size, size) : null;
    const transfer = [frames.buffer, ...(encoded ?? []).map((frame) => frame.buffer as ArrayBuffer)];
    parentPort?.postMessage({ id: job.id, frames, encoded } satisfies FrameJobResult, transfer);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies FrameJobResult);
  }
});

/**
 * Worker thread body for frame-worker-pool.ts: renders B-mode (or angiography) frame ranges of a model rebuilt from
 * its options (the model is deterministic, so every worker renders the same bytes).
 */
import { parentPort } from 'node:worker_threads';
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import { generateAngioFrames, generateFrames } from './demo-pullback.ts';

export interface FrameJob {
  readonly id: number;
  readonly options: PullbackModelOptions;
  readonly start: number;
  readonly end: number;
  /** Set for angiography frames: the run's length and frame size. */
  readonly angio?: { readonly frameCount: number; readonly sizePx: number };
}

export type FrameJobResult = { readonly id: number; readonly frames: Uint8Array } | { readonly id: number; readonly error: string };

// The last model is kept because consecutive jobs almost always come from the same record, and its
// renderer's tables take longer to build than a frame takes to render.
let current: { key: string; model: PullbackModel } | null = null;

parentPort?.on('message', (job: FrameJob) => {
  try {
    const key = JSON.stringify(job.options);
    if (current?.key !== key) current = { key, model: createPullbackModel(job.options) };
    const frames = job.angio
      ? generateAngioFrames(current.model, job.angio.frameCount, job.angio.sizePx, job.start, job.end)
      : generateFrames(current.model, job.start, job.end);
    parentPort?.postMessage({ id: job.id, frames } satisfies FrameJobResult, [frames.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies FrameJobResult);
  }
});

/**
 * Worker thread body for frame-worker-pool.ts: renders B-mode (or angiography) frame ranges of a model rebuilt from
 * its options (the model is deterministic, so every worker renders the same bytes), alone (a
 * stored chunk's frames for border detection) or with the page's frame pack encoded from them
 * (JPEG-LS lossless: codecs/jpeg-ls-encoder.ts), the raw frames handed on first (issue 23).
 */
import { parentPort } from 'node:worker_threads';
import { buildFramePack } from '../../domain/pixels/frame-pack.ts';
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from './demo-pullback.ts';

export interface RenderJob {
  readonly id: number;
  readonly options: PullbackModelOptions;
  readonly start: number;
  readonly end: number;
  /** Set for angiography frames: the run's length and frame size. */
  readonly angio?: { readonly frameCount: number; readonly sizePx: number };
}

/**
 * A demo chunk's frames rendered and encoded on this thread in one go (issue 27: a first open's
 * server CPU): its raw frames are posted (a copy) as soon as they are rendered, for border
 * detection and gzip (issue 23), then its frame pack (rows x columns frames) is the answer. The
 * caller's thread, which also answers the page, no longer copies the frames back here to encode
 * them nor assembles the pack, and the encode no longer waits for that thread to send it.
 */
export interface MakeJob {
  readonly id: number;
  readonly make: { readonly options: PullbackModelOptions; readonly start: number; readonly end: number; readonly rows: number; readonly columns: number };
  readonly angio?: RenderJob['angio'];
}

export type FrameJob = RenderJob | MakeJob;

/** A MakeJob's interim message: its rendered frames. */
export type FrameJobProgress = { readonly id: number; readonly rendered: Uint8Array };

export type FrameJobResult =
  | { readonly id: number; readonly frames: Uint8Array }
  | { readonly id: number; readonly pack: Uint8Array }
  | FrameJobProgress
  | { readonly id: number; readonly error: string };

// The last model is kept because consecutive jobs almost always come from the same record, and its
// renderer's tables take longer to build than a frame takes to render.
let current: { key: string; model: PullbackModel } | null = null;

/**
 * Run once as the thread starts, before any job: the encoder's WASM and the renderers' code are
 * made ready on a few tiny frames (and the demo geometry's tables on one frame), which otherwise a fresh server's first chunks paid for (about
 * twice a warm chunk's time, three times for the angiography's: the first frames of a first open).
 */
async function warmUp(): Promise<void> {
  await initGrayEncoder();
  const size = 128;
  const model = createPullbackModel({ seed: 1, frameCount: 8, frameSizePx: size, pixelSpacingMm: 0.04, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
  encodeGrayFrames(generateFrames(model, 0, 4), size, size);
  encodeGrayFrames(generateAngioFrames(model, 8, size, 0, 4), size, size);
  // The demo records' geometry (512 px at the default spacing): its scan-conversion tables are
  // shared by every record of it, so the first record opened does not wait for them (issue 27).
  generateFrames(createPullbackModel({ seed: 1, frameCount: 1 }), 0, 1);
}
const warm = warmUp().catch(() => undefined);

function modelOf(options: PullbackModelOptions): PullbackModel {
  const key = JSON.stringify(options);
  if (current?.key !== key) current = { key, model: createPullbackModel(options) };
  return current.model;
}

function make(job: MakeJob): void {
  const { options, start, end, rows, columns } = job.make;
  const model = modelOf(options);
  const frames = job.angio ? generateAngioFrames(model, job.angio.frameCount, job.angio.sizePx, start, end) : generateFrames(model, start, end);
  // A copy goes: these frames are encoded next.
  const rendered = frames.slice();
  parentPort?.postMessage({ id: job.id, rendered } satisfies FrameJobProgress, [rendered.buffer as ArrayBuffer]);
  const encoded = encodeGrayFrames(frames, rows, columns);
  // A new buffer of exactly the pack's bytes: moved whole.
  const pack = buildFramePack(grayLosslessFormat(rows, columns), encoded.frames, encoded.predict);
  parentPort?.postMessage({ id: job.id, pack } satisfies FrameJobResult, [pack.buffer as ArrayBuffer]);
}

parentPort?.on('message', async (job: FrameJob) => {
  await warm;
  try {
    if ('make' in job) {
      await initGrayEncoder();
      return make(job);
    }
    const model = modelOf(job.options);
    const frames = job.angio ? generateAngioFrames(model, job.angio.frameCount, job.angio.sizePx, job.start, job.end) : generateFrames(model, job.start, job.end);
    parentPort?.postMessage({ id: job.id, frames } satisfies FrameJobResult, [frames.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies FrameJobResult);
  }
});

/**
 * The steps of making a demo chunk, on the frame workers when there are some, else on this
 * thread (tests, tools): rendering its frames, and encoding them for the page's frame pack. The
 * raw frames are handed on before they are encoded, so that border detection can take them
 * before the chunk is encoded, gzipped and stored (issue 23: a first open's provisional MLA
 * waited for all three).
 */
import { createPullbackModel, type PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from './demo-pullback.ts';
import type { FrameWorkerPool } from './frame-worker-pool.ts';
import { buildFramePack } from '../../domain/pixels/frame-pack.ts';

/** Set for angiography frames: the run's length and frame size. */
export type AngioRun = { readonly frameCount: number; readonly sizePx: number };

/** Frames start..end-1 of the model built from `options`, raw and concatenated. */
export async function renderFrames(pool: FrameWorkerPool | null, options: PullbackModelOptions, start: number, end: number, angio?: AngioRun): Promise<Uint8Array> {
  if (pool) return pool.generate(options, start, end, angio);
  const model = createPullbackModel(options);
  return angio ? generateAngioFrames(model, angio.frameCount, angio.sizePx, start, end) : generateFrames(model, start, end);
}

/** Which frames of which run a chunk holds, and their size. */
export type ChunkFrames = { readonly start: number; readonly end: number; readonly rows: number; readonly columns: number; readonly angio?: AngioRun };

/**
 * A chunk made: its raw frames handed to `rendered` as soon as they exist (detection and gzip take
 * them), then, when `encode`, its frame pack. With frame workers both are one job (frame-worker.ts
 * MakeJob), so the event loop never copies the frames back to be encoded nor assembles the pack.
 */
export async function makeChunk(pool: FrameWorkerPool | null, options: PullbackModelOptions, frames: ChunkFrames, encode: boolean, rendered: (raw: Uint8Array) => void): Promise<Buffer | null> {
  if (encode && pool) return bufferOver(await pool.make(options, frames, rendered));
  const raw = await renderFrames(pool, options, frames.start, frames.end, frames.angio);
  rendered(raw);
  if (!encode) return null;
  await initGrayEncoder();
  const encoded = encodeGrayFrames(raw, frames.rows, frames.columns);
  return bufferOver(buildFramePack(grayLosslessFormat(frames.rows, frames.columns), encoded.frames, encoded.predict));
}

/** A Buffer over the same bytes (no copy: a chunk's pack is megabytes, made for each chunk). */
const bufferOver = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

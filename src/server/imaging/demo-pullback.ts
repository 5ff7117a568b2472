/**
 * Server-side generation of demo imaging from the pure generator in src/domain/imaging: B-mode
 * frames in contiguous chunks and the angiography run. Everything here is synchronous and
 * CPU-bound (about 4 ms of CPU per 512x512 B-mode frame); frame-worker-pool.ts runs the same code off
 * the main thread.
 */
import { renderAngioFrame } from '../../domain/synthetic/angio-frame.ts';
import { bmodeRendererFor } from '../../domain/synthetic/bmode-frame.ts';
import type { PullbackModel } from '../../domain/synthetic/pullback-model.ts';

/** Frames start..end-1, concatenated (each frameSizePx² bytes). */
export function generateFrames(model: PullbackModel, start: number, end: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > model.frameCount || start >= end) {
    throw new RangeError(`frame range ${start}..${end} is not inside 0..${model.frameCount}`);
  }
  const renderer = bmodeRendererFor(model);
  const frameBytes = model.frameSizePx * model.frameSizePx;
  const frames = new Uint8Array((end - start) * frameBytes);
  for (let frameIndex = start; frameIndex < end; frameIndex++) {
    renderer.renderFrame(frameIndex, frames.subarray((frameIndex - start) * frameBytes, (frameIndex - start + 1) * frameBytes));
  }
  return frames;
}

/** Angiography frames start..end-1 of a run of angioFrameCount (the whole run by default), concatenated. */
export function generateAngioFrames(
  model: PullbackModel,
  angioFrameCount: number,
  sizePx = 512,
  start = 0,
  end = angioFrameCount,
): Uint8Array<ArrayBuffer> {
  const frameBytes = sizePx * sizePx;
  const frames = new Uint8Array((end - start) * frameBytes);
  for (let angioIndex = start; angioIndex < end; angioIndex++) {
    renderAngioFrame(model, angioIndex, angioFrameCount, sizePx, frames.subarray((angioIndex - start) * frameBytes, (angioIndex - start + 1) * frameBytes));
  }
  return frames;
}


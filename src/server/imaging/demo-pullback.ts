/**
 * Server-side generation of demo imaging from the pure generator in src/domain/imaging: B-mode
 * frames in contiguous chunks, the angiography run and the L-mode image. Everything here is
 * synchronous and CPU-bound (about 7 ms per 512x512 B-mode frame); frame-worker-pool.ts runs the
 * same code off the main thread.
 */
import { renderAngioFrame } from '../../domain/imaging/angio-frame.ts';
import { bmodeRendererFor } from '../../domain/imaging/bmode-frame.ts';
import { createLmodeBuilder } from '../../domain/imaging/lmode.ts';
import type { PullbackModel } from '../../domain/imaging/pullback-model.ts';

/**
 * Frames start..end-1, concatenated (each frameSizePx² bytes). `onFrame` sees each frame as it is
 * made (a view into the result), e.g. to feed an L-mode builder without a second pass.
 */
export function generateFrames(
  model: PullbackModel,
  start: number,
  end: number,
  onFrame?: (frameIndex: number, frame: Uint8Array) => void,
): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > model.frameCount || start >= end) {
    throw new RangeError(`frame range ${start}..${end} is not inside 0..${model.frameCount}`);
  }
  const renderer = bmodeRendererFor(model);
  const frameBytes = model.frameSizePx * model.frameSizePx;
  const frames = new Uint8Array((end - start) * frameBytes);
  for (let frameIndex = start; frameIndex < end; frameIndex++) {
    const frame = frames.subarray((frameIndex - start) * frameBytes, (frameIndex - start + 1) * frameBytes);
    renderer.renderFrame(frameIndex, frame);
    onFrame?.(frameIndex, frame);
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
    frames.set(renderAngioFrame(model, angioIndex, angioFrameCount, sizePx), (angioIndex - start) * frameBytes);
  }
  return frames;
}

/**
 * The L-mode image (frameSizePx rows x frameCount columns) by rendering every frame: as slow as
 * generating the whole record, so prefer feeding an L-mode builder from generateFrames' onFrame
 * while the frames are made anyway.
 */
export function generateLmodeImage(model: PullbackModel, angleRad: number, chunkFrames = 64): Uint8Array {
  const builder = createLmodeBuilder(model.frameSizePx, model.frameCount, angleRad);
  for (let start = 0; start < model.frameCount; start += chunkFrames) {
    generateFrames(model, start, Math.min(model.frameCount, start + chunkFrames), (frameIndex, frame) => builder.addFrame(frameIndex, frame));
  }
  return builder.image;
}

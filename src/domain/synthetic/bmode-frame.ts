/**
 * B-mode cross-section frames: a polar frame (polar-frame.ts) scan-converted to a square 8-bit
 * grayscale image, row-major, black outside the circular field of view.
 */
import { createPolarWorkspace, renderPolarFrame, type PolarWorkspace } from './polar-frame.ts';
import { catheterCentrePx } from './contours.ts';
import type { PullbackModel } from './pullback-model.ts';
import { scanConversionFor, scanConvert, type ScanConversion } from './scan-conversion.ts';

export interface BmodeRenderer {
  readonly model: PullbackModel;
  /** Renders frame `frameIndex` into `out` (frameSizePx² bytes, a new array if omitted). */
  renderFrame(frameIndex: number, out?: Uint8Array): Uint8Array;
}

/**
 * A renderer owns the per-model lookup tables and scratch buffers (a few MB; the scan conversion's
 * are shared by every model of the same geometry), so rendering a frame allocates nothing. Use one
 * renderer per thread; it is not re-entrant, but rendering is synchronous.
 */
export function createBmodeRenderer(model: PullbackModel): BmodeRenderer {
  const workspace: PolarWorkspace = createPolarWorkspace(model);
  const { grid } = workspace;
  const centre = catheterCentrePx(model);
  const conversion: ScanConversion = scanConversionFor(model.frameSizePx, model.pixelSpacingMm, grid, centre.x, centre.y);
  const polar = new Uint8Array((grid.lineCount + 1) * grid.sampleCount);
  const pixelCount = model.frameSizePx * model.frameSizePx;
  return {
    model,
    renderFrame(frameIndex, out = new Uint8Array(pixelCount)) {
      if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= model.frameCount) {
        throw new RangeError(`frame ${frameIndex} is outside 0..${model.frameCount - 1}`);
      }
      if (out.length !== pixelCount) throw new RangeError(`output must hold ${pixelCount} bytes, got ${out.length}`);
      renderPolarFrame(model, frameIndex, workspace, polar);
      scanConvert(conversion, polar, out);
      return out;
    },
  };
}

/**
 * Renderers by model, so that rendering frame after frame of one model reuses its tables. Weak, so
 * the tables go when the model does.
 */
const renderers = new WeakMap<PullbackModel, BmodeRenderer>();

/** The model's shared renderer (built on first use). */
export function bmodeRendererFor(model: PullbackModel): BmodeRenderer {
  let renderer = renderers.get(model);
  if (renderer === undefined) {
    renderer = createBmodeRenderer(model);
    renderers.set(model, renderer);
  }
  return renderer;
}

/** Frame `frameIndex` of the model: frameSizePx² bytes, row-major, 8-bit grayscale. */
export function renderBmodeFrame(model: PullbackModel, frameIndex: number, out?: Uint8Array): Uint8Array {
  return bmodeRendererFor(model).renderFrame(frameIndex, out);
}

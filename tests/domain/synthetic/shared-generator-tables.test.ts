/**
 * The generator's tables that outlive one frame (issue 27: a first open's first chunks no longer
 * build them): the scan conversion shared by every model of a geometry, and the angiogram's
 * per-model tables and scratch. Whatever was rendered before, with whichever tables, a frame must
 * be the bytes a first render gives (the golden digests pin those bytes themselves).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderAngioFrame } from '../../../src/domain/synthetic/angio-frame.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import { polarGridFor } from '../../../src/domain/synthetic/polar-frame.ts';
import { createPullbackModel, type PullbackModelOptions } from '../../../src/domain/synthetic/pullback-model.ts';
import { createScanConversion, scanConversionFor } from '../../../src/domain/synthetic/scan-conversion.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('scan conversion tables shared by geometry', () => {
  const plain: PullbackModelOptions = { seed: 5, frameCount: 64 };
  const panned: PullbackModelOptions = { seed: 6, frameCount: 64, hardCases: { imageOffsetPx: { x: 9, y: -4 } } };

  it('are the tables createScanConversion makes, one set per geometry', () => {
    const model = createPullbackModel(plain);
    const grid = polarGridFor(model);
    const shared = scanConversionFor(model.frameSizePx, model.pixelSpacingMm, grid, 256, 256);
    const made = createScanConversion(model.frameSizePx, model.pixelSpacingMm, grid, 256, 256);
    expect(shared.runs).toEqual(made.runs);
    expect(shared.taps).toEqual(made.taps);
    expect(scanConversionFor(model.frameSizePx, model.pixelSpacingMm, grid, 256, 256)).toBe(shared);
    // A panned image is another geometry: its catheter sits elsewhere.
    const pannedModel = createPullbackModel(panned);
    const centre = catheterCentrePx(pannedModel);
    expect(scanConversionFor(pannedModel.frameSizePx, pannedModel.pixelSpacingMm, polarGridFor(pannedModel), centre.x, centre.y)).not.toBe(shared);
  });

  it('give every model its own frames, rendered interleaved with other geometries', () => {
    const first = (options: PullbackModelOptions, frame: number) => sha256(createBmodeRenderer(createPullbackModel(options)).renderFrame(frame));
    const alone = [first(plain, 3), first(panned, 3), first({ ...plain, frameSizePx: 256, pixelSpacingMm: 0.02 }, 3)];
    // Many geometries in turn, more than are kept, then the first ones again.
    for (let k = 0; k < 10; k++) first({ ...plain, frameSizePx: 64 + 8 * k, pixelSpacingMm: 5.12 / (64 + 8 * k) }, 0);
    expect([first(plain, 3), first(panned, 3), first({ ...plain, frameSizePx: 256, pixelSpacingMm: 0.02 }, 3)]).toEqual(alone);
    // The panned frame differs from the plain one at all (the two geometries are not mixed up).
    expect(alone[1]).not.toBe(alone[0]);
  });
});

describe('angiogram tables kept per model and size', () => {
  const options: PullbackModelOptions = { seed: 77, frameCount: 600 };

  it('render a frame the same whatever was rendered before it, at whichever size, into whichever buffer', () => {
    const fresh = (index: number, size: number) => sha256(renderAngioFrame(createPullbackModel(options), index, 60, size));
    const expected = [fresh(0, 512), fresh(31, 512), fresh(31, 256)];
    const model = createPullbackModel(options);
    const other = createPullbackModel({ ...options, seed: 78 });
    const into = new Uint8Array(512 * 512).fill(200);
    const seen: string[] = [];
    for (const index of [59, 12, 0]) renderAngioFrame(model, index, 60, 512);
    renderAngioFrame(other, 31, 60, 512);
    seen.push(sha256(renderAngioFrame(model, 0, 60, 512, into)));
    renderAngioFrame(model, 45, 60, 256);
    seen.push(sha256(renderAngioFrame(model, 31, 60, 512)));
    seen.push(sha256(renderAngioFrame(model, 31, 60, 256)));
    expect(seen).toEqual(expected);
    expect(sha256(into)).toBe(expected[0]);
  });

  it('refuses an output buffer of the wrong size and writes nothing to it', () => {
    const into = new Uint8Array(100).fill(7);
    expect(() => renderAngioFrame(createPullbackModel(options), 0, 60, 512, into)).toThrow(RangeError);
    expect(into.every((value) => value === 7)).toBe(true);
  });
});

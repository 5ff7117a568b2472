/**
 * Demo frame packs are encoded in the frame worker threads (issue 27), never on the main thread:
 * the worker's JPEG-LS frames decode, with the page's decode, to exactly the frames it rendered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../../../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from '../../../src/server/imaging/demo-pullback.ts';
import { createFrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { decodePack } from '../../support/frame-chunks.ts';

describe('frame workers', () => {
  const pool = createFrameWorkerPool(1);
  afterAll(() => pool.close());
  const options = { seed: 11, frameCount: 40, frameSizePx: 128, pixelSpacingMm: 0.05 };

  it("render a stored chunk's B-mode and angiography frames as the model renders them on this thread (issue 23)", async () => {
    const model = createPullbackModel(options);
    expect(Buffer.from(await pool.generate(options, 5, 9)).equals(Buffer.from(generateFrames(model, 5, 9)))).toBe(true);
    const angio = await pool.generate(options, 0, 2, { frameCount: 10, sizePx: 64 });
    expect(Buffer.from(angio).equals(Buffer.from(generateAngioFrames(model, 10, 64, 0, 2)))).toBe(true);
  });

  it('make a chunk in one job: its raw frames first, then the pack this thread makes of them, smaller than the frames and decoding to them (issue 27)', async () => {
    const model = createPullbackModel(options);
    await initGrayEncoder();
    for (const [start, end, angio] of [[5, 9, undefined], [0, 3, { frameCount: 10, sizePx: 64 }], [16, 20, undefined]] as const) {
      const size = angio?.sizePx ?? 128;
      const seen: string[] = [];
      let raw: Uint8Array | null = null;
      const pack = await pool.make(options, { start, end, rows: size, columns: size, angio }, (frames) => {
        raw = frames;
        seen.push('rendered');
      });
      seen.push('packed');
      const expected = angio ? generateAngioFrames(model, angio.frameCount, angio.sizePx, start, end) : generateFrames(model, start, end);
      expect(seen).toEqual(['rendered', 'packed']);
      expect(Buffer.from(raw!).equals(Buffer.from(expected))).toBe(true);
      const here = encodeGrayFrames(expected, size, size);
      expect(Buffer.from(pack).equals(Buffer.from(buildFramePack(grayLosslessFormat(size, size), here.frames, here.predict)))).toBe(true);
      expect(pack.length).toBeLessThan(expected.length);
      expect(Buffer.concat(await decodePack(pack)).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

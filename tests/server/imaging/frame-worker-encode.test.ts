/**
 * Demo frame packs are encoded in the frame worker threads (issue 27), never on the main thread:
 * the worker's JPEG-LS frames decode, with the page's decode, to exactly the frames it rendered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { grayLosslessFormat } from '../../../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from '../../../src/server/imaging/demo-pullback.ts';
import { createFrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { decodePack } from '../../support/frame-chunks.ts';

describe('frame workers', () => {
  const pool = createFrameWorkerPool(1);
  afterAll(() => pool.close());
  const options = { seed: 11, frameCount: 40, frameSizePx: 128, pixelSpacingMm: 0.05 };

  it('encode B-mode and angiography frames losslessly when asked, and only then', async () => {
    const model = createPullbackModel(options);
    const bmode = await pool.generate(options, 5, 9, undefined, true);
    expect(Buffer.from(bmode.frames).equals(Buffer.from(generateFrames(model, 5, 9)))).toBe(true);
    expect(bmode.encoded!.frames).toHaveLength(4);
    const decoded = await decodePack(buildFramePack(grayLosslessFormat(128, 128), bmode.encoded!.frames, bmode.encoded!.predict));
    expect(Buffer.concat(decoded).equals(Buffer.from(bmode.frames))).toBe(true);
    expect(bmode.encoded!.frames.reduce((sum, frame) => sum + frame.length, 0)).toBeLessThan(bmode.frames.length);

    const angio = await pool.generate(options, 0, 2, { frameCount: 10, sizePx: 64 }, true);
    expect(Buffer.from(angio.frames).equals(Buffer.from(generateAngioFrames(model, 10, 64, 0, 2)))).toBe(true);
    expect(Buffer.concat(await decodePack(buildFramePack(grayLosslessFormat(64, 64), angio.encoded!.frames, angio.encoded!.predict))).equals(Buffer.from(angio.frames))).toBe(true);

    expect((await pool.generate(options, 0, 2)).encoded).toBeNull();
  });

  it('encode frames rendered before, as a job of their own, to the same bytes, leaving the frames as they were (issue 23)', async () => {
    const rendered = await pool.generate(options, 5, 9, undefined, true);
    const frames = generateFrames(createPullbackModel(options), 5, 9);
    const encoded = await pool.encode(frames, 128, 128);
    expect(encoded.frames.map((frame) => Buffer.from(frame).toString('base64'))).toEqual(rendered.encoded!.frames.map((frame) => Buffer.from(frame).toString('base64')));
    expect(encoded.predict).toEqual(rendered.encoded!.predict);
    // The caller still reads its frames (the detection, gzip for storage): they were copied to the worker, not moved.
    expect(frames.length).toBe(4 * 128 * 128);
    expect(Buffer.from(frames).equals(Buffer.from(rendered.frames))).toBe(true);
  });

  it('make a chunk in one job: its raw frames first, then the pack the two-job path makes, frame for frame (issue 27)', async () => {
    const model = createPullbackModel(options);
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
      const twoJobs = await pool.encode(expected, size, size);
      expect(Buffer.from(pack).equals(Buffer.from(buildFramePack(grayLosslessFormat(size, size), twoJobs.frames, twoJobs.predict)))).toBe(true);
      expect(Buffer.concat(await decodePack(pack)).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

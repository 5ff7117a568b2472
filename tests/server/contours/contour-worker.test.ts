import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { renderBmodeFrame } from '../../../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { createContourWorkerPool } from '../../../src/server/contours/contour-worker-pool.ts';
import { detectChunk } from '../../../src/server/contours/detect-chunk.ts';

// Frames of an imported series need not be square: a generated pullback cropped to 500 x 480 about
// its centre (the catheter stays in the middle of the frame).
const model = createPullbackModel({ seed: 5, frameCount: 40 });
const [width, height] = [500, 480];
const [left, top] = [(model.frameSizePx - width) / 2, (model.frameSizePx - height) / 2];
function croppedFrames(first: number, count: number): Uint8Array {
  const out = new Uint8Array(count * width * height);
  for (let k = 0; k < count; k++) {
    const full = renderBmodeFrame(model, first + k);
    for (let row = 0; row < height; row++) {
      const from = (row + top) * model.frameSizePx + left;
      out.set(full.subarray(from, from + width), (k * height + row) * width);
    }
  }
  return out;
}

describe('contour detection in worker threads', () => {
  const pool = createContourWorkerPool(2);
  afterAll(() => pool.close());
  const geometry = { frameWidth: width, frameHeight: height, pixelSpacingMm: model.pixelSpacingMm };

  it('detects chunks of non-square frames, continuing from the carry across threads exactly as inline', async () => {
    const chunks = [croppedFrames(10, 3), croppedFrames(13, 3)];
    const inline = detectChunk({ ...geometry, carry: null }, new Uint8Array([...chunks[0]!, ...chunks[1]!]));

    const first = await pool.detect({ ...geometry, gz: zlib.gzipSync(chunks[0]!), carry: null });
    expect(first.carry?.frame.length).toBe(width * height);
    const carry = first.carry;
    const second = await pool.detect({ ...geometry, gz: zlib.gzipSync(chunks[1]!), carry });
    // The caller's carry was copied for the worker, not moved away from under it.
    expect(carry?.frame.length).toBe(width * height);
    expect(carry?.lumenRadiiPx.length).toBeGreaterThan(0);

    expect([...first.detections, ...second.detections]).toEqual(inline.detections);
    expect(second.detections.every((d) => d.vessel.areaMm2 > d.areaMm2)).toBe(true);
  }, 30_000);

  it('does not carry one run into the next: a chunk after a jump in the pullback gets its frames as if alone', async () => {
    const first = await pool.detect({ ...geometry, gz: zlib.gzipSync(croppedFrames(2, 2)), carry: null });
    // The next chunk starts 30 frames (a heartbeat, 0.5 mm) further on: its reference from the carry is no neighbour.
    const after = await pool.detect({ ...geometry, gz: zlib.gzipSync(croppedFrames(34, 1)), carry: first.carry });
    const alone = detectChunk({ ...geometry, carry: null }, croppedFrames(34, 1));
    expect(after.detections).toEqual(alone.detections);
  }, 30_000);

  it('reads the same from raw frames as from the gzip chunk, and borders then struts apart as both at once', async () => {
    const frames = croppedFrames(20, 3);
    const both = await pool.detect({ ...geometry, gz: zlib.gzipSync(frames), carry: null });
    expect(both.stent).toHaveLength(3);
    const borders = await pool.detect({ ...geometry, raw: frames, carry: null, read: 'borders' });
    expect(borders.stent).toEqual([]);
    expect(borders.detections).toEqual(both.detections);
    expect(borders.carry).toEqual(both.carry);
    const struts = await pool.detect({ ...geometry, gz: zlib.gzipSync(frames), carry: null, read: 'stent' });
    expect(struts.detections).toEqual([]);
    expect(struts.stent).toEqual(both.stent);
    // The caller's raw frames were copied for the worker, not moved away from under it.
    expect(frames.length).toBe(3 * width * height);
  }, 30_000);

  it('fails the job with the reason when the chunk is not whole frames', async () => {
    await expect(pool.detect({ ...geometry, gz: zlib.gzipSync(new Uint8Array(width * height + 7)), carry: null })).rejects.toThrow(/whole 500x480 images/);
  });
});

import { gzipSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/domain/random.ts';
import { gunzipChunk } from '../../../src/server/contours/chunk-gunzip.ts';

/** 16 frames of 512 x 512 speckle-like bytes, as a stored B-mode chunk holds. */
function frames(seed: number, bytes = 16 * 512 * 512): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: bytes }, () => Math.floor(random() * random() * 256));
}

describe('a stored chunk unpacked on a contour worker', () => {
  it('gives the chunk its frames were packed from, byte for byte', () => {
    const raw = frames(23);
    const unpacked = gunzipChunk(gzipSync(raw, { level: 6 }));
    expect(unpacked.length).toBe(raw.length);
    expect(Buffer.compare(Buffer.from(unpacked), Buffer.from(raw))).toBe(0);
  });

  it('gives every member of a chunk packed in parts, though the trailer states only the last part', () => {
    const [a, b] = [frames(1, 300_000), frames(2, 70_000)];
    const unpacked = gunzipChunk(Buffer.concat([gzipSync(a), gzipSync(b)]));
    expect(Buffer.compare(Buffer.from(unpacked), Buffer.concat([a, b]))).toBe(0);
    expect(Buffer.compare(Buffer.from(unpacked), gunzipSync(Buffer.concat([gzipSync(a), gzipSync(b)])))).toBe(0);
  });

  it('refuses a chunk whose stated size is damaged, or that is not gzip at all', () => {
    const gz = gzipSync(frames(5, 100_000));
    gz[gz.length - 1] = 0x7f; // ISIZE now says about 2 GB
    expect(() => gunzipChunk(gz)).toThrow();
    expect(() => gunzipChunk(new Uint8Array([1, 2, 3]))).toThrow();
  });
});

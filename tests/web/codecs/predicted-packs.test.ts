/**
 * Packs whose frames the server predicted from the one before (issue 27) decode in the page to the
 * source gray byte for byte: consecutive frames (mostly predicted), frames out of order (alone), and
 * a mix; whole, in parts as they download, and the frame the review shows first taken early, whole
 * (never its residual). The server-side decode of the same pack agrees.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../../../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { decodePackToGray } from '../../../src/web/codecs/pack-to-gray.ts';
import { serverGrayOfPack } from '../../support/frame-pack-encoders.ts';
import { createNodeCodecs } from './node-codecs.ts';
import { decodeInParts } from './pack-parts.ts';

const SIDE = 256;
const renderer = createBmodeRenderer(createPullbackModel({ seed: 31, frameCount: 600, frameSizePx: SIDE, pixelSpacingMm: 0.02 }));

/** The frames of a pullback at these indices, one after another, and the server's pack of them. */
function chunkOf(indices: number[]): { gray: Uint8Array; pack: Uint8Array; predict: boolean[] } {
  const gray = new Uint8Array(indices.length * SIDE * SIDE);
  indices.forEach((index, k) => renderer.renderFrame(index, gray.subarray(k * SIDE * SIDE, (k + 1) * SIDE * SIDE)));
  const encoded = encodeGrayFrames(gray, SIDE, SIDE);
  return { gray, pack: buildFramePack(grayLosslessFormat(SIDE, SIDE), encoded.frames, encoded.predict), predict: encoded.predict };
}

const SEQUENCES = {
  consecutive: [200, 201, 202, 203, 204, 205],
  shuffled: [350, 120, 510, 40, 260, 430],
  mixed: [100, 101, 102, 480, 481, 30, 31, 32],
};

describe('a pack with frames predicted from the one before, decoded in the page', () => {
  const page = createNodeCodecs();
  beforeAll(() => initGrayEncoder());

  it.each(Object.entries(SEQUENCES))('%s frames: the source gray, byte for byte', async (kind, indices) => {
    const { gray, pack, predict } = chunkOf(indices);
    if (kind === 'consecutive') expect(predict).toEqual([false, true, true, true, true, true]);
    if (kind === 'shuffled') expect(predict.every((flag) => !flag)).toBe(true);
    if (kind === 'mixed') expect(predict).toEqual([false, true, true, false, true, false, true, true]);
    const shape = { width: SIDE, height: SIDE, frames: indices.length };
    expect(Buffer.from(await decodePackToGray(pack, shape, page)).equals(Buffer.from(gray))).toBe(true);
    expect(Buffer.from(await decodeInParts(pack, shape, page)).equals(Buffer.from(gray))).toBe(true);
    expect(Buffer.from(await serverGrayOfPack(pack)).equals(Buffer.from(gray))).toBe(true);
  });

  it('hands the frame shown first over whole, when it is a predicted one', async () => {
    const { gray, pack, predict } = chunkOf(SEQUENCES.mixed);
    expect(predict[4]).toBe(true);
    let taken: Uint8Array | null = null;
    const shape = { width: SIDE, height: SIDE, frames: SEQUENCES.mixed.length };
    await decodeInParts(pack, shape, page, { index: 4, take: (frame) => (taken = frame) });
    expect(taken).not.toBeNull();
    expect(Buffer.from(taken!).equals(Buffer.from(gray.subarray(4 * SIDE * SIDE, 5 * SIDE * SIDE)))).toBe(true);
  });
});

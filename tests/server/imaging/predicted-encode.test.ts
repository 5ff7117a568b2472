/**
 * The server's lossless encoding of gray frames for the frame pack (issue 27) predicts a frame from
 * the one before only where that codes smaller: a pullback's consecutive frames are mostly predicted
 * and the chunk shrinks; frames that are not neighbours (gated, shuffled, stitched) never come out
 * bigger than alone. Every pack decodes, as the server's tests and the page decode it, to the frames.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { evaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { frameSequence, type SequenceKind } from '../../../src/domain/synthetic/sequence-kinds.ts';
import { encodeGray, encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../../../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { decodePack } from '../../support/frame-chunks.ts';

const evaluation = evaluationCase('baseline', 2202);
const { frameWidth: columns, frameHeight: rows } = evaluation;

function framesOf(kind: SequenceKind): Uint8Array {
  const sequence = frameSequence(evaluation, kind, { length: 8 });
  const frames = new Uint8Array(sequence.frames.length * rows * columns);
  sequence.frames.forEach((_, k) => frames.set(sequence.render(k), k * rows * columns));
  return frames;
}

describe('gray frames encoded for the frame pack', () => {
  beforeAll(() => initGrayEncoder());

  it.each(['consecutive', 'gated', 'shuffled', 'stitched'] as const)('%s: no frame bigger than alone, decoding to the frames exactly', async (kind) => {
    const frames = framesOf(kind);
    const encoded = encodeGrayFrames(frames, rows, columns);
    const size = rows * columns;
    const alone = encoded.frames.map((_, k) => encodeGray(frames.subarray(k * size, (k + 1) * size), rows, columns).length);
    encoded.frames.forEach((frame, k) => expect(frame.length, `frame ${k}`).toBeLessThanOrEqual(alone[k]!));
    expect(encoded.predict[0]).toBe(false);
    const predicted = encoded.predict.filter(Boolean).length;
    const total = encoded.frames.reduce((sum, frame) => sum + frame.length, 0);
    const totalAlone = alone.reduce((sum, bytes) => sum + bytes, 0);
    if (kind === 'consecutive') {
      expect(predicted).toBe(7);
      expect(total).toBeLessThan(0.9 * totalAlone);
    }
    if (kind === 'gated') expect(predicted).toBe(0);
    const decoded = await decodePack(buildFramePack(grayLosslessFormat(rows, columns), encoded.frames, encoded.predict));
    expect(Buffer.concat(decoded).equals(Buffer.from(frames))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { shownFrameFor } from '../../../../src/web/review/panels/shown-frame.ts';

/** A 512 x 512 frame of pixels made from `seed`, at `offset` in a buffer of `frames` frames (a chunk). */
function frameIn(seed: number, frames = 1, offset = 0): Uint8Array {
  const size = 512 * 512;
  const chunk = new Uint8Array(size * frames);
  const frame = chunk.subarray(offset * size, (offset + 1) * size);
  for (let i = 0; i < size; i++) frame[i] = (i * 31 + seed * 7) & 0xff;
  return frame;
}

describe("whether a panel's new frame is the one on its texture (issue 27: no second upload of the first frame)", () => {
  it('the first frame stored alone, then its chunk with the same pixels: moved, not uploaded again', () => {
    const alone = frameIn(3);
    const inChunk = frameIn(3, 16, 0);
    expect(shownFrameFor('bmode', 0, 0, inChunk, alone)).toBe('moved');
    expect(shownFrameFor('angio', 5, 5, inChunk, alone)).toBe('moved');
  });

  it('another view of the same bytes is the same frame, whatever the slice (an angio frame spans many slices)', () => {
    const chunk = frameIn(1, 16, 2);
    const again = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    expect(shownFrameFor('angio', 40, 41, again, chunk)).toBe('same');
  });

  it('different pixels at the same slice are drawn', () => {
    const shown = frameIn(3);
    const other = frameIn(3, 16, 0);
    other[512 * 512 - 1]! ^= 1;
    expect(shownFrameFor('bmode', 0, 0, other, shown)).toBe('other');
  });

  it('a new slice is never compared, even with equal pixels (playback pays no comparison)', () => {
    expect(shownFrameFor('bmode', 0, 1, frameIn(3, 16, 1), frameIn(3))).toBe('other');
  });

  it('the L-mode (one buffer filled in place) and black (no bytes) are not treated as moved', () => {
    expect(shownFrameFor('lmode', 0, 0, frameIn(3), frameIn(3))).toBe('other');
    expect(shownFrameFor('bmode', 0, 0, frameIn(3), null)).toBe('other');
    expect(shownFrameFor('bmode', 0, 0, null, null)).toBe('same');
  });
});

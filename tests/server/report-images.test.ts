/**
 * The report's L-mode read from a record's stored chunks (issue 26): every column is the centre row
 * of its slice, and a 3,600-frame record is read one chunk at a time, never all at once.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FRAMES_PER_CHUNK } from '../../src/domain/images.ts';
import { LMODE_MAX_COLUMNS } from '../../src/domain/reports/report-lmode.ts';
import type { RecordRow } from '../../src/server/db/records.ts';
import { reportLMode } from '../../src/server/http/report-images.ts';

/** Stored chunks whose frame i has the value i mod 251 on its centre row and 255 elsewhere; counts the chunks being read at once. */
function storedChunks(frameCount: number, width: number, height: number) {
  const reads: number[] = [];
  let open = 0;
  let mostOpen = 0;
  const imaging = {
    async chunk(_record: RecordRow, series: string, index: number) {
      expect(series).toBe('bmode');
      open++;
      mostOpen = Math.max(mostOpen, open);
      reads.push(index);
      const frames = Math.min(FRAMES_PER_CHUNK, frameCount - index * FRAMES_PER_CHUNK);
      const pixels = new Uint8Array(frames * width * height).fill(255);
      for (let k = 0; k < frames; k++) pixels.fill((index * FRAMES_PER_CHUNK + k) % 251, k * width * height + Math.floor(height / 2) * width, k * width * height + (Math.floor(height / 2) + 1) * width);
      const gz = zlib.gzipSync(pixels, { level: 1 });
      await new Promise((resolve) => setImmediate(resolve));
      open--;
      return gz;
    },
  };
  return { imaging, reads, mostOpen: () => mostOpen };
}

const recordOf = (bmodeFrameCount: number, frameWidth: number, frameHeight: number) => ({ bmodeFrameCount, frameWidth, frameHeight }) as RecordRow;

describe('the L-mode of a stored record', () => {
  it('is the centre row of each slice', async () => {
    const { imaging, reads } = storedChunks(40, 32, 24);
    const lmode = await reportLMode(imaging, recordOf(40, 32, 24));
    expect(lmode!.sliceCount).toBe(40);
    expect([lmode!.image.width, lmode!.image.height]).toEqual([40, 32]);
    for (const slice of [0, 17, 39]) expect(lmode!.image.pixels[5 * 40 + slice]).toBe(slice);
    expect(reads).toEqual([0, 1, 2]);
  });

  it('reads a 3,600-frame record one chunk at a time, and is bounded to its column limit', async () => {
    const { imaging, reads, mostOpen } = storedChunks(3600, 64, 64);
    const lmode = await reportLMode(imaging, recordOf(3600, 64, 64));
    expect(lmode!.image.width).toBe(LMODE_MAX_COLUMNS);
    expect(mostOpen()).toBe(1);
    expect(reads).toHaveLength(3600 / FRAMES_PER_CHUNK);
    // Column 400 shows slice 1200 (every third slice).
    expect(lmode!.image.pixels[400]).toBe(1200 % 251);
  });

  it('is absent for a record without a pullback', async () => {
    const { imaging, reads } = storedChunks(0, 8, 8);
    expect(await reportLMode(imaging, recordOf(0, 8, 8))).toBeUndefined();
    expect(reads).toEqual([]);
  });
});

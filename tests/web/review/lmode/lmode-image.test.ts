import { describe, expect, it } from 'vitest';
import { LmodeImage } from '../../../../src/web/review/lmode/lmode-image.ts';

/** Frame i of a 3 x 3 stack: every pixel is 10 * (i + 1) plus its column. */
const frame = (i: number) => Uint8Array.from({ length: 9 }, (_, p) => 10 * (i + 1) + (p % 3));
const columnOf = (image: LmodeImage, i: number) => Array.from({ length: image.height }, (_, k) => image.data[k * image.width + i]);

describe('LmodeImage', () => {
  it('fills the columns of loaded frames only, and the others as they arrive', () => {
    const image = new LmodeImage(3, 3, 4, 0);
    const loaded = new Set([0, 2]);
    expect(image.fill((i) => (loaded.has(i) ? frame(i) : null))).toBe(true);
    expect(columnOf(image, 0)).toEqual([10, 11, 12]);
    expect(columnOf(image, 1)).toEqual([0, 0, 0]);
    expect(columnOf(image, 2)).toEqual([30, 31, 32]);
    expect(columnOf(image, 3)).toEqual([0, 0, 0]);
    const revision = image.revision;
    expect(image.fill((i) => (loaded.has(i) ? frame(i) : null))).toBe(false);
    expect(image.revision).toBe(revision);
    loaded.add(1).add(3);
    expect(image.fill((i) => (loaded.has(i) ? frame(i) : null))).toBe(true);
    expect(columnOf(image, 3)).toEqual([40, 41, 42]);
    expect(image.complete).toBe(true);
  });

  it('samples every loaded frame again at a new angle', () => {
    const image = new LmodeImage(3, 3, 2, 0);
    const source = (i: number) => (i === 0 ? frame(i) : null);
    image.fill(source);
    const revision = image.revision;
    image.setAngle(Math.PI / 2, source);
    expect(image.revision).toBeGreaterThan(revision);
    // At 90° the column runs down the frame's middle column: every row reads 10 + 1.
    expect(columnOf(image, 0)).toEqual([11, 11, 11]);
    expect(columnOf(image, 1)).toEqual([0, 0, 0]);
  });
});

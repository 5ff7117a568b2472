import { describe, expect, it } from 'vitest';
import type { RecordImages } from '../../../../src/domain/images.ts';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { PageLmode } from '../../../../src/web/review/lmode/page-lmode.ts';
import { testRecordImages } from '../../record-images-fixture.ts';

const W = 3;
const images = (bmode: number): RecordImages => testRecordImages({ bmode, size: W, framesPerChunk: 2 });
/** Two frames whose every pixel is 10 * (frame number + 1). */
const chunk = (first: number) => Uint8Array.from({ length: 2 * W * W }, (_, p) => 10 * (first + Math.floor(p / (W * W)) + 1));
const row = (lmode: PageLmode, k: number) => [...lmode.image!.data.subarray(k * lmode.image!.width, (k + 1) * lmode.image!.width)];

describe('the L-mode built from the image store', () => {
  it('fills columns as chunks arrive, and recomputes at a new angle', () => {
    const store = new ImageStore();
    const lmode = new PageLmode(store);
    expect(lmode.refresh(90)).toBe(false);
    expect(lmode.image).toBeNull();
    store.setImages(images(4));
    lmode.refresh(90);
    expect(row(lmode, 1)).toEqual([0, 0, 0, 0]);
    store.addChunk('bmode', 1, chunk(2));
    lmode.refresh(90);
    expect(row(lmode, 1)).toEqual([0, 0, 30, 40]);
    store.addChunk('bmode', 0, chunk(0));
    lmode.refresh(90);
    expect(row(lmode, 1)).toEqual([10, 20, 30, 40]);
    expect(lmode.image!.complete).toBe(true);
    expect(lmode.refresh(0)).toBe(true);
    expect(row(lmode, 1)).toEqual([10, 20, 30, 40]);
  });

  it('has no image for a record without B-mode frames', () => {
    const store = new ImageStore();
    store.setImages(images(0));
    const lmode = new PageLmode(store);
    lmode.refresh(90);
    expect(lmode.image).toBeNull();
  });
});

describe('the L-mode panel while gated (issue 28)', () => {
  it('shows the gated L-mode while gated frames are set, tells the panel, and the L-mode again when cleared', () => {
    const store = new ImageStore();
    store.setImages(images(4));
    store.addChunk('bmode', 0, chunk(0));
    store.addChunk('bmode', 1, chunk(2));
    const lmode = new PageLmode(store);
    lmode.refresh(90);
    const shownRow = (k: number) => {
      const shown = lmode.shown()!;
      return [...shown.data.subarray(k * shown.width, (k + 1) * shown.width)];
    };
    expect(shownRow(1)).toEqual([10, 20, 30, 40]);
    let redraws = 0;
    const unsubscribe = lmode.subscribeGating(() => redraws++);
    const before = lmode.shown()!.revision;
    lmode.setGatedFrames([0, 2]);
    expect(redraws).toBe(1);
    expect(shownRow(1)).toEqual([10, 10, 30, 30]);
    // A new revision: the panel uploads its texture again.
    expect(lmode.shown()!.revision).not.toBe(before);
    lmode.setGatedFrames([1]);
    expect(shownRow(1)).toEqual([20, 20, 20, 20]);
    lmode.setGatedFrames(null);
    expect(redraws).toBe(3);
    expect(shownRow(1)).toEqual([10, 20, 30, 40]);
    expect(lmode.shown()!.data).toBe(lmode.image!.data);
    unsubscribe();
  });
});

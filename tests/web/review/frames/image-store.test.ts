import { describe, expect, it, vi } from 'vitest';
import type { RecordImages } from '../../../../src/domain/images.ts';
import type { ApiClient } from '../../../../src/web/api/api-client.ts';
import { describeChunk, loadRecordFrames } from '../../../../src/web/review/frames/frame-loader.ts';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { testRecordImages } from '../../record-images-fixture.ts';

const W = 4; // tiny frames keep the tests readable
const images = (bmode: number, angio: number): RecordImages => testRecordImages({ bmode, angio, size: W });
/** A chunk whose every pixel holds its frame number, so views can be checked. */
function chunkBytes(first: number, count: number): Uint8Array {
  const bytes = new Uint8Array(count * W * W);
  for (let k = 0; k < count; k++) bytes.fill((first + k) % 256, k * W * W, (k + 1) * W * W);
  return bytes;
}

describe('image store', () => {
  it('counts slices to the longer series and keeps the slice within them', () => {
    const store = new ImageStore();
    store.setImages(images(40, 60));
    expect(store.getSnapshot()).toMatchObject({ slice: 1, sliceCount: 60 });
    store.setSlice(100);
    expect(store.getSnapshot().slice).toBe(60);
    store.setSlice(-3);
    expect(store.getSnapshot().slice).toBe(1);
  });

  it('moves the slice and counts a playback tick in one change: every listener runs once per tick', () => {
    const store = new ImageStore();
    store.setImages(images(40, 0));
    const listener = vi.fn();
    store.subscribe(listener);
    store.playTo(7);
    expect(store.getSnapshot()).toMatchObject({ slice: 7, playCounter: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    // Clamped as any move is; a tick that stays on its slice is still counted.
    store.playTo(41.4);
    store.playTo(40);
    expect(store.getSnapshot()).toMatchObject({ slice: 40, playCounter: 3 });
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('hands out views of each frame without copying, once its chunk has arrived', () => {
    const store = new ImageStore();
    store.setImages(images(40, 10));
    expect(store.bmodeFrameAt(18)).toBeNull();
    const chunk = chunkBytes(16, 16);
    store.addChunk('bmode', 1, chunk);
    const frame = store.bmodeFrameAt(18)!;
    expect([...frame]).toEqual(new Array(W * W).fill(17));
    expect(frame.buffer).toBe(chunk.buffer);
    expect(store.getSnapshot()).toMatchObject({ bmodeLoaded: 16 });
  });

  it('keys angio images by slice', () => {
    const store = new ImageStore();
    store.setImages(images(32, 8));
    store.addChunk('angio', 0, chunkBytes(0, 8));
    expect(store.angioFrameAt(1)![0]).toBe(0);
    expect(store.angioFrameAt(16)![0]).toBe(3);
    expect(store.angioFrameAt(32)![0]).toBe(7);
  });

  it('refuses a chunk of the wrong size, and notifies subscribers of what arrives', () => {
    const store = new ImageStore();
    store.setImages(images(20, 0));
    const listener = vi.fn();
    store.subscribe(listener);
    expect(() => store.addChunk('bmode', 1, new Uint8Array(5))).toThrow(/has 5 bytes/);
    store.addChunk('bmode', 1, chunkBytes(16, 4));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().bmodeLoaded).toBe(4);
  });

  it('resets to slice 1 with every image cleared', () => {
    const store = new ImageStore();
    store.setImages(images(40, 10));
    store.addChunk('bmode', 0, chunkBytes(0, 16));
    store.setSlice(9);
    store.reset();
    expect(store.getSnapshot()).toMatchObject({ slice: 1, sliceCount: 0, bmodeLoaded: 0 });
    expect(store.bmodeFrameAt(1)).toBeNull();
  });
});

describe('frame loader', () => {
  it("asks for the current slice's B-mode chunk first, urgently, then the B-mode chunks Play needs, then the angio's, following the slice (issue 27)", async () => {
    const list = images(160, 64);
    const store = new ImageStore();
    store.setImages(list);
    store.setSlice(81); // B-mode chunk 5; angio frame 32, chunk 2
    const asked: string[] = [];
    const api = {
      getBytes: vi.fn(async (path: string, options: { urgent?: boolean }) => {
        const [, series, index] = /frames\/(\w+)\/(\d+)/.exec(path)!;
        asked.push(`${series}/${index}${options.urgent ? ' urgent' : ''}`);
        // The clinician jumps to the first slice while the chunks around slice 81 load.
        if (path.includes('bmode/4')) store.setSlice(1);
        const count = Math.min(16, (series === 'bmode' ? 160 : 64) - Number(index) * 16);
        return chunkBytes(Number(index) * 16, count);
      }),
    } as unknown as ApiClient;
    await loadRecordFrames(api, list, store, { onBusy: () => {}, onFailed: () => {} }, new AbortController().signal);
    // The angio panel starts only once Play is ready: its chunk no longer goes before the 100 B-mode frames Play waits for.
    expect(asked.slice(0, 8)).toEqual(['bmode/5 urgent', 'bmode/4', 'bmode/0', 'bmode/1', 'bmode/2', 'bmode/3', 'bmode/6', 'angio/0']);
    expect(store.getSnapshot()).toMatchObject({ bmodeLoaded: 160, angioLoaded: 64 });
  });

  it('asks for the angiography run\'s first chunk urgently when there is no pullback (Play then plays the run)', async () => {
    const list = images(0, 64);
    const store = new ImageStore();
    store.setImages(list);
    const asked: string[] = [];
    const api = {
      getBytes: vi.fn(async (path: string, options: { urgent?: boolean }) => {
        const [, , index] = /frames\/(\w+)\/(\d+)/.exec(path)!;
        asked.push(`${/angio/.test(path) ? 'angio' : 'bmode'}/${index}${options.urgent ? ' urgent' : ''}`);
        return chunkBytes(Number(index) * 16, 16);
      }),
    } as unknown as ApiClient;
    await loadRecordFrames(api, list, store, { onBusy: () => {}, onFailed: () => {} }, new AbortController().signal);
    expect(asked).toEqual(['angio/0 urgent', 'angio/1', 'angio/2', 'angio/3']);
    expect(store.getSnapshot()).toMatchObject({ bmodeLoaded: 0, angioLoaded: 64 });
  });

  it("loads the B-mode Play needs, and the rest, while the angio's first chunk is still being made (issue 27)", async () => {
    const list = images(160, 64);
    const store = new ImageStore();
    store.setImages(list);
    const asked: string[] = [];
    let angioReady!: () => void;
    const angioMade = new Promise<void>((resolve) => (angioReady = resolve));
    const api = {
      getBytes: vi.fn(async (path: string) => {
        const [, series, index] = /frames\/(\w+)\/(\d+)/.exec(path)!;
        asked.push(`${series}/${index}`);
        // The server is still making the angio's first chunk.
        if (path.includes('angio/0')) await angioMade;
        const count = Math.min(16, (series === 'bmode' ? 160 : 64) - Number(index) * 16);
        return chunkBytes(Number(index) * 16, count);
      }),
    } as unknown as ApiClient;
    const loading = loadRecordFrames(api, list, store, { onBusy: () => {}, onFailed: () => {} }, new AbortController().signal);
    // Play needs 100 B-mode frames: they all come while the angio's first chunk is being made.
    await vi.waitFor(() => expect(store.getSnapshot().bmodeLoaded).toBe(160));
    // ...and the angio's other chunks: only its first is missing.
    await vi.waitFor(() => expect(store.getSnapshot().angioLoaded).toBe(48));
    expect(asked.slice(0, 8)).toEqual([...[0, 1, 2, 3, 4, 5, 6].map((index) => `bmode/${index}`), 'angio/0']);
    angioReady();
    await loading;
    expect(store.getSnapshot()).toMatchObject({ bmodeLoaded: 160, angioLoaded: 64, downloading: false });
  });

  it('loads every chunk into the store, never asks the server for an L-mode image, and reports what failed', async () => {
    const list = images(40, 10);
    const store = new ImageStore();
    store.setImages(list);
    const asked: string[] = [];
    const api = {
      getBytes: vi.fn(async (path: string) => {
        asked.push(path);
        if (path.includes('bmode/1')) throw new Error('500');
        const [, series, index] = /frames\/(\w+)\/(\d+)/.exec(path)!;
        const count = Math.min(16, (series === 'bmode' ? 40 : 10) - Number(index) * 16);
        return chunkBytes(Number(index) * 16, count);
      }),
    } as unknown as ApiClient;
    const busy: boolean[] = [];
    const failed: string[] = [];
    await loadRecordFrames(api, list, store, { onBusy: (b) => busy.push(b), onFailed: (s, c) => failed.push(describeChunk(list, s, c)) }, new AbortController().signal);
    expect(store.getSnapshot()).toMatchObject({ bmodeLoaded: 24, angioLoaded: 10, downloading: false });
    expect(asked.filter((path) => path.includes('lmode'))).toEqual([]);
    expect(failed).toEqual(['frames 17–32 (B-mode)']);
    expect(busy).toEqual([true, false]);
  });
});

describe('a frame ahead of its chunk (issue 27: the first image shows before its chunk is decoded)', () => {
  it('is shown and counted once, then replaced by its chunk without counting it twice', () => {
    const store = new ImageStore();
    store.setImages(images(20, 0));
    const versions: number[] = [];
    store.subscribe(() => versions.push(store.getSnapshot().dataVersion));
    store.addFrame('bmode', 2, new Uint8Array(W * W).fill(2));
    expect(store.bmodeFrameAt(3)![0]).toBe(2);
    expect(store.hasFrame('bmode', 1)).toBe(false);
    expect(store.getSnapshot().bmodeLoaded).toBe(1);
    // Panels redraw: the data changed.
    expect(versions).toHaveLength(1);
    store.addChunk('bmode', 0, chunkBytes(0, 16));
    expect(store.getSnapshot().bmodeLoaded).toBe(16);
    expect(store.bmodeFrameAt(3)![0]).toBe(2);
    expect(store.bmodeFrameAt(2)![0]).toBe(1);
    // A frame whose chunk is in already, or one past the series, changes nothing.
    store.addFrame('bmode', 5, new Uint8Array(W * W).fill(99));
    store.addFrame('bmode', 20, new Uint8Array(W * W));
    expect(store.bmodeFrameAt(6)![0]).toBe(5);
    expect(store.getSnapshot().bmodeLoaded).toBe(16);
  });

  it('refuses a frame of the wrong size and keeps nothing of it', () => {
    const store = new ImageStore();
    store.setImages(images(20, 0));
    expect(() => store.addFrame('bmode', 0, new Uint8Array(W * W + 1))).toThrow(RangeError);
    expect(store.hasFrame('bmode', 0)).toBe(false);
    expect(store.getSnapshot().bmodeLoaded).toBe(0);
  });

  it('drops it when the record is left', () => {
    const store = new ImageStore();
    store.setImages(images(20, 0));
    store.addFrame('bmode', 0, new Uint8Array(W * W).fill(7));
    store.reset();
    store.setImages(images(20, 0));
    expect(store.hasFrame('bmode', 0)).toBe(false);
    expect(store.getSnapshot().bmodeLoaded).toBe(0);
  });
});

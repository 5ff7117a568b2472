/**
 * A record whose chunks are frame packs: the loader hands each pack to the decode workers and
 * stores the gray chunk they give back; a pack that cannot be decoded is a failed chunk (the
 * review names its frames as missing) while the others still show; gray8 series are stored as
 * they come. The workers run the real decode (in the test's thread).
 */
import { describe, expect, it, vi } from 'vitest';
import { buildFramePack } from '../../../../src/domain/pixels/frame-pack.ts';
import type { ApiClient, ByteSink } from '../../../../src/web/api/api-client.ts';
import { createFrameDecodePool } from '../../../../src/web/codecs/decode-pool.ts';
import { loadRecordFrames } from '../../../../src/web/review/frames/frame-loader.ts';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { FakeDecodeWorker } from '../../codecs/fake-decode-worker.ts';
import { GRAY_FORMAT } from '../../codecs/gray-format.ts';
import { testRecordImages } from '../../record-images-fixture.ts';

const FRAME_BYTES = 24;
/** Frame k's gray: distinct per frame, so a chunk stored at the wrong place shows. */
const frame = (k: number) => Uint8Array.from({ length: FRAME_BYTES }, (_, i) => (k * 7 + i * 3 + 1) & 0xff);

function recordWithPacks() {
  const base = testRecordImages({ bmode: 20, angio: 6, framesPerChunk: 8 });
  // 6 x 4 frames; the B-mode comes as packs, the angio as gray8 bytes.
  return { ...base, bmode: { ...base.bmode, width: 6, height: 4, chunkFormat: 'frame-pack' as const }, angio: { ...base.angio, width: 6, height: 4 } };
}

/** A signed-in user's token: issuer and subject name their frames cache. */
const TOKEN = ['{"alg":"none"}', '{"iss":"https://id.example","sub":"u1"}', ''].map((part) => Buffer.from(part).toString('base64url')).join('.');

/** Answers each chunk from `bodies`; a frame pack in parts of 10 bytes where the loader takes a body as it arrives. */
function fakeApi(bodies: Map<string, Uint8Array>): ApiClient {
  return {
    getBytes: async (resource: string, options?: { body?: ByteSink }) => {
      const body = bodies.get(resource);
      if (!body) throw new Error(`no ${resource}`);
      if (!options?.body) return body.slice();
      options.body.begin();
      for (let at = 0; at < body.length; at += 10) options.body.part(body.slice(at, at + 10));
      return new Uint8Array(0);
    },
    authorization: () => `Bearer ${TOKEN}`,
    url: (resource: string) => `/api/demo/${resource}`,
  } as unknown as ApiClient;
}

describe('loading a record of frame packs', () => {
  it('stores the decoded gray of every pack and fails only the damaged one', async () => {
    const images = recordWithPacks();
    const bodies = new Map<string, Uint8Array>();
    images.bmode.chunks.forEach((url, c) => {
      const frames = Array.from({ length: Math.min(8, 20 - 8 * c) }, (_, f) => frame(8 * c + f));
      const pack = buildFramePack(GRAY_FORMAT, frames);
      // The middle chunk arrives cut short.
      bodies.set(url, c === 1 ? pack.subarray(0, pack.length - 5) : pack);
    });
    bodies.set(images.angio.chunks[0]!, Uint8Array.from({ length: 6 * FRAME_BYTES }, (_, i) => i & 0xff));
    const store = new ImageStore();
    store.setImages(images);
    const workers: FakeDecodeWorker[] = [];
    const pool = createFrameDecodePool(2, () => {
      const worker = new FakeDecodeWorker();
      workers.push(worker);
      return worker;
    });
    const onFailed = vi.fn();

    await loadRecordFrames(fakeApi(bodies), images, store, { onBusy: () => {}, onFailed }, new AbortController().signal, pool);

    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(onFailed.mock.calls[0]!.slice(0, 2)).toEqual(['bmode', 1]);
    expect(String(onFailed.mock.calls[0]![2])).toMatch(/frame pack/);
    for (const k of [0, 7, 16, 19]) expect(Array.from(store.frame('bmode', k)!)).toEqual(Array.from(frame(k)));
    for (const k of [8, 15]) expect(store.frame('bmode', k)).toBeNull();
    expect(store.getSnapshot().bmodeLoaded).toBe(12);
    // The angio's gray8 bytes are stored as they came, without a worker.
    expect(store.frame('angio', 5)![0]).toBe((5 * FRAME_BYTES) & 0xff);
    // Each pack went to a worker as it arrived, told to keep it in the user's frames cache under its URL.
    const opened = workers.flatMap((worker) => worker.received).filter((m) => m.kind === 'open');
    expect(opened.map((m) => m.kind === 'open' && m.keep)).toEqual(
      images.bmode.chunks.map(() => expect.objectContaining({ cache: 'ivus-frames-v2 https://id.example u1' })),
    );
    expect(new Set(opened.map((m) => m.kind === 'open' && m.keep && m.keep.url))).toEqual(new Set(images.bmode.chunks.map((chunk) => `/api/demo/${chunk}`)));
    pool.dispose();
  });

  it('drops what the workers had not decoded when the review is left, without reporting failures', async () => {
    const images = recordWithPacks();
    const bodies = new Map<string, Uint8Array>();
    images.bmode.chunks.forEach((url, c) => bodies.set(url, buildFramePack(GRAY_FORMAT, Array.from({ length: Math.min(8, 20 - 8 * c) }, (_, f) => frame(8 * c + f)))));
    bodies.set(images.angio.chunks[0]!, new Uint8Array(6 * FRAME_BYTES));
    const store = new ImageStore();
    store.setImages(images);
    const controller = new AbortController();
    const pool = createFrameDecodePool(1, () => new FakeDecodeWorker());
    const onFailed = vi.fn();
    const loading = loadRecordFrames(fakeApi(bodies), images, store, { onBusy: () => {}, onFailed }, controller.signal, pool);
    controller.abort();
    pool.dispose();
    await loading;
    expect(onFailed).not.toHaveBeenCalled();
  });
});

/** Packs of frames 0..19 by chunks of 8, as the server makes them. */
function packBodies(images: ReturnType<typeof recordWithPacks>): Map<string, Uint8Array> {
  const bodies = new Map<string, Uint8Array>();
  images.bmode.chunks.forEach((url, c) => bodies.set(url, buildFramePack(GRAY_FORMAT, Array.from({ length: Math.min(8, 20 - 8 * c) }, (_, f) => frame(8 * c + f)))));
  bodies.set(images.angio.chunks[0]!, new Uint8Array(6 * FRAME_BYTES));
  return bodies;
}

/** A pool of two workers whose packs' ends (their whole gray) are held until the test releases them. */
function poolHoldingEnds() {
  const held: { frames: number; release: () => void }[] = [];
  const pool = createFrameDecodePool(2, () => new FakeDecodeWorker());
  const open = pool.open.bind(pool);
  pool.open = (shape, keep, first) => {
    const stream = open(shape, keep, first);
    return {
      ...stream,
      push: (part) => stream.push(part),
      restart: () => stream.restart(),
      cancel: () => stream.cancel(),
      end: () => {
        const decoded = stream.end();
        return new Promise<Uint8Array>((resolve, reject) => held.push({ frames: shape.frames, release: () => decoded.then(resolve, reject) }));
      },
    };
  };
  return { pool, held };
}

describe('the first chunks of a record of frame packs', () => {
  it('asks for the next chunks once the first are downloaded, while their decode is still under way (issue 27)', async () => {
    const images = recordWithPacks();
    const bodies = packBodies(images);
    const asked: string[] = [];
    const api = fakeApi(bodies);
    const getBytes = api.getBytes.bind(api);
    api.getBytes = ((resource: string, options?: { body?: ByteSink }) => {
      asked.push(resource);
      return getBytes(resource, options as never);
    }) as ApiClient['getBytes'];
    // Each pack's decode is held until the test lets it finish.
    const { pool, held } = poolHoldingEnds();
    const store = new ImageStore();
    store.setImages(images);

    const loading = loadRecordFrames(api, images, store, { onBusy: () => {}, onFailed: () => {} }, new AbortController().signal, pool);
    await vi.waitFor(() => expect(asked).toEqual(expect.arrayContaining(images.bmode.chunks)));
    // Every B-mode chunk was asked for while the first one's frames were not decoded yet.
    expect(asked[0]).toBe(images.bmode.chunks[0]);
    // Only the frame shown at the slice is in (it does not wait for its chunk).
    expect(store.getSnapshot().bmodeLoaded).toBe(1);
    expect(held).toHaveLength(images.bmode.chunks.length);

    for (const pack of held) pack.release();
    await loading;
    expect(store.getSnapshot().bmodeLoaded).toBe(20);
    for (const k of [0, 8, 19]) expect(Array.from(store.frame('bmode', k)!)).toEqual(Array.from(frame(k)));
    pool.dispose();
  });

  it('stores the frame shown at the slice as soon as it is decoded, while the rest of its chunk is not (issue 27)', async () => {
    const images = recordWithPacks();
    const { pool, held } = poolHoldingEnds();
    const store = new ImageStore();
    store.setImages(images);
    store.setSlice(11);
    const loading = loadRecordFrames(fakeApi(packBodies(images)), images, store, { onBusy: () => {}, onFailed: () => {} }, new AbortController().signal, pool);
    await vi.waitFor(() => expect(held).toHaveLength(images.bmode.chunks.length));
    await vi.waitFor(() => expect(store.hasFrame('bmode', 10)).toBe(true));
    expect(Array.from(store.bmodeFrameAt(11)!)).toEqual(Array.from(frame(10)));
    for (const k of [0, 8, 9, 11, 15]) expect(store.hasFrame('bmode', k)).toBe(false);
    expect(store.getSnapshot().bmodeLoaded).toBe(1);

    for (const pack of held) pack.release();
    await loading;
    expect(store.getSnapshot().bmodeLoaded).toBe(20);
    for (const k of [8, 10, 11, 15]) expect(Array.from(store.frame('bmode', k)!)).toEqual(Array.from(frame(k)));
    pool.dispose();
  });

  it('keeps no frame that is decoded after the record was left', async () => {
    const images = recordWithPacks();
    const store = new ImageStore();
    store.setImages(images);
    const controller = new AbortController();
    const pool = createFrameDecodePool(1, () => new FakeDecodeWorker());
    const open = pool.open.bind(pool);
    // The record is left as soon as the first pack's bytes are all with the worker, before it has decoded any.
    pool.open = (shape, keep, first) => {
      const stream = open(shape, keep, first);
      return { ...stream, end: () => (controller.abort(), stream.end()) };
    };
    await loadRecordFrames(fakeApi(packBodies(images)), images, store, { onBusy: () => {}, onFailed: () => {} }, controller.signal, pool);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getSnapshot().bmodeLoaded).toBe(0);
    expect(store.hasFrame('bmode', 0)).toBe(false);
    pool.dispose();
  });
});

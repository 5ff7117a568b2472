import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { createFrameWorkerPool, type FrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { chunkKey, framePackKey, RecordImaging } from '../../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../../src/server/storage/blob-store.ts';
import { memoryStore } from '../memory-store.ts';
import { smallDemoRecord } from '../small-demo-record.ts';
import { notingRenders } from './noting-renders.ts';

/**
 * Issue 27: when the app sends a demo chunk itself, the page's request is answered as soon as the
 * chunk is made, not after the store has it (100–420 ms a chunk on a first open); whatever needs the
 * stored object (a signed URL, the complete marker) still waits for the store.
 */

const record = (id: string, bmodeFrameCount = 16): RecordRow => smallDemoRecord({ id, demoSeed: 11, bmodeFrameCount, chunkFormat: 'frame-pack' }, 128);

/** A memory store whose puts wait until `release()`, or fail while `failing` is set. */
function heldStore(): BlobStore & { keys(): string[]; puts: string[]; release(): void; putAsked: Promise<void>; failing: boolean } {
  const inner = memoryStore();
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const putAsked = new Promise<void>((resolve) => (asked = resolve));
  const store = {
    ...inner,
    puts: [] as string[],
    failing: false,
    release,
    putAsked,
    put: async (key: string, data: Buffer | Uint8Array, headers?: unknown) => {
      asked();
      await open;
      if (store.failing) throw new Error('the store is down');
      store.puts.push(key);
      return inner.put(key, data, headers as never);
    },
  };
  return store;
}

/** Resolves to what `answer` gives, or to a note if it is still waiting a while after the store was asked to put. */
const answeredWhileStoring = <T>(answer: Promise<T>, store: { putAsked: Promise<void> }) =>
  Promise.race([answer, store.putAsked.then(() => new Promise<string>((resolve) => setTimeout(() => resolve('still waiting for the store'), 3000)))]);

describe('a demo chunk the app sends itself', () => {
  let pool: FrameWorkerPool;
  beforeAll(() => {
    pool = createFrameWorkerPool(1);
  });
  afterAll(() => pool.close());

  it('is answered before the store has it, and what is stored after is what was sent', async () => {
    const store = heldStore();
    const imaging = new RecordImaging(store, pool, { error: () => {} } as unknown as FastifyBaseLogger);
    const opened = record('00000000-0000-4000-8000-0000000000a1');
    const sent = await answeredWhileStoring(imaging.framePack(opened, 'bmode', 0, 'urgent'), store);
    expect(sent).toBeInstanceOf(Buffer);
    expect(store.keys()).toEqual([]);
    store.release();
    await imaging.generateAll(opened, 'background');
    expect(await store.get(framePackKey(opened, 'bmode', 0))).toEqual(sent);
  });

  it('gives a request that comes while it is being stored the same bytes, made once', async () => {
    const store = heldStore();
    const { renders, pool: noted } = notingRenders(pool);
    const imaging = new RecordImaging(store, noted, { error: () => {} } as unknown as FastifyBaseLogger);
    const opened = record('00000000-0000-4000-8000-0000000000a2');
    const first = await answeredWhileStoring(imaging.framePack(opened, 'bmode', 0, 'urgent'), store);
    const second = await answeredWhileStoring(imaging.framePack(opened, 'bmode', 0, 'demand'), store);
    expect(first).toBeInstanceOf(Buffer);
    expect(second).toEqual(first);
    expect(renders).toEqual(['bmode 0']);
    store.release();
  });

  it('is located for the store to deliver (a signed URL) only once it is stored', async () => {
    const store = heldStore();
    const imaging = new RecordImaging(store, pool, { error: () => {} } as unknown as FastifyBaseLogger);
    const opened = record('00000000-0000-4000-8000-0000000000a3');
    let located = false;
    const location = imaging.storedChunk(opened, 'bmode', 0, 'urgent').then((stored) => {
      located = true;
      return stored;
    });
    // The page's own request for the same chunk is answered meanwhile; the URL is not handed out.
    await answeredWhileStoring(imaging.framePack(opened, 'bmode', 0, 'demand'), store);
    expect(located).toBe(false);
    store.release();
    const stored = await location;
    expect(stored.key).toBe(framePackKey(opened, 'bmode', 0));
    expect(store.keys()).toContain(stored.key);
  });

  it('still answers the page when storing fails, logs it, and is made again for the next request', async () => {
    const store = heldStore();
    const errors: string[] = [];
    const log = { error: (_: unknown, message: string) => errors.push(message) } as unknown as FastifyBaseLogger;
    const { renders, pool: noted } = notingRenders(pool);
    const imaging = new RecordImaging(store, noted, log);
    const opened = record('00000000-0000-4000-8000-0000000000a4');
    store.failing = true;
    const sent = await answeredWhileStoring(imaging.framePack(opened, 'bmode', 0, 'urgent'), store);
    expect(sent).toBeInstanceOf(Buffer);
    store.release();
    await expect.poll(() => errors).toContain('storing a frame chunk failed');
    expect(store.keys()).toEqual([]);
    store.failing = false;
    const again = await imaging.framePack(opened, 'bmode', 0, 'urgent');
    expect(again).toEqual(sent);
    expect(renders).toEqual(['bmode 0', 'bmode 0']);
    await imaging.generateAll(opened, 'background');
    expect(await store.get(framePackKey(opened, 'bmode', 0))).toEqual(sent);
  });

  it('is marked complete only once every chunk of the record is stored', async () => {
    const store = heldStore();
    store.release();
    const imaging = new RecordImaging(store, pool, { error: () => {} } as unknown as FastifyBaseLogger);
    const opened = record('00000000-0000-4000-8000-0000000000a5', 32);
    await imaging.generateAll(opened, 'background');
    const chunks = [chunkKey(opened, 'bmode', 0), chunkKey(opened, 'bmode', 1), chunkKey(opened, 'angio', 0)];
    const packs = [framePackKey(opened, 'bmode', 0), framePackKey(opened, 'bmode', 1), framePackKey(opened, 'angio', 0)];
    expect(store.puts.slice(0, -1).sort()).toEqual([...chunks, ...packs].sort());
    expect(store.puts.at(-1)).toMatch(/complete/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../../src/server/config.ts';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { startDemoPregeneration } from '../../../src/server/imaging/demo-pregeneration.ts';
import { createFrameWorkerPool, type FrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { GenerationQueue, GenerationQueueClosedError, type GenerationPriority } from '../../../src/server/imaging/generation-queue.ts';
import { chunkKey, imagingKey, RecordImaging } from '../../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../../src/server/storage/blob-store.ts';
import { smallDemoRecord } from '../small-demo-record.ts';
import { createTestServer, postgresUnavailable, type TestServer } from '../test-server.ts';
import { notingRenders } from './noting-renders.ts';
import { gate, settle } from './gated-task.ts';


describe('generation queue', () => {
  it('runs what the page asks for ahead of background work queued before it', async () => {
    const queue = new GenerationQueue({ lanes: 1, idleQuietMs: 0 });
    const started: string[] = [];
    const first = gate(started, 'background-0');
    queue.run('background', first.work);
    const rest = ['background-1', 'background-2', 'background-3'].map((name) => queue.run('background', async () => (started.push(name), name)));
    const demand = queue.run('demand', async () => (started.push('demand'), 'demand'));
    const urgent = queue.run('urgent', async () => (started.push('urgent'), 'urgent'));
    first.release();
    await Promise.all([demand.result, urgent.result, ...rest.map((task) => task.result)]);
    expect(started).toEqual(['background-0', 'urgent', 'demand', 'background-1', 'background-2', 'background-3']);
  });

  it("runs a detection's first-pass frames ahead of the page's download queued before them, but after the frame the page shows first", async () => {
    const queue = new GenerationQueue({ lanes: 1, idleQuietMs: 0 });
    const started: string[] = [];
    const first = gate(started, 'page-0');
    queue.run('demand', first.work);
    const page = ['page-1', 'page-2'].map((name) => queue.run('demand', async () => void started.push(name)));
    const provisional = queue.run('provisional', async () => void started.push('first-pass'));
    const urgent = queue.run('urgent', async () => void started.push('shown-first'));
    first.release();
    await Promise.all([provisional.result, urgent.result, ...page.map((task) => task.result)]);
    expect(started).toEqual(['page-0', 'shown-first', 'first-pass', 'page-1', 'page-2']);
  });

  it('raises a waiting task joined by a more urgent request', async () => {
    const queue = new GenerationQueue({ lanes: 1, idleQuietMs: 0 });
    const started: string[] = [];
    const blocker = gate(started, 'running');
    queue.run('demand', blocker.work);
    const tasks = (['a', 'b', 'c'] as const).map((name) => queue.run('background', async () => void started.push(name)));
    tasks[2]!.raise('urgent');
    tasks[0]!.raise('idle'); // lower: no change
    blocker.release();
    await Promise.all(tasks.map((task) => task.result));
    expect(started).toEqual(['running', 'c', 'a', 'b']);
  });

  it('starts idle work only when nothing else runs or waits, after the quiet time', async () => {
    const queue = new GenerationQueue({ lanes: 2, idleQuietMs: 30 });
    const started: string[] = [];
    const demand = gate(started, 'demand');
    queue.run('demand', demand.work);
    const idle = queue.run('idle', async () => void started.push('idle'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    // A free lane, but the page's work still runs.
    expect(started).toEqual(['demand']);
    demand.release();
    await settle();
    expect(started).toEqual(['demand']);
    await idle.result;
    expect(started).toEqual(['demand', 'idle']);
  });

  it('close() drops waiting work and refuses more', async () => {
    const queue = new GenerationQueue({ lanes: 1, idleQuietMs: 0 });
    const started: string[] = [];
    const running = gate(started, 'running');
    const first = queue.run('background', running.work);
    const waiting = queue.run('idle', async () => 'never');
    queue.close();
    await expect(waiting.result).rejects.toBeInstanceOf(GenerationQueueClosedError);
    await expect(queue.run('urgent', async () => 'late').result).rejects.toBeInstanceOf(GenerationQueueClosedError);
    running.release();
    await expect(first.result).resolves.toBe('running');
  });
});

/** An in-memory store that notes the order in which keys were written. */
function memoryStore(): BlobStore & { puts: string[] } {
  const blobs = new Map<string, Buffer>();
  const puts: string[] = [];
  return {
    puts,
    get: async (key) => blobs.get(key) ?? null,
    put: async (key, data) => {
      puts.push(key);
      blobs.set(key, Buffer.from(data));
    },
    deletePrefix: async (prefix) => {
      for (const key of [...blobs.keys()]) if (key.startsWith(prefix)) blobs.delete(key);
    },
    putFile: () => Promise.reject(new Error('not used by imaging')),
    getFile: () => Promise.reject(new Error('not used by imaging')),
  };
}

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

/** A small demo record (128-pixel frames keep the generation quick). */
const demoRecord = (id: string, bmodeFrameCount: number): RecordRow => smallDemoRecord({ id, demoSeed: 7, bmodeFrameCount }, 128);

describe('record imaging with one frame worker', () => {
  let pool: FrameWorkerPool;
  beforeAll(() => {
    pool = createFrameWorkerPool(1);
  });
  afterAll(() => pool.close());

  it('serves an urgent chunk request ahead of the queued background generation', async () => {
    const store = memoryStore();
    const { renders, pool: noted } = notingRenders(pool);
    const imaging = new RecordImaging(store, noted, silentLog);
    const record = demoRecord('00000000-0000-4000-8000-000000000001', 16 * 12);
    const background = Array.from({ length: 10 }, (_, index) => imaging.chunk(record, 'bmode', index));
    const urgent = imaging.chunk(record, 'angio', 0, 'urgent');
    const demand = imaging.chunk(record, 'bmode', 11, 'demand');
    await Promise.all([urgent, demand, ...background]);
    // Chunk 0 was already on the worker; the page's two chunks come next, before the rest of the background queue.
    expect(renders).toEqual(['bmode 0', 'angio 0', 'bmode 11', ...Array.from({ length: 9 }, (_, k) => `bmode ${k + 1}`)]);
    expect(store.puts).toHaveLength(12);
  });

  it('raises a background chunk the page then asks for', async () => {
    const store = memoryStore();
    const { renders, pool: noted } = notingRenders(pool);
    const imaging = new RecordImaging(store, noted, silentLog);
    const record = demoRecord('00000000-0000-4000-8000-000000000002', 16 * 6);
    const background = Array.from({ length: 6 }, (_, index) => imaging.chunk(record, 'bmode', index));
    const asked = imaging.chunk(record, 'bmode', 5, 'urgent' satisfies GenerationPriority);
    await Promise.all([asked, ...background]);
    expect(renders.slice(0, 2)).toEqual(['bmode 0', 'bmode 5']);
  });

  it("makes a record's B-mode chunks, then its angio run, then marks it complete (no L-mode image)", async () => {
    const store = memoryStore();
    const imaging = new RecordImaging(store, pool, silentLog);
    const record = demoRecord('00000000-0000-4000-8000-000000000003', 16 * 3);
    await imaging.generateAll(record, 'demand');
    expect(store.puts).toEqual([
      ...[0, 1, 2].map((index) => chunkKey(record, 'bmode', index)),
      chunkKey(record, 'angio', 0),
      imagingKey(record, 'complete'),
    ]);
    // Once complete, it is not made again.
    await imaging.generateAll(record, 'demand');
    expect(store.puts).toHaveLength(5);
  });
});

describe.skipIf(postgresUnavailable)('demo pre-generation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('is on for npm start and off under test servers unless asked', () => {
    expect(loadConfig({}).pregenerateDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).pregenerateDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', PREGENERATE_DEMO: 'true' }).pregenerateDemo).toBe(true);
    expect(loadConfig({ PREGENERATE_DEMO: 'false' }).pregenerateDemo).toBe(false);
  });

  it('generates the demo records one after another at idle priority, the demo tenant first, and stops', async () => {
    const calls: { tenantId: string; patientId: string; priority: GenerationPriority }[] = [];
    let release!: () => void;
    const pregeneration = startDemoPregeneration(
      server.database.db,
      {
        generateAll: (record, priority) => {
          calls.push({ tenantId: record.tenantId, patientId: record.patientId, priority });
          // The first three finish at once; the fourth holds until released.
          return calls.length < 4 ? Promise.resolve() : new Promise<void>((resolve) => (release = resolve));
        },
      },
      silentLog,
    );
    await expect.poll(() => calls.length).toBe(4);
    expect(calls[0]).toEqual({ tenantId: 'demo', patientId: 'DEM-001', priority: 'idle' });
    expect(calls.every((call) => call.tenantId === 'demo' && call.priority === 'idle')).toBe(true);
    const stopped = pregeneration.stop();
    release();
    await stopped;
    expect(calls).toHaveLength(4);
  });

  it('ends without an error when the imaging closes under it', async () => {
    const store = memoryStore();
    const imaging = new RecordImaging(store, null, silentLog, { idleQuietMs: 0 });
    const errors: unknown[] = [];
    const log = { ...silentLog, error: (...args: unknown[]) => errors.push(args) } as unknown as FastifyBaseLogger;
    const pregeneration = startDemoPregeneration(server.database.db, imaging, log);
    await expect.poll(() => store.puts.length, { timeout: 10_000 }).toBeGreaterThan(0);
    imaging.close();
    await pregeneration.stop();
    const written = store.puts.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.puts.length).toBe(written);
    expect(errors).toEqual([]);
  });
});

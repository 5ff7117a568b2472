import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { firstOpenChunks } from '../../../src/server/imaging/first-open-chunks.ts';
import { createFrameWorkerPool, type FrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { chunkKey, RecordImaging } from '../../../src/server/imaging/record-imaging.ts';
import { memoryStore } from '../memory-store.ts';
import { smallDemoRecord } from '../small-demo-record.ts';
import { notingRenders } from './noting-renders.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const names = (chunks: ReturnType<typeof firstOpenChunks>) => chunks.map(({ series, index, priority, forPlay }) => `${series} ${index} ${priority}${forPlay ? '' : ' after Play'}`);

describe('the chunks a first open waits for', () => {
  it("are the first B-mode chunk (urgent), then the B-mode chunks up to its 100th frame, then the angio's first, which Play does not wait for", () => {
    // The angio panel starts only once Play is ready (issue 27): its first chunk is made after Play's.
    expect(names(firstOpenChunks(3600, 150))).toEqual(['bmode 0 urgent', ...[1, 2, 3, 4, 5, 6].map((index) => `bmode ${index} demand`), 'angio 0 demand after Play']);
  });

  it('stop at the last chunk of a loop shorter than 100 frames, and need no angio chunk when there is no run', () => {
    expect(names(firstOpenChunks(87, 0))).toEqual(['bmode 0 urgent', ...[1, 2, 3, 4, 5].map((index) => `bmode ${index} demand`)]);
    expect(names(firstOpenChunks(16, 16))).toEqual(['bmode 0 urgent', 'angio 0 demand after Play']);
    expect(names(firstOpenChunks(0, 0))).toEqual([]);
  });

  it('are the angiography run\'s when there is no pullback (Play then plays the run)', () => {
    expect(names(firstOpenChunks(0, 96))).toEqual(['angio 0 urgent', ...[1, 2, 3, 4, 5].map((index) => `angio ${index} demand`)]);
  });
});

const record = (id: string): RecordRow => smallDemoRecord({ id, demoSeed: 7, bmodeFrameCount: 16 * 9, chunkFormat: 'frame-pack' }, 128);

describe('a record nobody opened, when the page asks for its image lists', () => {
  let pool: FrameWorkerPool;
  beforeAll(() => {
    pool = createFrameWorkerPool(1);
  });
  afterAll(() => pool.close());

  it('has the chunks Play needs made first, then the angio run\'s first, before the page asks for them, each once', async () => {
    const store = memoryStore();
    const { renders, pool: noted } = notingRenders(pool);
    const imaging = new RecordImaging(store, noted, silentLog);
    const opened = record('00000000-0000-4000-8000-0000000000f1');
    imaging.prepare(opened);
    // The page's request, as it comes once the review has rendered: it joins what is being made.
    const first = await imaging.framePack(opened, 'bmode', 0, 'urgent');
    await imaging.generateAll(opened, 'background');
    // Without it the record's background generation went along the pullback one chunk at a time,
    // its angio run last, and the page's requests came one round at a time.
    expect(renders).toEqual(['bmode 0', 'bmode 1', 'bmode 2', 'bmode 3', 'bmode 4', 'bmode 5', 'bmode 6', 'angio 0', 'bmode 7', 'bmode 8']);
    expect(first.length).toBeGreaterThan(0);
    expect(store.keys().filter((key) => key.endsWith('.u8.gz'))).toHaveLength(10);
  });

  it('makes nothing again for a record whose first chunks are stored', async () => {
    const store = memoryStore();
    const made = record('00000000-0000-4000-8000-0000000000f2');
    await new RecordImaging(store, pool, silentLog).generateAll(made, 'background');
    const { renders, pool: noted } = notingRenders(pool);
    const again = new RecordImaging(store, noted, silentLog);
    again.prepare(made);
    await again.framePack(made, 'bmode', 0, 'urgent');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(renders).toEqual([]);
    expect(store.keys()).toContain(chunkKey(made, 'bmode', 8));
  });
});

/**
 * A record's detection on several worker threads (issue 23): the record is cut into short runs that
 * the workers take in frame order, so every core works from the first frames made to the last. The
 * borders must be those of one continuous run: exactly where a run starts at the record's start, and
 * within a small margin where a run starts mid-record (it warms up on the frames before it).
 */
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hasBorder, RecordContoursSchema, type RecordContours } from '../../src/domain/contours/api.ts';
import { contoursKey, RecordContourService } from '../../src/server/contours/record-contours.ts';
import { smallDemoRecord } from './small-demo-record.ts';
import { createFrameWorkerPool } from '../../src/server/imaging/frame-worker-pool.ts';
import { RecordImaging } from '../../src/server/imaging/record-imaging.ts';
import { memoryStore } from './memory-store.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const noQueue = { send: async () => null };
const CHUNKS = 6;

/** A demo record of six 16-frame chunks, 256-pixel frames over the demo's 5.12 mm. */
const record = smallDemoRecord({ id: '00000000-0000-4000-8000-000000000023', demoSeed: 23, bmodeFrameCount: 16 * CHUNKS });

async function detectWith(workers: number, runChunks?: number): Promise<RecordContours> {
  const store = memoryStore();
  const pool = workers > 0 ? createFrameWorkerPool(1) : null;
  const imaging = new RecordImaging(store, pool, silentLog);
  const service = new RecordContourService({ store, imaging, workers, log: silentLog, jobs: noQueue, runChunks });
  try {
    await service.detect(record, true);
    const stored = await store.get(contoursKey(record));
    expect(stored, 'the contours are stored').not.toBeNull();
    return RecordContoursSchema.parse(JSON.parse(zlib.gunzipSync(stored!).toString('utf8')));
  } finally {
    await service.close();
    imaging.close();
    await pool?.close();
  }
}

describe('detection of a record on two worker threads, in short runs', () => {
  it('gives every frame the borders of one continuous run: the same from the start, within 5 % of the area where a run starts mid-record', async () => {
    // One run the length of the record: the continuous reference.
    const one = (await detectWith(0, CHUNKS)).contours;
    // Runs of two chunks: frames 32 and 64 start runs, each after a warm-up on the two frames before.
    const runs = (await detectWith(2, 2)).contours;
    expect(runs).toHaveLength(record.bmodeFrameCount);
    // The first run starts where the one continuous run does, and goes the same way.
    expect(runs.slice(0, 32)).toEqual(one.slice(0, 32));
    for (let frame = 32; frame < record.bmodeFrameCount; frame++) {
      const [a, b] = [runs[frame]!, one[frame]!];
      expect(hasBorder(a), `frame ${frame} has a border in both or neither`).toBe(hasBorder(b));
      if (hasBorder(a) && hasBorder(b)) expect(Math.abs(a.areaMm2 - b.areaMm2) / b.areaMm2, `lumen area of frame ${frame}`).toBeLessThan(0.05);
    }
  }, 120_000);
});

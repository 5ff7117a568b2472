/**
 * The final contours before the stent (issue 23, a first open's MLA sooner): once every border is
 * in, the contours (borders, calcium, MLA) are stored and served as final, marked `stentPending`,
 * and the stent follows when its struts are read. What a clinician relies on: the figures served
 * first are the final ones (the same once the stent is in), nothing of a stent is served while it is
 * being read, and a server stopped in between leaves no record without a stent: the next poll's job
 * reads it and stores the same stent.
 */
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RecordContoursWithStentSchema, type RecordContoursWithStent } from '../../src/domain/stent/stored-stent.ts';
import { contoursKey, RecordContourService, type ContoursState } from '../../src/server/contours/record-contours.ts';
import { smallDemoRecord } from './small-demo-record.ts';
import { RecordImaging } from '../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../src/server/storage/blob-store.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

/** A demo record of four 16-frame chunks (two runs of two), 256-pixel frames over the demo's 5.12 mm. */
const record = smallDemoRecord({ id: '00000000-0000-4000-8000-000000000232', patientId: 'DEM-901', demoSeed: 32, bmodeFrameCount: 64 });

const parse = (gz: Buffer) => RecordContoursWithStentSchema.parse(JSON.parse(zlib.gunzipSync(gz).toString('utf8')));
const withoutStent = ({ stent: _stent, stentPending: _pending, ...contours }: RecordContoursWithStent) => contours;

/** A memory store that keeps every version of the contours put into it and calls `onContours` after each. */
function contoursStore(onContours: (body: RecordContoursWithStent) => Promise<void> = async () => {}) {
  const blobs = new Map<string, Buffer>();
  const versions: RecordContoursWithStent[] = [];
  const store: BlobStore = {
    get: async (key) => blobs.get(key) ?? null,
    put: async (key, data) => {
      blobs.set(key, Buffer.from(data));
      if (key === contoursKey(record)) {
        versions.push(parse(Buffer.from(data)));
        await onContours(versions.at(-1)!);
      }
    },
    deletePrefix: async (prefix) => {
      for (const key of [...blobs.keys()]) if (key.startsWith(prefix)) blobs.delete(key);
    },
    putFile: () => Promise.reject(new Error('not used by contours')),
    getFile: () => Promise.reject(new Error('not used by contours')),
  };
  return { store, versions, keys: () => [...blobs.keys()] };
}

function service(store: BlobStore, sent: string[] = []) {
  const imaging = new RecordImaging(store, null, silentLog);
  const contours = new RecordContourService({
    store,
    imaging,
    workers: 0,
    log: silentLog,
    jobs: { send: async (name) => (sent.push(name), null) },
    runChunks: 2,
  });
  return { contours, close: async () => (await contours.close(), imaging.close()) };
}

describe('the final contours stored before the stent', () => {
  it('serves the borders and MLA as final, marked as waiting for the stent and with none of it, then the same figures with the stent', async () => {
    const states: ContoursState[] = [];
    let it: ReturnType<typeof service> | null = null;
    const { store, versions, keys } = contoursStore(async () => void states.push(await it!.contours.state(record)));
    it = service(store);
    try {
      await it.contours.detect(record, true);
      expect(versions).toHaveLength(2);
      const [first, last] = versions as [RecordContoursWithStent, RecordContoursWithStent];
      // First: every border and the MLA, the stent still being read: nothing of it, not even "no stent".
      expect(first.stentPending).toBe(true);
      expect(first.stent).toBeUndefined();
      expect(first.contours).toHaveLength(64);
      expect(first.mla).not.toBeNull();
      expect(states[0]).toMatchObject({ ready: true, stentPending: true });
      // Then the stent, and the borders and figures unchanged.
      expect(last.stentPending).toBeUndefined();
      expect(last.stent).toMatchObject({ slices: expect.any(Array), malapposition: expect.any(Array) });
      expect(withoutStent(last)).toEqual(withoutStent(first));
      expect(await it.contours.state(record)).toMatchObject({ ready: true, stentPending: false });
      expect(keys().filter((key) => /stent-pending|progress|provisional/.test(key))).toEqual([]);

      // A server stopped between storing the stent and removing the marker: the next job only removes it.
      await store.put(contoursKey(record).replace('.json.gz', '.stent-pending'), Buffer.from('stopped'));
      expect(await it.contours.state(record)).toMatchObject({ ready: true, stentPending: true });
      await it.contours.detect(record, true);
      expect(versions.at(-1)).toEqual(last);
      expect(await it.contours.state(record)).toMatchObject({ ready: true, stentPending: false });
    } finally {
      await it.close();
    }
  }, 120_000);

  it('a server stopped while reading the stent leaves the record waiting for it; the next poll queues the job, which stores the same stent', async () => {
    // The reference: a detection that ran to its end.
    const reference = contoursStore();
    const whole = service(reference.store);
    try {
      await whole.contours.detect(record, true);
    } finally {
      await whole.close();
    }
    const expected = reference.versions.at(-1)!;

    // A server that stops as soon as the borders are stored: its job is cancelled (to be retried).
    let stopping: Promise<void> | null = null;
    let stopped: ReturnType<typeof service> | null = null;
    const { store, versions } = contoursStore(async (body) => {
      if (body.stentPending) stopping = stopped!.close();
    });
    stopped = service(store);
    await expect(stopped.contours.detect(record, false)).rejects.toThrow(/stopped with its server/);
    await stopping;
    expect(versions).toHaveLength(1);

    // Another server (or the same one restarted): a poll finds the borders and queues the detection job.
    const sent: string[] = [];
    const next = service(store, sent);
    try {
      const state = await next.contours.state(record);
      expect(state).toMatchObject({ ready: true, stentPending: true });
      expect(parse((state as { gz: Buffer }).gz).stent).toBeUndefined();
      expect(sent).toEqual(['contours-detect']);
      // The job reads every frame's struts again from the stored chunks: the same stent, the same borders.
      await next.contours.detect(record, true);
      const resumed = versions.at(-1)!;
      expect(resumed.stentPending).toBeUndefined();
      expect(resumed.stent).toEqual(expected.stent);
      expect(withoutStent(resumed)).toEqual(withoutStent(expected));
      expect(await next.contours.state(record)).toMatchObject({ ready: true, stentPending: false });
    } finally {
      await next.close();
    }
  }, 180_000);
});

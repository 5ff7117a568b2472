/**
 * Borders made at ingest (issue 23): once a record's frames are stored, its borders are detected at
 * idle priority, so a first open finds the MLA ready. Idle detection must never hold up a clinician:
 * it pauses while a detection someone asked for runs, and when someone asks for the record it is
 * working on, it is raised and finishes rather than waiting or starting over.
 */
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { contoursKey, RecordContourService } from '../../src/server/contours/record-contours.ts';
import type { RecordRow } from '../../src/server/db/records.ts';
import { smallDemoRecord } from './small-demo-record.ts';
import { RecordImaging } from '../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../src/server/storage/blob-store.ts';
import { memoryStore } from './memory-store.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

/** Small demo records: 48 frames of 256 pixels (detected on the main thread in about a second). */
function demoRecord(n: number): RecordRow {
  return smallDemoRecord({ id: `00000000-0000-4000-8000-00000000002${n}`, demoSeed: 23 + n, bmodeFrameCount: 48 });
}

function setUp(idleQuietMs = 0) {
  const store = memoryStore();
  const imaging = new RecordImaging(store, null, silentLog);
  const sent: { name: string; key: string; priority: unknown }[] = [];
  const jobs = {
    send: async (name: string, _data: object, options: { key: string; priority: unknown }) => {
      sent.push({ name, ...options });
      return null;
    },
  };
  const service = new RecordContourService({ store, imaging, workers: 0, log: silentLog, jobs, idleQuietMs });
  return { store, imaging, service, sent, close: async () => (await service.close(), imaging.close()) };
}

const contoursOf = async (store: BlobStore, record: RecordRow) => {
  const stored = await store.get(contoursKey(record));
  return stored ? JSON.parse(zlib.gunzipSync(stored).toString('utf8')) : null;
};

describe('borders detected at idle once the frames are stored', () => {
  it('stores the same borders as a detection someone asked for', async () => {
    const idle = setUp();
    const asked = setUp();
    try {
      await idle.service.precompute(demoRecord(1), true);
      await asked.service.detect(demoRecord(1), true);
      const contours = await contoursOf(idle.store, demoRecord(1));
      expect(contours?.contours).toHaveLength(48);
      expect(contours).toEqual(await contoursOf(asked.store, demoRecord(1)));
    } finally {
      await idle.close();
      await asked.close();
    }
  }, 60_000);

  it('does not start while a clinician waits for another record, then finishes', async () => {
    const { store, service, close } = setUp();
    try {
      const clinician = service.detect(demoRecord(1), true);
      const idle = service.precompute(demoRecord(2), true);
      await clinician;
      // The clinician's record is done; the idle one has not taken a single chunk meanwhile.
      expect(await contoursOf(store, demoRecord(1))).not.toBeNull();
      const progress = await store.get(contoursKey(demoRecord(2)).replace('.json.gz', '.progress.json'));
      expect(JSON.parse(progress!.toString('utf8'))).toMatchObject({ done: 0, total: 48 });
      await idle;
      expect((await contoursOf(store, demoRecord(2)))?.contours).toHaveLength(48);
    } finally {
      await close();
    }
  }, 60_000);

  it('is raised, not restarted, when a clinician opens the record it is working on', async () => {
    const { store, service, close } = setUp();
    try {
      // Another clinician's detection keeps the idle one paused; then the idle record is asked for.
      const other = service.detect(demoRecord(1), true);
      const idle = service.precompute(demoRecord(2), true);
      const asked = service.detect(demoRecord(2), true);
      // Raised, it runs beside the other one: without the raise it would wait for a clinician
      // (the one asking for it) who waits for it, and never finish.
      await asked;
      await idle;
      await other;
      expect((await contoursOf(store, demoRecord(2)))?.contours).toHaveLength(48);
    } finally {
      await close();
    }
  }, 60_000);
});

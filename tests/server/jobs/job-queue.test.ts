/**
 * The durable job queue (issue 18): the most urgent job first, one job per key, and work that a
 * stopping server had under way finished by another server on the same database: an import
 * decoded once and whole, a record's contours detected and served by whichever replica is asked.
 * (A server killed outright is tests/server/kill-faults.test.ts on the embedded database, and the
 * two-replica Playwright run on PostgreSQL.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordContoursSchema } from '../../../src/domain/contours/api.ts';
import { ImportSummarySchema } from '../../../src/domain/imports.ts';
import { buildApp } from '../../../src/server/app.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { imports } from '../../../src/server/db/schema.ts';
import { startJobQueue, type JobQueue } from '../../../src/server/jobs/job-queue.ts';
import type { BlobStore, StoredObjectHeaders } from '../../../src/server/storage/blob-store.ts';
import { LocalDirectoryStore } from '../../../src/server/storage/local-directory-store.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { importTempRoot } from '../../../src/server/http/imports.ts';
import { filesUnder, footprint, get, openSession, upload, type Session } from '../import-session.ts';
import { hostOf, postgresUnavailable, testDatabase } from '../test-server.ts';

const silentLog = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as never;
/** Supervision every second, so a retry is not waited for long. */
const FAST_JOBS = { JOB_SUPERVISE_SECONDS: '1', JOB_HEARTBEAT_SECONDS: '10' };

describe.skipIf(postgresUnavailable)('the job queue', () => {
  let database: Database | null = null;
  let queue: JobQueue | null = null;
  afterEach(async () => {
    await queue?.stop(2000);
    await database?.close();
    queue = database = null;
  });

  it('runs the most urgent job first, makes one job of a key asked twice, and raises a waiting one', async () => {
    database = await testDatabase();
    queue = await startJobQueue(database, { heartbeatSeconds: 10, superviseSeconds: 1 }, silentLog);
    const data = (name: string) => ({ tenantId: 'demo', recordId: name, imagingVersion: 'v1', priority: 'idle' });
    expect(await queue.send('imaging-generate', data('idle-1'), { key: 'idle-1', priority: 'idle' })).not.toBeNull();
    expect(await queue.send('imaging-generate', data('background'), { key: 'background', priority: 'background' })).not.toBeNull();
    expect(await queue.send('imaging-generate', data('idle-2'), { key: 'idle-2', priority: 'idle' })).not.toBeNull();
    expect(await queue.send('imaging-generate', data('urgent'), { key: 'urgent', priority: 'urgent' })).not.toBeNull();
    // The same key again: no second job; asked more urgently, the waiting one is raised.
    expect(await queue.send('imaging-generate', data('idle-2'), { key: 'idle-2', priority: 'demand' })).toBeNull();
    expect(await queue.pending('imaging-generate', 'idle-2')).toBe(true);
    expect(await queue.pending('imaging-generate', 'never-sent')).toBe(false);

    const order: string[] = [];
    await queue.work<{ recordId: string }>('imaging-generate', 1, async (run) => {
      order.push(run.data.recordId);
    });
    await expect.poll(() => order.length, { timeout: 20_000 }).toBe(4);
    expect(order).toEqual(['urgent', 'idle-2', 'background', 'idle-1']);
    await expect.poll(() => queue!.pending('imaging-generate', 'idle-2')).toBe(false);
  });

  it('runs the job asked for last first where every job is waited for, and asking again raises a waiting one', async () => {
    database = await testDatabase();
    queue = await startJobQueue(database, { heartbeatSeconds: 10, superviseSeconds: 1 }, silentLog);
    const at = (seconds: number) => ({ askedAt: new Date(Date.UTC(2026, 10, 23, 9, 0, seconds)) });
    const data = (recordId: string) => ({ tenantId: 'demo', recordId, imagingVersion: 'v1' });
    await queue.send('contours-detect', data('opened-first'), { key: 'opened-first', priority: at(0) });
    await queue.send('contours-detect', data('left-open'), { key: 'left-open', priority: at(1) });
    await queue.send('contours-detect', data('opened-last'), { key: 'opened-last', priority: at(2) });
    // The page of the second record is still open and asks again, after the third was opened.
    expect(await queue.send('contours-detect', data('left-open'), { key: 'left-open', priority: at(3) })).toBeNull();
    const order: string[] = [];
    await queue.work<{ recordId: string }>('contours-detect', 1, async (run) => {
      order.push(run.data.recordId);
    });
    await expect.poll(() => order.length, { timeout: 20_000 }).toBe(3);
    expect(order).toEqual(['left-open', 'opened-last', 'opened-first']);
  });

  it('retries a job whose handler failed, telling the last run that it is the last', async () => {
    database = await testDatabase();
    queue = await startJobQueue(database, { heartbeatSeconds: 10, superviseSeconds: 1 }, silentLog);
    const runs: { retryCount: number; lastAttempt: boolean }[] = [];
    await queue.work('contours-detect', 1, async (run) => {
      runs.push({ retryCount: run.retryCount, lastAttempt: run.lastAttempt });
      throw new Error('the store did not answer');
    });
    await queue.send('contours-detect', { tenantId: 'demo', recordId: 'r', imagingVersion: 'v1' }, { key: 'r', priority: 'urgent' });
    await expect.poll(() => runs.length, { timeout: 30_000, interval: 200 }).toBe(5);
    expect(runs.map((run) => run.lastAttempt)).toEqual([false, false, false, false, true]);
    await expect.poll(() => queue!.pending('contours-detect', 'r')).toBe(false);
  }, 40_000);
});

type Replica = { app: FastifyInstance; dataDir: string };

const asClinician = (session: Session) => ({ host: hostOf('demo'), authorization: session.authorization });

/**
 * A store whose writes of a detection's progress, after the first one that counts a frame, wait
 * until release(): a replica stalled between two chunks of a detection, for as long as a test wants.
 */
class ProgressAfterTheFirstHeld implements BlobStore {
  private counted = false;
  private released = false;
  private readonly waiting: (() => void)[] = [];
  private readonly store: BlobStore;
  constructor(store: BlobStore) {
    this.store = store;
  }
  get holding(): boolean {
    return this.waiting.length > 0;
  }
  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }
  async put(key: string, data: Uint8Array, headers?: StoredObjectHeaders): Promise<void> {
    if (key.endsWith('.progress.json') && !this.released && ((JSON.parse(Buffer.from(data).toString()) as { done?: number }).done ?? 0) > 0) {
      if (this.counted) await new Promise<void>((go) => this.waiting.push(go));
      this.counted = true;
    }
    return this.store.put(key, data, headers);
  }
  get = (key: string) => this.store.get(key);
  deletePrefix = (prefix: string) => this.store.deletePrefix(prefix);
  putFile = (key: string, filePath: string) => this.store.putFile(key, filePath);
  getFile = (key: string, filePath: string) => this.store.getFile(key, filePath);
}

/**
 * A second server on the same database and store: another replica. With PostgreSQL it has a data
 * directory of its own (a disk of its own), as replicas on separate machines have.
 */
async function replicaOf(session: Session, store: BlobStore = new LocalDirectoryStore(session.server.storeDir)): Promise<Replica> {
  const dataDir = session.server.database.kind === 'postgres' ? fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-replica-')) : session.dataDir;
  const app = await buildApp({ config: { ...session.server.config, dataDir }, database: session.server.database, store });
  await app.ready();
  return { app, dataDir };
}

describe.skipIf(postgresUnavailable)('work a stopping server had under way', () => {
  let session: Session | null = null;
  let first: Replica | null = null;
  let replica: Replica | null = null;
  let held: ProgressAfterTheFirstHeld | null = null;
  afterEach(async () => {
    held?.release();
    for (const one of [first, replica]) {
      if (!one) continue;
      await one.app.close();
      if (one.dataDir !== session?.dataDir) fs.rmSync(one.dataDir, { recursive: true, force: true });
    }
    if (session) {
      await session.server.database.close();
      fs.rmSync(session.server.storeDir, { recursive: true, force: true });
      fs.rmSync(session.dataDir, { recursive: true, force: true });
    }
    session = first = replica = held = null;
  });

  it('is finished by the other replica: an import decoded once, whole (its files fetched from the bucket by a replica without them)', async () => {
    session = await openSession({ ...FAST_JOBS, IMPORT_MAX_FILE_BYTES: String(64 * 1024 * 1024) });
    const before = await footprint(session);
    const fixture = makeDicom({ patientId: 'REPLICA-1', syntax: 'rle', frames: 2000, rows: 96, columns: 128, pixel: (f, x, y) => (x * 3 + y + f) & 255 });
    const response = await upload(session, [{ name: 'long.dcm', bytes: fixture.bytes }]);
    expect(response.statusCode).toBe(202);
    const importId = response.json().imports[0].importId as string;
    for (let progress = 0; progress === 0; await new Promise((resolve) => setTimeout(resolve, 5))) {
      progress = (await get(session, `/api/demo/imports/${importId}`)).json().framesDone;
    }
    replica = await replicaOf(session);
    await session.server.app.close();
    const { app } = replica;
    const summary = async () => ImportSummarySchema.parse((await app.inject({ url: `/api/demo/imports/${importId}`, headers: { host: hostOf('demo'), authorization: session!.authorization } })).json());
    await expect.poll(async () => (await summary()).status, { timeout: 60_000, interval: 100 }).toBe('done');
    expect(await summary()).toMatchObject({ framesDone: 2000, patientId: 'REPLICA-1', error: null });
    expect(await footprint(session)).toMatchObject({ patients: before.patients + 1, records: before.records + 1, imports: before.imports + 1, audit: before.audit + 1 });
    const [row] = await session.server.database.db.select().from(imports).where(eq(imports.id, importId));
    expect(row!.status).toBe('done');
    // Nothing waits anymore: neither the files on the replica that decoded them, nor their copy in the bucket.
    // (The stopped server's own copy goes with its next sweep of unclaimed uploads.)
    expect(filesUnder(importTempRoot({ dataDir: replica.dataDir }))).toEqual([]);
    expect(filesUnder(path.join(session.server.storeDir, 'demo', 'import-staging'))).toEqual([]);
  }, 90_000);

  it('is finished by the other replica: contours asked of one, detected and served by the other', async () => {
    session = await openSession(FAST_JOBS);
    // The first replica's progress writes after its first one wait for the test (a server that is slow
    // between chunks): its detection is surely under way, unfinished, when the other replica is asked.
    // The session's own server goes first, so only the first replica's workers take the job.
    await session.server.app.close();
    held = new ProgressAfterTheFirstHeld(new LocalDirectoryStore(session.server.storeDir));
    first = await replicaOf(session, held);
    const records = (await first.app.inject({ url: '/api/demo/patients/DEM-001/records', headers: asClinician(session) })).json().records as { recordId: string; bmodeFrameCount: number }[];
    const recordId = records.find((record) => record.bmodeFrameCount === 300)!.recordId;
    const url = `/api/demo/records/${recordId}/contours`;
    const askFirst = () => first!.app.inject({ url, headers: asClinician(session!) });
    expect((await askFirst()).statusCode).toBe(202);
    // Under way on the first server: its progress is what the second one reports.
    await expect.poll(async () => (await askFirst()).json().done, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    await expect.poll(() => held!.holding, { timeout: 30_000, interval: 50 }).toBe(true);
    replica = await replicaOf(session);
    const { app } = replica;
    const ask = () => app.inject({ url, headers: asClinician(session!) });
    const waiting = await ask();
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json().done).toBeGreaterThan(0);
    // The first replica stops (its detection at its next chunk, once the held write is let go).
    const closing = first.app.close();
    setTimeout(() => held!.release(), 100);
    await closing;
    await expect.poll(async () => (await ask()).statusCode, { timeout: 90_000, interval: 250 }).toBe(200);
    const body = RecordContoursSchema.parse(JSON.parse((await ask()).body));
    expect(body.frameCount).toBe(300);
    expect(body.contours).toHaveLength(300);
  }, 120_000);
});

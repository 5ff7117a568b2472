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

/**
 * A second server on the same database and store: another replica. With PostgreSQL it has a data
 * directory of its own (a disk of its own), as replicas on separate machines have.
 */
async function secondReplica(session: Session): Promise<{ app: FastifyInstance; dataDir: string }> {
  const dataDir = session.server.database.kind === 'postgres' ? fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-replica-')) : session.dataDir;
  const app = await buildApp({ config: { ...session.server.config, dataDir }, database: session.server.database, store: new LocalDirectoryStore(session.server.storeDir) });
  await app.ready();
  return { app, dataDir };
}

describe.skipIf(postgresUnavailable)('work a stopping server had under way', () => {
  let session: Session | null = null;
  let replica: { app: FastifyInstance; dataDir: string } | null = null;
  afterEach(async () => {
    await replica?.app.close();
    if (replica && replica.dataDir !== session?.dataDir) fs.rmSync(replica.dataDir, { recursive: true, force: true });
    if (session) {
      await session.server.database.close();
      fs.rmSync(session.server.storeDir, { recursive: true, force: true });
      fs.rmSync(session.dataDir, { recursive: true, force: true });
    }
    session = replica = null;
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
    replica = await secondReplica(session);
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
    const records = (await get(session, '/api/demo/patients/DEM-001/records')).json().records as { recordId: string; bmodeFrameCount: number }[];
    const recordId = records.find((record) => record.bmodeFrameCount === 300)!.recordId;
    const url = `/api/demo/records/${recordId}/contours`;
    expect((await get(session, url)).statusCode).toBe(202);
    // Under way on the first server: its progress is what the second one reports.
    await expect.poll(async () => (await get(session!, url)).json().done, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    replica = await secondReplica(session);
    const { app } = replica;
    const ask = () => app.inject({ url, headers: { host: hostOf('demo'), authorization: session!.authorization } });
    expect((await ask()).statusCode).toBe(202);
    await session.server.app.close();
    await expect.poll(async () => (await ask()).statusCode, { timeout: 90_000, interval: 250 }).toBe(200);
    const body = RecordContoursSchema.parse(JSON.parse((await ask()).body));
    expect(body.frameCount).toBe(300);
    expect(body.contours).toHaveLength(300);
  }, 120_000);
});

/**
 * Uploads of whole studies and angiography runs in any order: the runs of a study are paired with
 * its pullbacks by acquisition time, a run alone makes an angiography-only record that its
 * pullback joins later, everything else of a study folder is skipped with its reason, and the
 * records say which acquisition facts were assumed.
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportListSchema, type ImportSummary } from '../../src/domain/imports.ts';
import { RecordImagesSchema } from '../../src/domain/images.ts';
import { PatientPageSchema } from '../../src/domain/patients.ts';
import { PatientRecordsSchema, type RecordSummary } from '../../src/domain/records.ts';
import { listAudit } from '../../src/server/db/audit.ts';
import { createImports } from '../../src/server/db/imports.ts';
import { imports } from '../../src/server/db/schema.ts';
import { importTempRoot } from '../../src/server/http/imports.ts';
import { makeDicom, newUid, type FixtureOptions } from '../support/dicom-fixtures.ts';
import { chunkFrames } from '../support/frame-chunks.ts';
import { batchDone, closeSession, footprint, get, openSession, upload, uploadAccepted, waitForImport, type Session } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

let counter = 0;
const nextId = () => `STU-${process.pid}-${++counter}`;
const file = (name: string, options: FixtureOptions) => ({ name, bytes: makeDicom(options).bytes });
const pullback = (name: string, patientId: string, studyUid: string, studyTime: string, more: FixtureOptions = {}) =>
  file(name, { patientId, studyUid, studyTime, frames: 20, ...more });
const run = (name: string, patientId: string, studyUid: string, studyTime: string, more: FixtureOptions = {}) =>
  file(name, { kind: 'xa', patientId, studyUid, studyTime, frames: 6, rows: 32, columns: 32, ...more });

describe.skipIf(postgresUnavailable)('DICOM import of studies and runs in any order', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  async function recordsOf(patientId: string): Promise<RecordSummary[]> {
    const response = await get(session, `/api/demo/patients/${patientId}/records`);
    expect(response.statusCode).toBe(200);
    return PatientRecordsSchema.parse(response.json()).records;
  }

  async function imagesOf(recordId: string) {
    return RecordImagesSchema.parse((await get(session, `/api/demo/records/${recordId}/images`)).json());
  }

  async function importAll(files: { name: string; bytes: Uint8Array }[]): Promise<ImportSummary[]> {
    return batchDone(session, await uploadAccepted(session, files));
  }

  it('makes an angiography-only record of a run sent alone, which its pullback then joins', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const [alone] = await importAll([run('run.dcm', patientId, studyUid, '100500')]);
    expect(alone!.warnings.join(' ')).toMatch(/run\.dcm is an angiography run without its pullback/);
    const [waiting] = await recordsOf(patientId);
    expect(waiting).toMatchObject({
      recordId: alone!.recordId,
      bmodeFrameCount: 0,
      angioFrameCount: 6,
      bmodePreview: null,
      angioPreview: `records/${alone!.recordId}/previews/angio?v=v1`,
      // The run plays at its own Frame Time; only the pullback's figures wait for the pullback.
      assumed: ['pixelSpacing', 'pullbackSpeed'],
    });
    // Its angio panel works: frames and preview.
    const images = await imagesOf(alone!.recordId!);
    expect(images.bmode.chunks).toEqual([]);
    const chunk = await get(session, `/api/demo/${images.angio.chunks[0]}`);
    expect(chunk.statusCode).toBe(200);
    expect(await chunkFrames(chunk, 32 * 32)).toHaveLength(6);
    expect((await get(session, `/api/demo/${waiting!.angioPreview}`)).statusCode).toBe(200);
    // Its B-mode preview does not exist yet: a plain 404 nobody keeps, since the pullback may come.
    const missing = await get(session, `/api/demo/records/${alone!.recordId}/previews/bmode?v=v1`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.json().message).toMatch(/pullback has not been imported yet/);

    const [joined] = await importAll([pullback('pullback.dcm', patientId, studyUid, '100000')]);
    expect(joined!.recordId).toBe(alone!.recordId);
    const [record] = await recordsOf(patientId);
    expect(record).toMatchObject({
      bmodeFrameCount: 20,
      angioFrameCount: 6,
      frameWidth: 64,
      frameHeight: 48,
      modality: 'IVUS',
      assumed: [],
      bmodePreview: `records/${alone!.recordId}/previews/bmode?v=v1`,
      acquiredAt: '2026-03-12T10:05:00.000Z',
    });
    expect(record!.pullbackSpeedMmPerS).toBeCloseTo(0.5);
    const after = await imagesOf(alone!.recordId!);
    expect(after.bmode.count).toBe(20);
    expect((await get(session, `/api/demo/${after.bmode.chunks[0]}`)).statusCode).toBe(200);
    expect((await get(session, `/api/demo/${record!.bmodePreview}`)).statusCode).toBe(200);
    expect((await get(session, `/api/demo/${after.angio.chunks[0]}`)).statusCode).toBe(200);
    const audit = await listAudit(session.server.database.db, 'demo', { limit: 500 });
    const row = audit.find((r) => r.action === 'record-imported' && (r.details as { importId?: string }).importId === joined!.importId);
    expect(row?.details).toMatchObject({ recordCreated: false, joined: 'bmode', bmodeFrames: 20, patientCreated: false });
  });

  it('imports a whole study folder: pullbacks paired with their nearest runs, everything else skipped with a reason', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const whole = makeDicom({ patientId, studyUid }).bytes;
    const files = [
      file('DICOMDIR', { patientId, sopClassUid: '1.2.840.10008.1.3.10', modality: '', noPixelData: true }),
      file('report.dcm', { patientId, studyUid, sopClassUid: '1.2.840.10008.5.1.4.1.1.88.22', modality: 'SR', noPixelData: true }),
      run('run-b.dcm', patientId, studyUid, '105800'),
      pullback('pullback-a.dcm', patientId, studyUid, '100000'),
      { name: 'notes.txt', bytes: Buffer.from('Exported by the console.\n'.repeat(20)) },
      file('capture.dcm', { patientId, studyUid, sopClassUid: '1.2.840.10008.5.1.4.1.1.7', modality: 'OT', frames: 1 }),
      run('run-a.dcm', patientId, studyUid, '100500'),
      file('still.dcm', { kind: 'us', patientId, studyUid, frames: 1 }),
      pullback('pullback-b.dcm', patientId, studyUid, '110000'),
      { name: 'cut.dcm', bytes: whole.subarray(0, whole.length - 4000) },
    ];
    const batch = await uploadAccepted(session, files);
    expect(batch.imports.map((i) => i.fileNames)).toEqual([
      ['run-b.dcm', 'pullback-b.dcm'],
      ['pullback-a.dcm', 'run-a.dcm'],
    ]);
    expect(batch.skipped.map((s) => [s.fileName, s.code])).toEqual([
      ['DICOMDIR', 'unsupported_object'],
      ['report.dcm', 'unsupported_object'],
      ['notes.txt', 'not_dicom'],
      ['capture.dcm', 'unsupported_object'],
      ['still.dcm', 'unsupported_object'],
      ['cut.dcm', 'truncated'],
    ]);
    expect(batch.skipped[4]!.message).toBe('still.dcm: it holds a single image, not an IVUS pullback nor an angiography run.');
    const done = await batchDone(session, batch);
    const records = await recordsOf(patientId);
    expect(records).toHaveLength(2);
    expect(records.map((r) => [r.acquiredAt, r.bmodeFrameCount, r.angioFrameCount])).toEqual([
      ['2026-03-12T11:00:00.000Z', 20, 6],
      ['2026-03-12T10:00:00.000Z', 20, 6],
    ]);
    // The skipped files stay visible with the first import.
    const list = ImportListSchema.parse((await get(session, '/api/demo/imports')).json());
    const first = list.imports.find((i) => i.importId === done[0]!.importId)!;
    expect(first.warnings.filter((w) => w.startsWith('Not imported: '))).toHaveLength(6);
    expect(first.warnings).toContain(`Not imported: ${batch.skipped[0]!.message}`);
    expect(list.imports.find((i) => i.importId === done[1]!.importId)!.warnings).toEqual([]);
    expect((await footprint(session)).temp).toEqual([]);
  });

  it('makes a record of its own of a run left without a pullback, which the next pullback of the study joins by time', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const batch = await importAll([
      run('run-early.dcm', patientId, studyUid, '100100'),
      run('run-late.dcm', patientId, studyUid, '120000'),
      pullback('pullback-early.dcm', patientId, studyUid, '100000'),
    ]);
    expect(batch.map((i) => i.fileNames)).toEqual([['run-early.dcm', 'pullback-early.dcm'], ['run-late.dcm']]);
    const [late] = await importAll([pullback('pullback-late.dcm', patientId, studyUid, '120500')]);
    expect(late!.recordId).toBe(batch[1]!.recordId);
    const records = await recordsOf(patientId);
    expect(records.map((r) => [r.bmodeFrameCount, r.angioFrameCount])).toEqual([
      [20, 6],
      [20, 6],
    ]);
  });

  it('flags an acquisition time the files do not give, until a file of the record gives one', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const before = Date.now();
    const [done] = await importAll([pullback('undated.dcm', patientId, studyUid, '', { studyDate: '', pullbackRate: null })]);
    expect(done!.warnings).toContain('undated.dcm gives no acquisition date or time: the record is dated at the import.');
    const [record] = await recordsOf(patientId);
    expect(record!.assumed).toEqual(['acquiredAt', 'pullbackSpeed']);
    expect(new Date(record!.acquiredAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    await importAll([run('dated.dcm', patientId, studyUid, '093000')]);
    const [joined] = await recordsOf(patientId);
    expect(joined).toMatchObject({ recordId: done!.recordId, acquiredAt: '2026-03-12T09:30:00.000Z', assumed: ['pullbackSpeed'], angioFrameCount: 6 });
  });

  it('rolls back a pullback that fails to join: the run keeps its record, and a good pullback joins it afterwards', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const [alone] = await importAll([run('run.dcm', patientId, studyUid, '100000')]);
    const broken = pullback('broken.dcm', patientId, studyUid, '100100', {
      syntax: 'rle',
      mutateFrame: (index, bytes) => {
        if (index !== 19) return bytes;
        const copy = bytes.slice();
        new DataView(copy.buffer).setUint32(4, copy.length + 100, true);
        return copy;
      },
    });
    const batch = await uploadAccepted(session, [broken]);
    expect((await waitForImport(session, batch.imports[0]!.importId)).status).toBe('failed');
    const [untouched] = await recordsOf(patientId);
    expect(untouched).toMatchObject({ recordId: alone!.recordId, bmodeFrameCount: 0, angioFrameCount: 6 });
    const images = await imagesOf(alone!.recordId!);
    expect((await get(session, `/api/demo/${images.angio.chunks[0]}`)).statusCode).toBe(200);
    const [joined] = await importAll([pullback('good.dcm', patientId, studyUid, '100100')]);
    expect(joined!.recordId).toBe(alone!.recordId);
  });

  it('lets one import at most fill a record: two pullbacks at once never both join the same run', async () => {
    const patientId = nextId();
    const studyUid = newUid();
    const [alone] = await importAll([run('run.dcm', patientId, studyUid, '100000')]);
    const responses = await Promise.all([
      upload(session, [pullback('one.dcm', patientId, studyUid, '100100')]),
      upload(session, [pullback('two.dcm', patientId, studyUid, '100200')]),
    ]);
    for (const response of responses) {
      expect([202, 409], response.body).toContain(response.statusCode);
      if (response.statusCode === 202) await batchDone(session, response.json());
      else expect(response.json().error).toBe('conflicting_files');
    }
    const records = await recordsOf(patientId);
    expect(records.filter((r) => r.recordId === alone!.recordId && r.bmodeFrameCount === 20)).toHaveLength(1);
    expect(records.every((r) => r.bmodeFrameCount === 20)).toBe(true);

    // The unique index on the pullback slot, by itself.
    const recordId = crypto.randomUUID();
    const row = (id: string) => ({
      row: {
        id,
        tenantId: 'demo',
        fileNames: ['x.dcm'],
        framesTotal: 1,
        studyInstanceUid: studyUid,
        targetRecordId: recordId,
        createsRecord: false,
        bmodeRecordId: recordId,
        tempDir: path.join(importTempRoot({ dataDir: session.dataDir }), id),
      },
      seriesUids: [newUid()],
    });
    const { db } = session.server.database;
    const first = await createImports(db, [row(crypto.randomUUID())]);
    expect(Array.isArray(first)).toBe(true);
    expect(await createImports(db, [row(crypto.randomUUID())])).toEqual({ conflict: 'record_taken' });
    await db.update(imports).set({ status: 'failed', bmodeRecordId: null }).where(eq(imports.targetRecordId, recordId));
  });

  it('refuses a pullback while the angiography-only record of its study is still being made', async () => {
    const studyUid = newUid();
    const { db } = session.server.database;
    const running = crypto.randomUUID();
    const recordId = crypto.randomUUID();
    await db.insert(imports).values({
      id: running,
      tenantId: 'demo',
      fileNames: ['run.dcm'],
      framesTotal: 100,
      studyInstanceUid: studyUid,
      targetRecordId: recordId,
      createsRecord: true,
      angioRecordId: recordId,
      tempDir: path.join(importTempRoot({ dataDir: session.dataDir }), running),
    });
    try {
      const response = await upload(session, [pullback('early.dcm', nextId(), studyUid, '100000')]);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'conflicting_files', message: 'early.dcm: the angiography run of its study is still being imported: send the pullback again when that import is done.' });
    } finally {
      await db.update(imports).set({ status: 'failed', angioRecordId: null }).where(eq(imports.id, running));
    }
  });

  it('gives demo records nothing assumed', async () => {
    const page = PatientPageSchema.parse((await get(session, '/api/demo/patients')).json());
    const records = await recordsOf(page.items[0]!.patientId);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record.assumed).toEqual([]);
  });
});

describe.skipIf(postgresUnavailable)('DICOM import of a study with a file over budget', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({ IMPORT_MEMORY_BUDGET_BYTES: String(1024 * 1024) });
  });
  afterAll(() => closeSession(session));

  it('refuses a single file over the memory budget at once (413), and skips it beside files that fit', async () => {
    const patientId = nextId();
    const big = file('big.dcm', { patientId, frames: 400 });
    const before = await footprint(session);
    const alone = await upload(session, [big]);
    expect(alone.statusCode).toBe(413);
    expect(alone.json()).toMatchObject({ error: 'over_budget', fileName: 'big.dcm' });
    expect(await footprint(session)).toEqual(before);
    const batch = await uploadAccepted(session, [big, pullback('small.dcm', patientId, newUid(), '100000')]);
    expect(batch.imports.map((i) => i.fileNames)).toEqual([['small.dcm']]);
    expect(batch.skipped.map((s) => [s.fileName, s.code])).toEqual([['big.dcm', 'over_budget']]);
    await batchDone(session, batch);
  });
});

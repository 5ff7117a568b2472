/**
 * Bad input to a DICOM import (issue 8): each refusal has its code and status, and nothing is
 * left behind (no patient, record, import row, stored frame or uploaded file); a decode failure
 * in the background and a restart finding an import nobody will finish roll back the same way; an
 * import whose server stopped mid-way is finished, once, after the restart; another tenant's import
 * is not found.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkCount } from '../../src/domain/images.ts';
import { ImportBatchSchema, ImportListSchema, ImportRejectedSchema, ImportSummarySchema } from '../../src/domain/imports.ts';
import { buildApp } from '../../src/server/app.ts';
import { importSeries, imports } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { importTempRoot } from '../../src/server/http/imports.ts';
import { LocalDirectoryStore } from '../../src/server/storage/local-directory-store.ts';
import { makeDicom, newUid } from '../support/dicom-fixtures.ts';
import { filesUnder, footprint, get, openSession as openImportSession, upload, waitForImport, type Session } from './import-session.ts';
import { hostOf, mintIdToken, postgresUnavailable } from './test-server.ts';

const LIMIT_BYTES = 1024 * 1024;

/** Every failures session runs with a 1 MiB upload limit. */
const openSession = (env: Record<string, string> = {}) => openImportSession({ IMPORT_MAX_FILE_BYTES: String(LIMIT_BYTES), ...env });

describe.skipIf(postgresUnavailable)('DICOM import refusals and roll-backs', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(async () => {
    await session.server.close();
    fs.rmSync(session.dataDir, { recursive: true, force: true });
  });

  async function expectRefused(files: { name: string; bytes: Uint8Array; field?: string }[], status: number, code: string, message: RegExp) {
    const before = await footprint(session);
    const response = await upload(session, files);
    expect(response.statusCode, response.body).toBe(status);
    const body = ImportRejectedSchema.parse(response.json());
    expect(body.error).toBe(code);
    expect(body.message).toMatch(message);
    const after = await footprint(session);
    expect(after).toEqual(before);
    expect(after.temp).toEqual([]);
    return body;
  }

  it('refuses a file that is not DICOM', async () => {
    const body = await expectRefused([{ name: 'notes.txt', bytes: Buffer.from('Not a DICOM file at all.\n'.repeat(20)) }], 415, 'not_dicom', /^notes\.txt: .*not a DICOM file/);
    expect(body.fileName).toBe('notes.txt');
  });

  it('refuses a truncated file', async () => {
    const whole = makeDicom({ patientId: 'BAD-1' }).bytes;
    await expectRefused([{ name: 'cut.dcm', bytes: whole.subarray(0, whole.length - 5000) }], 400, 'truncated', /^cut\.dcm: the file ends inside its pixel data/);
    await expectRefused([{ name: 'header.dcm', bytes: whole.subarray(0, 400) }], 400, 'truncated', /^header\.dcm: /);
  });

  it('refuses an unsupported transfer syntax, naming it', async () => {
    const bytes = makeDicom({ patientId: 'BAD-2', syntax: 'rle', transferSyntaxUid: '1.2.840.10008.1.2.4.102' }).bytes;
    await expectRefused([{ name: 'h264.dcm', bytes }], 415, 'unsupported_transfer_syntax', /MPEG-4 AVC\/H\.264 \(1\.2\.840\.10008\.1\.2\.4\.102\) is not supported/);
  });

  it('refuses zero frames', async () => {
    await expectRefused([{ name: 'zero.dcm', bytes: makeDicom({ patientId: 'BAD-3', numberOfFrames: '0' }).bytes }], 422, 'zero_frames', /Number of Frames is 0/);
    await expectRefused([{ name: 'empty.dcm', bytes: makeDicom({ patientId: 'BAD-3', noPixelData: true }).bytes }], 422, 'zero_frames', /no pixel data/);
  });

  it('refuses frames that do not have the announced size or count', async () => {
    const short = makeDicom({ patientId: 'BAD-4', dropLastFrame: true }).bytes;
    await expectRefused([{ name: 'short.dcm', bytes: short }], 422, 'inconsistent_frames', /holds 58368 bytes where 20 frames of 64x48 \(3072 bytes each\) need 61440/);
    const rle = makeDicom({ patientId: 'BAD-4', syntax: 'rle', dropLastFrame: true }).bytes;
    await expectRefused([{ name: 'short-rle.dcm', bytes: rle }], 422, 'inconsistent_frames', /announces 20 frames/);
    const other = makeDicom({ syntax: 'jpeg', frames: 1, rows: 40, columns: 64 });
    // The header says 64x48; swap in a 64x40 JPEG frame.
    const mixed = makeDicom({
      patientId: 'BAD-4',
      syntax: 'jpeg',
      frames: 3,
      mutateFrame: (index, bytes) => (index === 2 ? jpegFrameOf(other.bytes) : bytes),
    }).bytes;
    await expectRefused([{ name: 'mixed.dcm', bytes: mixed }], 422, 'inconsistent_frames', /frame 3 is 64x40 where the header says 64x48/);
  });

  it('refuses a file over the size limit (413), keeping none of it', async () => {
    const big = makeDicom({ patientId: 'BAD-5', frames: 400 }).bytes;
    expect(big.length).toBeGreaterThan(LIMIT_BYTES);
    const small = makeDicom({ patientId: 'BAD-5' }).bytes;
    await expectRefused(
      [
        { name: 'small.dcm', bytes: small },
        { name: 'big.dcm', bytes: big },
      ],
      413,
      'too_large',
      /^big\.dcm: the file is larger than the limit of 1 MiB per file/,
    );
  });

  it('refuses objects other than IVUS/US multi-frame and XA', async () => {
    await expectRefused(
      [{ name: 'ct.dcm', bytes: makeDicom({ patientId: 'BAD-6', sopClassUid: '1.2.840.10008.5.1.4.1.1.2', modality: 'CT' }).bytes }],
      415,
      'unsupported_object',
      /class 1\.2\.840\.10008\.5\.1\.4\.1\.1\.2, not an IVUS\/ultrasound multi-frame image nor an X-ray angiography run/,
    );
    await expectRefused(
      [{ name: 'oct.dcm', bytes: makeDicom({ patientId: 'BAD-6', modality: 'OCT' }).bytes }],
      415,
      'unsupported_object',
      /modality OCT/,
    );
  });

  it('asks for a patient when a file has no usable Patient ID, and refuses a study whose files name different patients', async () => {
    const body = await expectRefused([{ name: 'anon.dcm', bytes: makeDicom({ patientId: 'has spaces' }).bytes }], 422, 'patient_id_required', /^anon\.dcm: it has an unusable Patient ID \("has spaces"\)/);
    expect(body).toMatchObject({ fileName: 'anon.dcm', filesWithoutPatientId: ['anon.dcm'] });
    const studyUid = newUid();
    const a = makeDicom({ patientId: 'BAD-7', studyUid });
    const xa = makeDicom({ kind: 'xa', patientId: 'BAD-8', studyUid, frames: 3 });
    await expectRefused(
      [
        { name: 'a.dcm', bytes: a.bytes },
        { name: 'xa.dcm', bytes: xa.bytes },
      ],
      409,
      'conflicting_files',
      /^xa\.dcm: its patient \(BAD-8\) is not the patient of a\.dcm \(BAD-7\), of the same study/,
    );
  });

  it('refuses an angiography run while the pullback of its study is still being imported', async () => {
    const studyUid = newUid();
    const { db } = session.server.database;
    const running = crypto.randomUUID();
    await db.insert(imports).values({
      id: running,
      tenantId: 'demo',
      fileNames: ['ivus.dcm'],
      framesTotal: 100,
      studyInstanceUid: studyUid,
      targetRecordId: crypto.randomUUID(),
      createsRecord: true,
      tempDir: path.join(importTempRoot({ dataDir: session.dataDir }), running),
    });
    try {
      const xa = makeDicom({ kind: 'xa', patientId: 'BAD-8', studyUid, frames: 3 });
      await expectRefused([{ name: 'early.dcm', bytes: xa.bytes }], 409, 'angio_without_pullback', /still being imported/);
    } finally {
      await db.update(imports).set({ status: 'failed' }).where(eq(imports.id, running));
    }
  });

  it('refuses a series already imported (409), and the same series twice in one upload', async () => {
    const fixture = makeDicom({ patientId: 'DUP-1' });
    const first = await upload(session, [{ name: 'first.dcm', bytes: fixture.bytes }]);
    expect(first.statusCode).toBe(202);
    expect((await waitForImport(session, first.json().imports[0].importId)).status).toBe('done');
    await expectRefused([{ name: 'again.dcm', bytes: fixture.bytes }], 409, 'duplicate_series', new RegExp(`^again\\.dcm: its series \\(${fixture.seriesUid.replace(/\./g, '\\.')}\\) has already been imported`));
    // The same series twice in one upload: the first file is imported, the second skipped.
    const other = makeDicom({ patientId: 'DUP-2' });
    const twice = await upload(session, [
      { name: 'one.dcm', bytes: other.bytes },
      { name: 'two.dcm', bytes: other.bytes },
    ]);
    expect(twice.statusCode, twice.body).toBe(202);
    const batch = ImportBatchSchema.parse(twice.json());
    expect(batch.imports.map((i) => i.fileNames)).toEqual([['one.dcm']]);
    expect(batch.skipped).toEqual([{ fileName: 'two.dcm', code: 'duplicate_series', message: 'two.dcm: it holds the same series as one.dcm.' }]);
    expect((await waitForImport(session, batch.imports[0]!.importId)).status).toBe('done');
  });

  it('answers 415 to a body that is not multipart, and 400 to a form without files', async () => {
    const json = await session.server.app.inject({
      method: 'POST',
      url: '/api/demo/imports',
      headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(415);
    const empty = await upload(session, [{ name: 'x.dcm', bytes: Buffer.from('x'), field: 'other' }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/parts named "files"/);
    expect((await footprint(session)).temp).toEqual([]);
  });

  it('rolls back an import whose frames fail to decode in the background: failed, and nothing left', async () => {
    const before = await footprint(session);
    // Chunk 0 decodes and is stored; frame 20's RLE segment offset points past its end.
    const fixture = makeDicom({
      patientId: 'DEC-1',
      syntax: 'rle',
      frames: 20,
      mutateFrame: (index, bytes) => {
        if (index !== 19) return bytes;
        const copy = bytes.slice();
        new DataView(copy.buffer).setUint32(4, copy.length + 100, true);
        return copy;
      },
    });
    const response = await upload(session, [{ name: 'broken.dcm', bytes: fixture.bytes }]);
    expect(response.statusCode).toBe(202);
    const failed = await waitForImport(session, response.json().imports[0].importId);
    expect(failed).toMatchObject({ status: 'failed', recordId: null, patientId: null });
    expect(failed.error).toEqual({ code: 'decode_failed', message: 'broken.dcm: frame 20: an RLE frame has a bad segment offset' });
    expect(failed.finishedAt).not.toBeNull();
    const after = await footprint(session);
    expect(after).toEqual({ ...before, imports: before.imports + 1 });
    // Its series is free again: the fixed file may be sent.
    const fixed = makeDicom({ patientId: 'DEC-1', syntax: 'rle', seriesUid: fixture.seriesUid, studyUid: fixture.studyUid });
    const again = await upload(session, [{ name: 'fixed.dcm', bytes: fixed.bytes }]);
    expect(again.statusCode).toBe(202);
    expect((await waitForImport(session, again.json().imports[0].importId)).status).toBe('done');
  });

  it('does not show another tenant an import', async () => {
    const fixture = makeDicom({ patientId: 'TEN-1' });
    const response = await upload(session, [{ name: 'tenant.dcm', bytes: fixture.bytes }]);
    const importId = response.json().imports[0].importId as string;
    await waitForImport(session, importId);
    const acmeUser = await findUserByEmail(session.server.database.db, 'acme', 'clinician@acme.test');
    const acme = `Bearer ${await mintIdToken(session.server, 'acme', { sub: acmeUser!.id })}`;
    const other = await get(session, `/api/acme/imports/${importId}`, 'acme', acme);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'not_found', message: `No import "${importId}".` });
    const list = ImportListSchema.parse((await get(session, '/api/acme/imports', 'acme', acme)).json());
    expect(list.imports.some((i) => i.importId === importId)).toBe(false);
    expect(list.maxFileBytes).toBe(LIMIT_BYTES);
    // A demo token on the acme address is refused outright.
    expect((await get(session, `/api/acme/imports/${importId}`, 'acme')).statusCode).toBe(401);
    expect((await get(session, `/api/demo/imports/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await get(session, '/api/demo/imports/not-a-uuid')).statusCode).toBe(404);
  });
});

describe.skipIf(postgresUnavailable)('DICOM import across server stops', () => {
  it('finishes, after a restart, an import its server stopped in the middle of: once, whole, nothing left over', async () => {
    const session = await openSession({ IMPORT_MAX_FILE_BYTES: String(64 * 1024 * 1024) });
    const store = new LocalDirectoryStore(session.server.storeDir);
    let restarted: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      const before = await footprint(session);
      const fixture = makeDicom({ patientId: 'STOP-1', syntax: 'rle', frames: 2000, rows: 96, columns: 128, pixel: (f, x, y) => (x + y + f) & 255 });
      const response = await upload(session, [{ name: 'long.dcm', bytes: fixture.bytes }]);
      expect(response.statusCode).toBe(202);
      const importId = response.json().imports[0].importId as string;
      // Stop once some chunks are stored.
      for (let progress = 0; progress === 0; await new Promise((resolve) => setTimeout(resolve, 5))) {
        progress = (await get(session, `/api/demo/imports/${importId}`)).json().framesDone;
      }
      await session.server.app.close();
      const [stopped] = await session.server.database.db.select().from(imports).where(eq(imports.id, importId));
      // Nothing undone: the import waits for its job to be retried, its uploaded file kept.
      expect(stopped).toMatchObject({ status: 'processing', recordId: null });
      expect(stopped!.framesDone).toBeLessThan(2000);
      expect(filesUnder(stopped!.tempDir).length).toBe(1);

      // The restart: a new app on the same database and storage takes the job again and finishes it.
      restarted = await buildApp({ config: session.server.config, database: session.server.database, store });
      await restarted.ready();
      const app = restarted;
      const summaryNow = async () => ImportSummarySchema.parse((await app.inject({ url: `/api/demo/imports/${importId}`, headers: { host: hostOf('demo'), authorization: session.authorization } })).json());
      await expect.poll(async () => (await summaryNow()).status, { timeout: 60_000, interval: 100 }).toBe('done');
      const done = await summaryNow();
      expect(done).toMatchObject({ framesDone: 2000, patientId: 'STOP-1', error: null });
      const after = await footprint(session);
      expect(after).toMatchObject({ patients: before.patients + 1, records: before.records + 1, imports: before.imports + 1, audit: before.audit + 1, temp: [] });
      // Every frame chunk of the record once, and nothing stored outside it.
      const added = after.blobs.filter((file) => !before.blobs.includes(file));
      expect(added.filter((file) => !file.startsWith(path.join(session.server.storeDir, 'demo', done.recordId!)))).toEqual([]);
      expect(added.filter((file) => file.endsWith('.u8.gz'))).toHaveLength(chunkCount(2000));
      expect(added.filter((file) => file.endsWith('.ivfp'))).toHaveLength(chunkCount(2000));
    } finally {
      await restarted?.close();
      await session.server.database.close();
      fs.rmSync(session.server.storeDir, { recursive: true, force: true });
      fs.rmSync(session.dataDir, { recursive: true, force: true });
    }
  });

  it('rolls back, on start-up, an import left unfinished by a crashed server', async () => {
    const session = await openSession();
    try {
      const before = await footprint(session);
      const { db } = session.server.database;
      // What a crash leaves: an import row still 'processing' with a stale heartbeat, stored chunks, uploaded files.
      const importId = crypto.randomUUID();
      const recordId = crypto.randomUUID();
      const tempDir = path.join(importTempRoot({ dataDir: session.dataDir }), importId);
      fs.mkdirSync(tempDir, { recursive: true });
      fs.writeFileSync(path.join(tempDir, '000.dcm'), makeDicom({ patientId: 'CRASH-1' }).bytes);
      const orphanUpload = path.join(importTempRoot({ dataDir: session.dataDir }), crypto.randomUUID());
      fs.mkdirSync(orphanUpload);
      fs.writeFileSync(path.join(orphanUpload, '000.dcm'), 'half an upload');
      const store = new LocalDirectoryStore(session.server.storeDir);
      await store.put(`demo/${recordId}/v1/bmode/00000.u8.gz`, Buffer.from('chunk'));
      await db.insert(imports).values({
        id: importId,
        tenantId: 'demo',
        fileNames: ['crash.dcm'],
        framesTotal: 20,
        framesDone: 16,
        studyInstanceUid: newUid(),
        targetRecordId: recordId,
        createsRecord: true,
        storagePrefixes: [`demo/${recordId}/`],
        tempDir,
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
      });
      await db.insert(importSeries).values({ tenantId: 'demo', seriesInstanceUid: newUid(), importId });
      // And one that crashed while rolling back a decode failure.
      const rollingBack = crypto.randomUUID();
      const otherRecord = crypto.randomUUID();
      await store.put(`demo/${otherRecord}/v1/bmode/00000.u8.gz`, Buffer.from('chunk'));
      await db.insert(imports).values({
        id: rollingBack,
        tenantId: 'demo',
        status: 'rolling_back',
        errorCode: 'decode_failed',
        errorMessage: 'crash.dcm: frame 3: a JPEG frame cannot be decoded',
        fileNames: ['crash-2.dcm'],
        framesTotal: 20,
        studyInstanceUid: newUid(),
        targetRecordId: otherRecord,
        createsRecord: true,
        storagePrefixes: [`demo/${otherRecord}/`],
        tempDir: path.join(importTempRoot({ dataDir: session.dataDir }), rollingBack),
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
      });
      // Until its roll-back is over, it shows as still processing.
      const midway = ImportSummarySchema.parse((await get(session, `/api/demo/imports/${rollingBack}`)).json());
      expect(midway).toMatchObject({ status: 'processing', error: null });

      // The restart: a new app on the same database and storage.
      const restarted = await buildApp({ config: session.server.config, database: session.server.database, store });
      await restarted.ready();
      try {
        const response = await restarted.inject({ url: `/api/demo/imports/${importId}`, headers: { host: hostOf('demo'), authorization: session.authorization } });
        expect(response.statusCode).toBe(200);
        const summary = ImportSummarySchema.parse(response.json());
        expect(summary.status).toBe('failed');
        expect(summary.error?.code).toBe('interrupted');
        expect(summary.error?.message).toMatch(/server stopped while this import was being processed/);
        const resumed = await restarted.inject({ url: `/api/demo/imports/${rollingBack}`, headers: { host: hostOf('demo'), authorization: session.authorization } });
        expect(resumed.json()).toMatchObject({ status: 'failed', error: { code: 'decode_failed', message: 'crash.dcm: frame 3: a JPEG frame cannot be decoded' } });
        const after = await footprint(session);
        expect(after.blobs).toEqual(before.blobs);
        expect(after.series).toBe(before.series);
        expect(after.patients).toBe(before.patients);
        expect(after.records).toBe(before.records);
        expect(fs.existsSync(tempDir)).toBe(false);
        if (session.server.database.kind === 'pglite') expect(fs.existsSync(orphanUpload)).toBe(false);
      } finally {
        await restarted.close();
      }
    } finally {
      await session.server.close();
      fs.rmSync(session.dataDir, { recursive: true, force: true });
    }
  });
});

/** The encapsulated bytes of the first frame of a one-fragment JPEG fixture. */
function jpegFrameOf(file: Buffer): Uint8Array {
  const soi = file.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  const eoi = file.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return new Uint8Array(file.subarray(soi, eoi + 2));
}

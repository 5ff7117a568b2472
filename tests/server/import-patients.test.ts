/**
 * Whose patient an import files a record under: a file without a usable Patient ID needs the
 * uploader's choice (form fields, before or after the files), and every way a file could land in
 * the wrong patient (another name or birth date under its Patient ID, a chosen patient other than
 * the file's) is refused with 409 until confirmed. Refusals leave nothing behind.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRejectedSchema, type ImportRejected } from '../../src/domain/imports.ts';
import { listAudit } from '../../src/server/db/audit.ts';
import { patients, records } from '../../src/server/db/schema.ts';
import { makeDicom, type FixtureOptions } from '../support/dicom-fixtures.ts';
import { batchDone, closeSession, footprint, get, openSession, upload, uploadAccepted, type Session } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

let counter = 0;
const nextId = () => `PAT-${process.pid}-${++counter}`;
const file = (name: string, options: FixtureOptions) => ({ name, bytes: makeDicom(options).bytes });

describe.skipIf(postgresUnavailable)('DICOM import: choosing and checking the patient', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  /** A refused upload: its status and body, and nothing left behind. */
  async function refused(files: { name: string; bytes: Uint8Array }[], fields: Record<string, string>, status: number): Promise<ImportRejected & { error: string }> {
    const before = await footprint(session);
    const response = await upload(session, files, fields);
    expect(response.statusCode, response.body).toBe(status);
    expect(await footprint(session)).toEqual(before);
    return status === 400 ? response.json() : ImportRejectedSchema.parse(response.json());
  }

  async function patientRow(patientId: string) {
    const [row] = await session.server.database.db.select().from(patients).where(eq(patients.patientId, patientId));
    return row;
  }

  async function auditOf(importId: string) {
    const audit = await listAudit(session.server.database.db, 'demo', { limit: 500 });
    return audit.find((row) => row.action === 'record-imported' && (row.details as { importId?: string }).importId === importId)?.details;
  }

  /** Imports a patient through a file of its own, so it exists as Doe, Jane born 1958-02-14. */
  async function existingPatient(): Promise<string> {
    const patientId = nextId();
    await batchDone(session, await uploadAccepted(session, [file('first.dcm', { patientId, patientName: 'Doe^Jane', birthDate: '19580214' })]));
    return patientId;
  }

  it('answers 422 patient_id_required for files without a usable Patient ID, then files them under a new patient named by the form (fields after the files)', async () => {
    const anonymous = file('anon.dcm', { patientId: '' });
    const other = file('anon-2.dcm', { patientId: 'not valid!' });
    const body = await refused([anonymous, other], {}, 422);
    expect(body).toMatchObject({ error: 'patient_id_required', fileName: null, filesWithoutPatientId: ['anon.dcm', 'anon-2.dcm'] });
    expect(body.message).toMatch(/^2 files have no usable Patient ID \(anon\.dcm, anon-2\.dcm\)/);

    const patientId = nextId();
    const fields = { patientId, patientName: 'Roe^Richard', birthDate: '1970-05-01', sex: 'M' };
    const response = await upload(session, [anonymous, other], fields, true);
    expect(response.statusCode, response.body).toBe(202);
    const done = await batchDone(session, response.json());
    expect(done.map((d) => d.patientId)).toEqual([patientId, patientId]);
    expect(await patientRow(patientId)).toMatchObject({ name: 'Roe, Richard', birthDate: '1970-05-01', sex: 'M' });
    // Two records (two pullbacks), one patient: whichever import commits first creates it.
    const audits = await Promise.all(done.map((d) => auditOf(d.importId)));
    for (const details of audits) expect(details).toMatchObject({ patientId, patientChosenBy: 'uploader', patientIdentityConfirmed: false });
    expect(audits.filter((details) => (details as { patientCreated: boolean }).patientCreated)).toHaveLength(1);
  });

  it('files a file without a Patient ID under an existing patient chosen by id alone', async () => {
    const patientId = await existingPatient();
    const [done] = await batchDone(session, await uploadAccepted(session, [file('anon.dcm', { patientId: '', patientName: 'Somebody^Else' })], { patientId }));
    expect(done!.patientId).toBe(patientId);
    expect(await patientRow(patientId)).toMatchObject({ name: 'Doe, Jane' });
    expect(await auditOf(done!.importId)).toMatchObject({ patientChosenBy: 'uploader', patientCreated: false });
    const list = await get(session, `/api/demo/patients/${patientId}/records`);
    expect(list.json().records).toHaveLength(2);
  });

  it('answers 400 to a bad form field, naming it', async () => {
    const anonymous = file('anon.dcm', { patientId: '' });
    const cases: [Record<string, string>, RegExp][] = [
      [{ patientId: 'has spaces', patientName: 'A' }, /patientId "has spaces" is not a valid patient id/],
      [{ patientId: nextId() }, /patientName is required: there is no patient/],
      [{ patientId: nextId(), patientName: 'A', birthDate: '1970-02-30' }, /birthDate "1970-02-30" is not a date/],
      [{ patientId: nextId(), patientName: 'A', sex: 'X' }, /sex must be F, M, O or U/],
      [{ patientId: nextId(), patientName: 'A', confirmPatientIdentity: 'yes' }, /confirmPatientIdentity must be true or false/],
      [{ patientName: 'A' }, /send patientId too/],
      [{ patient: 'A' }, /Unexpected form field "patient"/],
    ];
    for (const [fields, message] of cases) {
      const body = await refused([anonymous], fields, 400);
      expect(body.error).toBe('bad_request');
      expect(body.message).toMatch(message);
    }
  });

  it("refuses a file whose Patient ID exists under another name or birth date (409), unless confirmed; case, spaces and ^ do not count", async () => {
    const patientId = await existingPatient();
    const renamed = file('renamed.dcm', { patientId, patientName: 'Doe^Joan', birthDate: '19580214' });
    const body = await refused([renamed], {}, 409);
    expect(body).toMatchObject({
      error: 'patient_identity_mismatch',
      fileName: 'renamed.dcm',
      patientIdentity: { patientId, file: { name: 'Doe, Joan', birthDate: '1958-02-14' }, existing: { name: 'Doe, Jane', birthDate: '1958-02-14' } },
    });
    expect(body.message).toMatch(/confirmPatientIdentity=true/);
    const reborn = file('reborn.dcm', { patientId, patientName: 'Doe^Jane', birthDate: '19600101' });
    expect((await refused([reborn], {}, 409)).patientIdentity?.file.birthDate).toBe('1960-01-01');

    // The same name written otherwise, or a file without a birth date, is the same patient.
    const same = file('same.dcm', { patientId, patientName: 'DOE^jane^^^', birthDate: '' });
    const [done] = await batchDone(session, await uploadAccepted(session, [same]));
    expect(await auditOf(done!.importId)).toMatchObject({ patientChosenBy: 'file', patientIdentityConfirmed: false });

    const [confirmed] = await batchDone(session, await uploadAccepted(session, [renamed], { confirmPatientIdentity: 'true' }));
    expect(confirmed!.patientId).toBe(patientId);
    expect(await patientRow(patientId)).toMatchObject({ name: 'Doe, Jane' });
    expect(await auditOf(confirmed!.importId)).toMatchObject({ patientChosenBy: 'file', patientIdentityConfirmed: true });
  });

  it('refuses a chosen existing patient whose name or birth date the form gives otherwise, unless confirmed', async () => {
    const patientId = await existingPatient();
    const anonymous = file('anon.dcm', { patientId: '' });
    const body = await refused([anonymous], { patientId, patientName: 'Smith^John' }, 409);
    expect(body).toMatchObject({
      error: 'patient_identity_mismatch',
      fileName: null,
      patientIdentity: { patientId, file: { name: 'Smith, John', birthDate: null }, existing: { name: 'Doe, Jane', birthDate: '1958-02-14' } },
    });
    await refused([anonymous], { patientId, patientName: 'Doe, Jane', birthDate: '1958-02-15' }, 409);
    const [done] = await batchDone(session, await uploadAccepted(session, [anonymous], { patientId, patientName: 'doe  jane', birthDate: '1958-02-14' }));
    expect(done!.patientId).toBe(patientId);
    const other = file('anon-2.dcm', { patientId: '' });
    const [confirmed] = await batchDone(session, await uploadAccepted(session, [other], { patientId, patientName: 'Smith^John', confirmPatientIdentity: 'true' }));
    expect(await auditOf(confirmed!.importId)).toMatchObject({ patientId, patientChosenBy: 'uploader', patientIdentityConfirmed: true });
    expect(await patientRow(patientId)).toMatchObject({ name: 'Doe, Jane' });
  });

  it("refuses a file whose own Patient ID is not the chosen patient's, unless confirmed (then it is filed under the chosen one)", async () => {
    const chosen = await existingPatient();
    const own = nextId();
    const named = file('named.dcm', { patientId: own, patientName: 'Other^Person' });
    const body = await refused([named], { patientId: chosen }, 409);
    expect(body).toMatchObject({ error: 'patient_identity_mismatch', fileName: 'named.dcm', patientIdentity: { patientId: chosen, file: { name: 'Other, Person' } } });
    expect(body.message).toMatch(new RegExp(`its Patient ID is ${own}`));
    const [done] = await batchDone(session, await uploadAccepted(session, [named], { patientId: chosen, confirmPatientIdentity: 'true' }));
    expect(done!.patientId).toBe(chosen);
    expect(await patientRow(own)).toBeUndefined();
    const [record] = await session.server.database.db.select().from(records).where(eq(records.id, done!.recordId!));
    expect(record!.patientId).toBe(chosen);
    expect(await auditOf(done!.importId)).toMatchObject({ patientChosenBy: 'uploader', patientIdentityConfirmed: true });
  });

  it('refuses files of one upload that give one new Patient ID two names', async () => {
    const patientId = nextId();
    const body = await refused(
      [file('a.dcm', { patientId, patientName: 'Doe^Jane' }), file('b.dcm', { patientId, patientName: 'Roe^Jane' })],
      {},
      409,
    );
    expect(body).toMatchObject({ error: 'patient_identity_mismatch', fileName: 'b.dcm' });
    expect(body.message).toMatch(/a\.dcm says "Doe, Jane"/);
  });
});

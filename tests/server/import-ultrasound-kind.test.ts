/**
 * Only IVUS is analysed as IVUS (issue 26): an ultrasound loop whose header does not make it an
 * IVUS pullback (an obstetric or echo loop) is refused unless the uploader confirms, is then kept
 * as other ultrasound, and never gets borders, figures or a report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patients, records } from '../../src/server/db/schema.ts';
import { makeDicom, type FixtureOptions } from '../support/dicom-fixtures.ts';
import { LOOP_COLUMNS, LOOP_ROWS, loopGray } from '../support/ultrasound-loops.ts';
import { batchDone, closeSession, get, openSession, upload, uploadAccepted, type Session } from './import-session.ts';
import { hostOf, postgresUnavailable } from './test-server.ts';

/** A GE obstetric loop as consoles write it: modality US, colour, no IVUS attributes, a body part. */
const OBSTETRIC: FixtureOptions = {
  kind: 'us', manufacturer: 'GE Healthcare', model: 'Voluson E10', bodyPart: 'PELVIS', pullbackRate: null,
  color: 'rgb', syntax: 'jpeg', frames: 4, rows: 48, columns: 64,
};

describe.skipIf(postgresUnavailable)('ultrasound that is not IVUS', () => {
  let session: Session;
  let serial = 0;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));
  const nextPatient = () => `USK-${++serial}`;
  const db = () => session.server.database.db;
  const recordsOf = (patientId: string) => db().select().from(records).where(and(eq(records.tenantId, 'demo'), eq(records.patientId, patientId)));

  it('is refused with 409 naming why, and nothing is created, unless the uploader confirms', async () => {
    const patientId = nextPatient();
    const loop = makeDicom({ ...OBSTETRIC, patientId });
    const refused = await upload(session, [{ name: 'fetal.dcm', bytes: loop.bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'not_ivus', fileName: 'fetal.dcm' });
    expect(refused.json().message).toMatch(/not an IVUS pullback \(modality US from GE Healthcare Voluson E10, body part PELVIS/);
    expect(refused.json().message).toMatch(/confirmOtherUltrasound=true/);
    expect(await recordsOf(patientId)).toEqual([]);
    expect(await db().select().from(patients).where(eq(patients.patientId, patientId))).toEqual([]);
  });

  it('once confirmed, is kept as other ultrasound, says so and that its colour became grey, and gets no borders nor a PACS report', async () => {
    const patientId = nextPatient();
    const loop = makeDicom({ ...OBSTETRIC, patientId });
    const [done] = await batchDone(session, await uploadAccepted(session, [{ name: 'fetal.dcm', bytes: loop.bytes }], { confirmOtherUltrasound: 'true' }));
    expect(done!.warnings.join('\n')).toMatch(/fetal\.dcm is not an IVUS pullback .*imported as other ultrasound/);
    expect(done!.warnings.join('\n')).toMatch(/fetal\.dcm is in colour: its frames are kept and shown in grey/);
    const list = await get(session, `/api/demo/patients/${patientId}/records`);
    expect(list.json().records[0]).toMatchObject({ recordId: done!.recordId, imagingKind: 'other-ultrasound', bmodeFrameCount: 4 });

    // Nothing is detected at ingest either. Idle detections run one at a time in the order they are
    // queued: once a pullback imported after it has its borders, the loop would have had its own.
    const stored = (recordId: string) => fs.readdirSync(path.join(session.server.storeDir, 'demo', recordId, 'v1'));
    const pullback = makeDicom({ patientId: nextPatient(), frames: 3, rows: 32, columns: 32 });
    const [ivus] = await batchDone(session, await uploadAccepted(session, [{ name: 'pullback.dcm', bytes: pullback.bytes }]));
    await expect.poll(() => stored(ivus!.recordId!), { timeout: 20_000 }).toContain('contours');
    expect(stored(done!.recordId!)).not.toContain('contours');
    const contours = await get(session, `/api/demo/records/${done!.recordId}/contours`);
    expect(contours.statusCode).toBe(422);
    expect(contours.json()).toMatchObject({ error: 'not_ivus' });
    const sent = await session.server.app.inject({
      method: 'POST',
      url: `/api/demo/records/${done!.recordId}/pacs-send`,
      headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': 'application/json' },
      payload: { connectionId: 'no-such-connection' },
    });
    // Refused before any connection is looked up or any report is made.
    expect(sent.statusCode).toBe(422);
    expect(sent.json()).toMatchObject({ error: 'not_ivus' });
  });

  it('is IVUS when its header says so in any of the ways consoles do', async () => {
    // Where only a name says IVUS, the frames must not contradict it: they are drawn as an IVUS catheter's image.
    const ivusFrames: FixtureOptions = { rows: LOOP_ROWS, columns: LOOP_COLUMNS, pixel: (f, x, y) => loopGray('ivus', f, x, y) };
    const ways: [string, FixtureOptions][] = [
      ['modality IVUS', { kind: 'ivus', pullbackRate: null }],
      ['an IVUS acquisition attribute', { kind: 'us', pullbackRate: 0.5 }],
      ['an IVUS console', { kind: 'us', pullbackRate: null, manufacturer: 'Boston Scientific', model: 'iLab', ...ivusFrames }],
      ['a description naming IVUS', { kind: 'us', pullbackRate: null, seriesDescription: 'IVUS LAD pullback', ...ivusFrames }],
    ];
    for (const [way, options] of ways) {
      const patientId = nextPatient();
      const file = makeDicom({ frames: 3, rows: 32, columns: 32, ...options, patientId });
      const [done] = await batchDone(session, await uploadAccepted(session, [{ name: 'pullback.dcm', bytes: file.bytes }]));
      const [row] = await recordsOf(patientId);
      expect(row?.imagingKind, way).toBe('ivus');
      expect(done!.warnings.join('\n'), way).not.toMatch(/not an IVUS pullback/);
    }
  });

  it('keeps the header\'s word when the frames show nothing clear (all black, or one bright pixel), and takes IVUS from a name over a linear probe\'s rectangle', async () => {
    for (const [way, pixel] of [['all black', () => 0], ['one bright pixel', (f: number, x: number, y: number) => (x === 5 && y === 5 ? 255 : 0)]] as const) {
      const patientId = nextPatient();
      const file = makeDicom({ kind: 'us', pullbackRate: null, manufacturer: 'Volcano', model: 's5i', patientId, frames: 3, rows: 32, columns: 32, pixel });
      await batchDone(session, await uploadAccepted(session, [{ name: 'dark.dcm', bytes: file.bytes }]));
      expect((await recordsOf(patientId)).map((r) => r.imagingKind), way).toEqual(['ivus']);
    }
    const patientId = nextPatient();
    const linear = makeDicom({ kind: 'us', pullbackRate: null, manufacturer: 'Volcano', model: 's5i', patientId, frames: 3, rows: 32, columns: 32 });
    const refused = await upload(session, [{ name: 'linear.dcm', bytes: linear.bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/names IVUS only by an IVUS console \(Volcano s5i\) and its frames show a rectangular field of view/);
    expect(await recordsOf(patientId)).toEqual([]);
  });

  it('is skipped from a folder of files with its reason, while the IVUS pullback beside it is imported', async () => {
    const patientId = nextPatient();
    const pullback = makeDicom({ patientId, frames: 3, rows: 32, columns: 32 });
    const echo = makeDicom({ ...OBSTETRIC, patientId, bodyPart: 'HEART', model: 'Vivid E95' });
    const batch = await uploadAccepted(session, [
      { name: 'pullback.dcm', bytes: pullback.bytes },
      { name: 'echo.dcm', bytes: echo.bytes },
    ]);
    expect(batch.skipped).toEqual([expect.objectContaining({ fileName: 'echo.dcm', code: 'not_ivus' })]);
    await batchDone(session, batch);
    expect((await recordsOf(patientId)).map((r) => r.imagingKind)).toEqual(['ivus']);
  });

  it('refuses a confirmation that is not true or false', async () => {
    const loop = makeDicom({ ...OBSTETRIC, patientId: nextPatient() });
    const refused = await upload(session, [{ name: 'fetal.dcm', bytes: loop.bytes }], { confirmOtherUltrasound: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/confirmOtherUltrasound must be true or false/);
  });
});

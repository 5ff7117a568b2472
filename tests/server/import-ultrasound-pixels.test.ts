/**
 * Only IVUS is analysed as IVUS, by its pixels as well as its header (issue 26): echo, obstetric and
 * vascular loops encoded by the real DICOM tools as consoles write them (JPEG baseline,
 * YBR_FULL_422) are refused naming what their frames show; an IVUS loop with an IVUS header is
 * imported as IVUS; header and frames that disagree make the uploader decide.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records } from '../../src/server/db/schema.ts';
import { encodeLoop, missingDicomTools, type LoopEncoding, type LoopHeader, type LoopKind } from '../support/ultrasound-loops.ts';
import { batchDone, closeSession, openSession, upload, uploadAccepted, type Session } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

const skipped = postgresUnavailable || missingDicomTools.length > 0;

describe.skipIf(skipped)(`ultrasound loops judged by their frames (needs ${['gdcmimg', 'gdcmconv', 'dcmodify', 'dcmcjpeg'].join(', ')}; missing: ${missingDicomTools.join(', ') || 'none'})`, () => {
  let session: Session;
  let serial = 0;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));
  const nextPatient = () => `USP-${++serial}`;
  const kindsOf = async (patientId: string) =>
    (await session.server.database.db.select().from(records).where(and(eq(records.tenantId, 'demo'), eq(records.patientId, patientId)))).map((r) => r.imagingKind);

  const loop = (kind: LoopKind, header: Omit<LoopHeader, 'patientId'>, encoding?: LoopEncoding) => {
    const patientId = nextPatient();
    return { patientId, bytes: encodeLoop(kind, { ...header, patientId }, encoding) };
  };

  it.each([
    ['an echo loop (GE Vivid, JPEG YBR_FULL_422)', 'echo', { manufacturer: 'GE Healthcare', model: 'Vivid E95', bodyPart: 'HEART' }, 'jpeg-ybr422', /fan-shaped field of view/],
    ['an obstetric loop (GE Voluson, JPEG YBR_FULL_422)', 'obstetric', { manufacturer: 'GE Healthcare', model: 'Voluson E10', bodyPart: 'PELVIS' }, 'jpeg-ybr422', /fan-shaped field of view/],
    ['a vascular loop (Philips EPIQ, grey lossy JPEG by GDCM)', 'vascular', { manufacturer: 'Philips', model: 'EPIQ 7G', bodyPart: 'NECK' }, 'jpeg-gray', /rectangular field of view/],
  ] as const)('%s is refused with 409 not_ivus naming what its frames show, and nothing is created', async (_, kind, header, encoding, shown) => {
    const { patientId, bytes } = loop(kind, header, encoding);
    const refused = await upload(session, [{ name: `${kind}.dcm`, bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'not_ivus', fileName: `${kind}.dcm` });
    expect(refused.json().message).toMatch(shown);
    expect(await kindsOf(patientId)).toEqual([]);
  });

  it('an IVUS loop with an IVUS header (Philips, JPEG YBR_FULL_422) is imported as IVUS', async () => {
    const { patientId, bytes } = loop('ivus', { modality: 'IVUS', manufacturer: 'Philips', model: 'IntraSight', pullbackRate: 0.5 });
    const [done] = await batchDone(session, await uploadAccepted(session, [{ name: 'pullback.dcm', bytes }]));
    expect(done!.warnings.join('\n')).not.toMatch(/not an IVUS pullback/);
    expect(await kindsOf(patientId)).toEqual(['ivus']);
  });

  it('an echo loop whose header says IVUS is not analysed as IVUS: the uploader is asked, and a confirmed one is other ultrasound', async () => {
    const { patientId, bytes } = loop('echo', { modality: 'IVUS', seriesDescription: 'IVUS LAD' });
    const refused = await upload(session, [{ name: 'mislabelled.dcm', bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/its header says IVUS \(modality IVUS\) but its frames show a fan-shaped field of view/);
    await batchDone(session, await uploadAccepted(session, [{ name: 'mislabelled.dcm', bytes }], { confirmOtherUltrasound: 'true' }));
    expect(await kindsOf(patientId)).toEqual(['other-ultrasound']);
  });

  it('an IVUS-looking loop without an IVUS header is not made IVUS by its pixels: the uploader is told to export it with its IVUS fields', async () => {
    const { patientId, bytes } = loop('ivus', { manufacturer: 'Unknown console' });
    const refused = await upload(session, [{ name: 'unlabelled.dcm', bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/frames look like an IVUS pullback .*export it again from the IVUS console with its IVUS fields/);
    expect(await kindsOf(patientId)).toEqual([]);
  });

  it('a real echocardiography loop found in node_modules is refused as not IVUS', async () => {
    const sample = path.resolve('node_modules/dicomweb-client/testData/US-PAL-8-10x-echo.dcm');
    if (!fs.existsSync(sample)) return expect.soft(sample, 'dicomweb-client test data is not installed').toBe('present');
    const refused = await upload(session, [{ name: 'echo.dcm', bytes: fs.readFileSync(sample) }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'not_ivus' });
  });
});

describe.skipIf(skipped)('the same judgement in the imaging workers', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({ IMAGING_WORKERS: '1' });
  });
  afterAll(() => closeSession(session));

  it('refuses an obstetric loop whose header names IVUS only by its description', async () => {
    const bytes = encodeLoop('obstetric', { patientId: 'USP-W1', seriesDescription: 'IVUS pullback' });
    const refused = await upload(session, [{ name: 'fetal.dcm', bytes }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/its header says IVUS \(described as IVUS pullback\) but its frames show a fan-shaped field of view/);
  });
});

/**
 * The Orthanc harness the PACS tests stand on: it starts, stores what is uploaded, answers QIDO-RS
 * for it, and enforces basic authentication when users are configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { orthancAvailable, startOrthanc, type OrthancHandle } from '../../support/orthanc.ts';

const available = orthancAvailable();

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

async function findStudies(orthanc: OrthancHandle, patientId: string, authorization?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/dicom+json' };
  if (authorization) headers.authorization = authorization;
  return fetch(`${orthanc.dicomWebUrl}/studies?PatientID=${encodeURIComponent(patientId)}`, { headers });
}

describe.skipIf(!available)('Orthanc harness without authentication', () => {
  let orthanc: OrthancHandle;
  beforeAll(async () => {
    orthanc = (await startOrthanc())!;
  });
  afterAll(async () => {
    await orthanc?.stop();
  });

  it('stores an uploaded pullback and finds its study with QIDO-RS', async () => {
    const fixture = makeDicom({ patientId: 'HARNESS-OPEN', frames: 6 });
    const id = await orthanc.upload(fixture.bytes);
    expect(await orthanc.instances()).toContain(id);

    const response = await findStudies(orthanc, 'HARNESS-OPEN');
    expect(response.status).toBe(200);
    const studies = (await response.json()) as DicomJson[];
    expect(studies).toHaveLength(1);
    // (0020,000D) Study Instance UID.
    expect(studies[0]!['0020000D']?.Value).toEqual([fixture.studyUid]);

    const none = await findStudies(orthanc, 'NOBODY');
    // Orthanc answers an empty match with 200 [] (some PACS answer 204): either means none.
    expect([200, 204]).toContain(none.status);
    if (none.status === 200) expect(await none.json()).toEqual([]);
  });
});

describe.skipIf(!available)('Orthanc harness with basic authentication', () => {
  let orthanc: OrthancHandle;
  beforeAll(async () => {
    orthanc = (await startOrthanc({ users: { reviewer: 'correct horse' }, aeTitle: 'PACSAUTH' }))!;
  });
  afterAll(async () => {
    await orthanc?.stop();
  });

  it('answers 401 without credentials and the study with them', async () => {
    expect(orthanc.aeTitle).toBe('PACSAUTH');
    const fixture = makeDicom({ patientId: 'HARNESS-AUTH', frames: 4 });
    await orthanc.upload(fixture.bytes);

    expect((await findStudies(orthanc, 'HARNESS-AUTH')).status).toBe(401);
    const wrong = `Basic ${Buffer.from('reviewer:wrong').toString('base64')}`;
    expect((await findStudies(orthanc, 'HARNESS-AUTH', wrong)).status).toBe(401);

    const response = await findStudies(orthanc, 'HARNESS-AUTH', orthanc.authorization);
    expect(response.status).toBe(200);
    const studies = (await response.json()) as DicomJson[];
    expect(studies.map((study) => study['0020000D']?.Value?.[0])).toEqual([fixture.studyUid]);
  });
});

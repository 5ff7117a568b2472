/**
 * A record card names its run the way the cath lab did: the Series Description of the imported
 * files, the pullback's first, cleaned of control characters, in any script.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDicom, newUid } from '../support/dicom-fixtures.ts';
import { batchDone, closeSession, get, openSession, uploadAccepted, type Session, type UploadFile } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

describe.skipIf(postgresUnavailable)('imported records carry their Series Description', () => {
  let session: Session;
  let serial = 0;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  async function importOne(files: UploadFile[]): Promise<string> {
    const [done] = await batchDone(session, await uploadAccepted(session, files));
    expect(done?.status, JSON.stringify(done)).toBe('done');
    return done!.recordId!;
  }

  async function descriptionOf(patientId: string, recordId: string): Promise<string | null | undefined> {
    const list = await get(session, `/api/demo/patients/${patientId}/records`);
    expect(list.statusCode).toBe(200);
    return (list.json().records as { recordId: string; seriesDescription?: string | null }[]).find((r) => r.recordId === recordId)?.seriesDescription;
  }

  const nextPatient = () => `SDESC-${++serial}`;

  it('keeps a description in any script, without control characters, and null when there is none', async () => {
    const cases: [string | undefined, string | null][] = [
      ['LAD pre-PCI', 'LAD pre-PCI'],
      ['  RCA\u0001 post\tPCI\u00a0 ', 'RCA post PCI'],
      ['Левая ПНА — до стентирования', 'Левая ПНА — до стентирования'],
      ['\u0002\u0003', null],
      [undefined, null],
    ];
    for (const [given, expected] of cases) {
      const patientId = nextPatient();
      const file = makeDicom({ patientId, frames: 3, rows: 32, columns: 32, ...(given === undefined ? {} : { seriesDescription: given }) });
      const recordId = await importOne([{ name: 'ivus.dcm', bytes: file.bytes }]);
      expect(await descriptionOf(patientId, recordId), JSON.stringify(given)).toBe(expected);
    }
  });

  it('names the record by its pullback once the pullback joins an angiography run', async () => {
    const patientId = nextPatient();
    const studyUid = newUid();
    const angio = makeDicom({ kind: 'xa', patientId, studyUid, frames: 3, rows: 32, columns: 32, seriesDescription: 'Cine LAO 30' });
    const recordId = await importOne([{ name: 'angio.dcm', bytes: angio.bytes }]);
    expect(await descriptionOf(patientId, recordId)).toBe('Cine LAO 30');
    const pullback = makeDicom({ patientId, studyUid, frames: 3, rows: 32, columns: 32, seriesDescription: 'LCx post-PCI' });
    expect(await importOne([{ name: 'ivus.dcm', bytes: pullback.bytes }])).toBe(recordId);
    expect(await descriptionOf(patientId, recordId)).toBe('LCx post-PCI');
  });

  it('keeps the angiography run\'s name when the pullback that joins it has none', async () => {
    const patientId = nextPatient();
    const studyUid = newUid();
    const angio = makeDicom({ kind: 'xa', patientId, studyUid, frames: 3, rows: 32, columns: 32, seriesDescription: 'RCA LAO' });
    const recordId = await importOne([{ name: 'angio.dcm', bytes: angio.bytes }]);
    const pullback = makeDicom({ patientId, studyUid, frames: 3, rows: 32, columns: 32 });
    expect(await importOne([{ name: 'ivus.dcm', bytes: pullback.bytes }])).toBe(recordId);
    expect(await descriptionOf(patientId, recordId)).toBe('RCA LAO');
  });
});

/**
 * What an imported record says about its run: the name the cath lab gave it (the Series Description
 * of the files, the pullback's first, cleaned of control characters, in any script), and, for an
 * angiography run imported alone, the run's own frame rate rather than an assumed one.
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

  it('plays an angiography run alone at its own Frame Time, and says the rate is assumed only when the file gives none', async () => {
    const rateOf = async (patientId: string, recordId: string) => {
      const list = await get(session, `/api/demo/patients/${patientId}/records`);
      return (list.json().records as { recordId: string; frameRateHz: number; assumed?: string[] }[]).find((r) => r.recordId === recordId)!;
    };
    const timed = nextPatient();
    const run = makeDicom({ kind: 'xa', patientId: timed, frames: 3, rows: 32, columns: 32, frameTimeMs: 66.7 });
    const timedRecord = await rateOf(timed, await importOne([{ name: 'angio.dcm', bytes: run.bytes }]));
    expect(timedRecord.frameRateHz).toBeCloseTo(1000 / 66.7, 3);
    expect(timedRecord.assumed).not.toContain('frameRate');

    const untimed = nextPatient();
    const bare = makeDicom({ kind: 'xa', patientId: untimed, frames: 3, rows: 32, columns: 32, frameTimeMs: null });
    const untimedRecord = await rateOf(untimed, await importOne([{ name: 'angio.dcm', bytes: bare.bytes }]));
    expect(untimedRecord.frameRateHz).toBe(30);
    expect(untimedRecord.assumed).toContain('frameRate');
  });
});

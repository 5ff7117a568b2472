/**
 * A console pushing a study to the running server (DICOM_RECEIVER_PORT): dcmtk's storescu sends, the
 * server imports into the tenant of the called AE title, and the recent imports say who pushed it.
 * A push the import refuses (no Patient ID: nobody is there to name the patient) is kept as a failed
 * import with its reason rather than lost.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportListSchema, type ImportSummary } from '../../../src/domain/imports.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { hasTool } from '../../support/real-encoders.ts';
import { closeSession, get, openSession, waitForImport, type Session } from '../import-session.ts';
import { clinicianAuthorization, postgresUnavailable } from '../test-server.ts';
import { freePort } from '../../support/free-port.ts';

const hasStorescu = hasTool('storescu');
if (!hasStorescu) console.warn("\nNOTICE: Debian's dcmtk (storescu) is not installed: the DICOM push tests are skipped.\n");


function storescu(port: number, calledAe: string, file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('storescu', ['-aet', 'CATHLAB1', '-aec', calledAe, '127.0.0.1', String(port), file], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe.skipIf(postgresUnavailable || !hasStorescu)('studies pushed by DICOM C-STORE', () => {
  let session: Session;
  let port: number;
  const pushed = async (predicate: (i: ImportSummary) => boolean): Promise<ImportSummary> => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const list = ImportListSchema.parse((await get(session, '/api/demo/imports')).json());
      const found = list.imports.find(predicate);
      if (found) return found.status === 'processing' ? waitForImport(session, found.importId) : found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the pushed study never appeared in the recent imports');
  };
  const write = (name: string, bytes: Uint8Array) => {
    const file = path.join(session.dataDir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };

  beforeAll(async () => {
    port = await freePort();
    session = await openSession({ DICOM_RECEIVER_PORT: String(port), DICOM_RECEIVER_AE_TITLES: 'IVUSREVIEW=demo,ACMEIVUS=acme' });
    // The receiver starts once the server listens.
    await session.server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => closeSession(session));

  it('imports a pushed pullback into the called AE title\'s tenant, shown as pushed by the calling AE title', async () => {
    const pullback = makeDicom({ frames: 8, patientId: 'PUSHED-1', patientName: 'Pushed^Paul' });
    const sent = await storescu(port, 'IVUSREVIEW', write('pushed.dcm', pullback.bytes));
    expect(sent.code, sent.output).toBe(0);
    const done = await pushed((i) => i.patientId === 'PUSHED-1' || i.fileNames.some((f) => f.includes(pullback.sopInstanceUid)));
    expect(done).toMatchObject({ status: 'done', source: 'dimse', sourceName: 'CATHLAB1', patientId: 'PUSHED-1', framesTotal: 8 });
    // The acme tenant has nothing of it.
    const acme = ImportListSchema.parse((await get(session, '/api/acme/imports', 'acme', await clinicianAuthorization(session.server, 'acme'))).json());
    expect(acme.imports.filter((i) => i.source === 'dimse')).toEqual([]);
  });

  it('keeps a refused push (no Patient ID) as a failed import that says what to do', async () => {
    const anonymous = makeDicom({ frames: 4, patientId: '' });
    const sent = await storescu(port, 'IVUSREVIEW', write('anonymous.dcm', anonymous.bytes));
    expect(sent.code, sent.output).toBe(0);
    const failed = await pushed((i) => i.fileNames.some((f) => f.includes(anonymous.sopInstanceUid)));
    expect(failed).toMatchObject({ status: 'failed', source: 'dimse', sourceName: 'CATHLAB1' });
    expect(failed.error?.code).toBe('patient_id_required');
    expect(failed.error?.message).toMatch(/Upload page/);
  });

  it('rejects a push to an AE title no tenant has', async () => {
    const sent = await storescu(port, 'NOBODY', write('stray.dcm', makeDicom({ frames: 2, patientId: 'STRAY-1' }).bytes));
    expect(sent.code).not.toBe(0);
    expect(sent.output).toMatch(/Called AE Title Not Recognized/i);
  });
});

/**
 * A console pushing a study to the running server (DICOM_RECEIVER_PORT): dcmtk's storescu sends, the
 * server imports into the tenant of the called AE title, and the recent imports say who pushed it.
 * A push the import refuses (no Patient ID: nobody is there to name the patient) is kept as a failed
 * import with its reason rather than lost. Only callers the tenant's administrator registered may push
 * (issue 24): any other is rejected at association, and every association is in the audit trail.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportListSchema, type ImportSummary } from '../../../src/domain/imports.ts';
import { AuditPageSchema, type AuditEntry } from '../../../src/domain/users.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { hasTool } from '../../support/real-encoders.ts';
import { closeSession, get, openSession, waitForImport, type Session } from '../import-session.ts';
import { clinicianAuthorization, hostOf, mintIdToken, postgresUnavailable } from '../test-server.ts';
import { freePort } from '../../support/free-port.ts';

const hasStorescu = hasTool('storescu');
if (!hasStorescu) console.warn("\nNOTICE: Debian's dcmtk (storescu) is not installed: the DICOM push tests are skipped.\n");


function storescu(port: number, calledAe: string, file: string, callingAe = 'CATHLAB1'): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('storescu', ['-aet', callingAe, '-aec', calledAe, '127.0.0.1', String(port), file], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe.skipIf(postgresUnavailable || !hasStorescu)('studies pushed by DICOM C-STORE', () => {
  let session: Session;
  let port: number;
  const admins: Record<string, string> = {};
  /** The tenant's audit rows of DICOM associations, newest first, as its administrator reads them. */
  const associations = async (tenant: 'demo' | 'acme'): Promise<AuditEntry[]> => {
    const response = await session.server.app.inject({ url: `/api/${tenant}/audit?limit=100`, headers: { host: hostOf(tenant), authorization: admins[tenant]! } });
    return AuditPageSchema.parse(response.json()).items.filter((entry) => entry.action === 'dicom-association');
  };
  /** The newest association row matching `predicate` (rows are written once the association is over). */
  const associationRow = async (tenant: 'demo' | 'acme', predicate: (details: Record<string, unknown>) => boolean): Promise<AuditEntry> => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = (await associations(tenant)).find((row) => row.details && predicate(row.details));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no such association in ${tenant}'s audit trail`);
  };
  const dimseImports = async (tenant: 'demo' | 'acme') => {
    const authorization = tenant === 'demo' ? session.authorization : await clinicianAuthorization(session.server, 'acme');
    return ImportListSchema.parse((await get(session, `/api/${tenant}/imports`, tenant, authorization)).json()).imports.filter((i) => i.source === 'dimse');
  };
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
    for (const tenant of ['demo', 'acme']) {
      const user = await findUserByEmail(session.server.database.db, tenant, `admin@${tenant}.test`);
      admins[tenant] = `Bearer ${await mintIdToken(session.server, tenant, { sub: user!.id })}`;
    }
    // Demo's administrator registers the cath lab's console (acme registers nobody).
    const registered = await session.server.app.inject({
      method: 'POST',
      url: '/api/demo/pacs/dicom-callers',
      headers: { host: hostOf('demo'), authorization: admins.demo!, 'content-type': 'application/json' },
      payload: JSON.stringify({ aeTitle: 'CATHLAB1', description: 'Cath lab 1', networks: ['127.0.0.0/8'] }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
  });
  afterAll(() => closeSession(session));

  it('imports a pushed pullback into the called AE title\'s tenant, shown as pushed by the calling AE title', async () => {
    const pullback = makeDicom({ frames: 8, patientId: 'PUSHED-1', patientName: 'Pushed^Paul' });
    const sent = await storescu(port, 'IVUSREVIEW', write('pushed.dcm', pullback.bytes));
    expect(sent.code, sent.output).toBe(0);
    const done = await pushed((i) => i.patientId === 'PUSHED-1' || i.fileNames.some((f) => f.includes(pullback.sopInstanceUid)));
    expect(done).toMatchObject({ status: 'done', source: 'dimse', sourceName: 'CATHLAB1', patientId: 'PUSHED-1', framesTotal: 8 });
    // The acme tenant has nothing of it.
    expect(await dimseImports('acme')).toEqual([]);
    // The administrator sees the association in the audit trail: who, from where, what came of it.
    const row = await associationRow('demo', (d) => d.outcome === 'released');
    expect(row.details).toEqual({ callingAeTitle: 'CATHLAB1', calledAeTitle: 'IVUSREVIEW', remoteAddress: '127.0.0.1', outcome: 'released', reason: '', instances: 1 });
  });

  it('rejects a caller the tenant did not register at association, imports nothing, and audits the rejection', async () => {
    const before = (await dimseImports('demo')).length;
    const sent = await storescu(port, 'IVUSREVIEW', write('unregistered.dcm', makeDicom({ frames: 2, patientId: 'INTRUDER-1' }).bytes), 'ANYONE');
    expect(sent.code).not.toBe(0);
    expect(sent.output).toMatch(/Calling AE Title Not Recognized/i);
    const row = await associationRow('demo', (d) => d.callingAeTitle === 'ANYONE');
    expect(row.details).toMatchObject({ outcome: 'rejected', reason: 'calling AE title not registered', instances: 0 });
    expect(await dimseImports('demo')).toHaveLength(before);
  });

  it("rejects a caller registered in one tenant that calls another tenant's AE title", async () => {
    const sent = await storescu(port, 'ACMEIVUS', write('cross-tenant.dcm', makeDicom({ frames: 2, patientId: 'CROSS-1' }).bytes));
    expect(sent.code).not.toBe(0);
    expect(sent.output).toMatch(/Calling AE Title Not Recognized/i);
    const row = await associationRow('acme', (d) => d.calledAeTitle === 'ACMEIVUS');
    expect(row.details).toMatchObject({ callingAeTitle: 'CATHLAB1', calledAeTitle: 'ACMEIVUS', outcome: 'rejected' });
    expect(await dimseImports('acme')).toEqual([]);
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

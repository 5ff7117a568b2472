/**
 * The registered DICOM senders API (issue 24): only a tenant's administrators list, add, change and
 * remove the calling AE titles its receiver accepts; another tenant's entries name nothing; bad AE
 * titles and networks (NUL bytes and lone surrogates included) get a 400 and change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DicomCallerListSchema, DicomCallerSchema, type DicomCaller } from '../../../src/domain/dicom-callers.ts';
import { AuditPageSchema } from '../../../src/domain/users.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { clinicianAuthorization, createTestServer, hostOf, mintIdToken, type TestServer } from '../test-server.ts';

describe('registered DICOM senders API', () => {
  let server: TestServer;
  let admin: string;
  let acmeAdmin: string;
  let clinician: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, authorization: string, payload?: unknown, tenant = 'demo') =>
    server.app.inject({
      method,
      url,
      headers: { host: hostOf(tenant), authorization, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const adminOf = async (tenant: string) => {
    const user = await findUserByEmail(server.database.db, tenant, `admin@${tenant}.test`);
    return `Bearer ${await mintIdToken(server, tenant, { sub: user!.id })}`;
  };
  const rowCount = async () => {
    const result = await server.database.db.execute(sql`select count(*)::int as n from dicom_callers`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  const add = async (body: object, tenant = 'demo', authorization = admin): Promise<DicomCaller> => {
    const response = await call('POST', `/api/${tenant}/pacs/dicom-callers`, authorization, body, tenant);
    expect(response.statusCode, response.body).toBe(201);
    return DicomCallerSchema.parse(response.json());
  };

  beforeAll(async () => {
    server = await createTestServer({ DICOM_RECEIVER_PORT: '11112', DICOM_RECEIVER_AE_TITLES: 'IVUSREVIEW=demo,ACMEIVUS=acme' });
    admin = await adminOf('demo');
    acmeAdmin = await adminOf('acme');
    clinician = await clinicianAuthorization(server, 'demo');
  });
  afterAll(() => server?.close());

  it('lets an administrator register a sender, shown with what a console is configured with, and audits it', async () => {
    const caller = await add({ aeTitle: '  CATHLAB1 ', description: 'Cath lab 1 console', networks: ['10.1.2.0/24', 'FD00:0::1'] });
    expect(caller).toMatchObject({ aeTitle: 'CATHLAB1', description: 'Cath lab 1 console', networks: ['10.1.2.0/24', 'fd00::1'] });

    const list = DicomCallerListSchema.parse((await call('GET', '/api/demo/pacs/dicom-callers', admin)).json());
    expect(list.callers.map((c) => c.aeTitle)).toContain('CATHLAB1');
    expect(list.receiver).toEqual({ port: 11112, calledAeTitles: ['IVUSREVIEW'] });

    const audit = AuditPageSchema.parse((await call('GET', '/api/demo/audit', admin)).json());
    expect(audit.items[0]).toMatchObject({ action: 'dicom-caller-added', actorEmail: 'admin@demo.test', targetType: 'dicom-caller', targetId: caller.id });
    expect(audit.items[0]!.details).toMatchObject({ aeTitle: 'CATHLAB1', networks: '10.1.2.0/24, fd00::1' });
  });

  it('refuses a clinician (403), whatever the method', async () => {
    const before = await rowCount();
    expect((await call('GET', '/api/demo/pacs/dicom-callers', clinician)).statusCode).toBe(403);
    expect((await call('POST', '/api/demo/pacs/dicom-callers', clinician, { aeTitle: 'SNEAKY' })).statusCode).toBe(403);
    expect(await rowCount()).toBe(before);
  });

  // Text PostgreSQL cannot store is refused for every route before its own schema runs (http/validation.ts).
  const unstorable = /aeTitle: must not contain a NUL character or an unpaired surrogate/;
  const unstorableDescription = /description: must not contain a NUL character or an unpaired surrogate/;
  it.each([
    ['17 characters', { aeTitle: 'A'.repeat(17) }, /at most 16/],
    ['a backslash', { aeTitle: 'CATH\\LAB' }, /without backslash/],
    ['a NUL byte', { aeTitle: 'CATH\u0000LAB' }, unstorable],
    ['a control character', { aeTitle: 'CATH\tLAB' }, /printable ASCII/],
    ['a letter outside the default repertoire', { aeTitle: 'KONSOLÉ' }, /printable ASCII/],
    ['a lone surrogate', { aeTitle: 'CATH\ud800' }, unstorable],
    ['only spaces', { aeTitle: '    ' }, /not only spaces/],
    ['a lone surrogate in the description', { aeTitle: 'OK1', description: 'lab \udc00' }, unstorableDescription],
    ['a NUL in the description', { aeTitle: 'OK2', description: 'lab\u0000' }, unstorableDescription],
    ['a network that does not parse', { aeTitle: 'OK3', networks: ['10.1.2.0/33'] }, /not an address or network/],
    ['a host name for a network', { aeTitle: 'OK4', networks: ['console.example.org'] }, /address or network/],
    ['an unknown field', { aeTitle: 'OK5', tenantId: 'acme' }, /./],
  ])('answers 400 to an AE title or sender with %s, and stores nothing', async (_label, body, message) => {
    const before = await rowCount();
    const response = await call('POST', '/api/demo/pacs/dicom-callers', admin, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await rowCount()).toBe(before);
  });

  it('answers 409 to an AE title the tenant registered already; another tenant may register the same title', async () => {
    await add({ aeTitle: 'SHARED1' });
    const again = await call('POST', '/api/demo/pacs/dicom-callers', admin, { aeTitle: 'SHARED1' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/registered already/);
    await add({ aeTitle: 'SHARED1' }, 'acme', acmeAdmin);
  });

  it("keeps each tenant's senders to itself", async () => {
    const demoCaller = await add({ aeTitle: 'DEMOONLY' });
    const acmeList = DicomCallerListSchema.parse((await call('GET', '/api/acme/pacs/dicom-callers', acmeAdmin, undefined, 'acme')).json());
    expect(acmeList.callers.map((c) => c.aeTitle)).not.toContain('DEMOONLY');
    expect(acmeList.receiver?.calledAeTitles).toEqual(['ACMEIVUS']);
    // Acme's administrator naming demo's entry on acme's address: nothing there.
    expect((await call('PUT', `/api/acme/pacs/dicom-callers/${demoCaller.id}`, acmeAdmin, { aeTitle: 'HIJACKED' }, 'acme')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/acme/pacs/dicom-callers/${demoCaller.id}`, acmeAdmin, undefined, 'acme')).statusCode).toBe(404);
    // ...or on demo's address with an acme token: refused before any lookup.
    expect((await call('DELETE', `/api/demo/pacs/dicom-callers/${demoCaller.id}`, acmeAdmin)).statusCode).toBeGreaterThanOrEqual(401);
    const demoList = DicomCallerListSchema.parse((await call('GET', '/api/demo/pacs/dicom-callers', admin)).json());
    expect(demoList.callers.find((c) => c.id === demoCaller.id)?.aeTitle).toBe('DEMOONLY');
  });

  it('changes and removes a sender, each audited', async () => {
    const caller = await add({ aeTitle: 'OLDNAME' });
    const changed = await call('PUT', `/api/demo/pacs/dicom-callers/${caller.id}`, admin, { aeTitle: 'NEWNAME', networks: ['192.168.0.10'] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: caller.id, aeTitle: 'NEWNAME', networks: ['192.168.0.10'] });
    expect((await call('PUT', `/api/demo/pacs/dicom-callers/${caller.id}`, admin, { aeTitle: 'BAD\u0000' })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/demo/pacs/dicom-callers/${caller.id}`, admin)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/demo/pacs/dicom-callers/${caller.id}`, admin)).statusCode).toBe(404);
    expect((await call('PUT', '/api/demo/pacs/dicom-callers/not-an-id', admin, { aeTitle: 'X' })).statusCode).toBe(404);
    const actions = AuditPageSchema.parse((await call('GET', '/api/demo/audit', admin)).json()).items.map((e) => e.action);
    expect(actions.slice(0, 2)).toEqual(['dicom-caller-removed', 'dicom-caller-changed']);
  });
});

import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcPayloads } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { createTestServer, hostOf, mintIdToken, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

describe.skipIf(postgresUnavailable)("an administrator's change to an account ends that account's sign-in sessions at once", () => {
  let server: TestServer;
  let admin: string;
  let clinicianId: string;
  beforeAll(async () => {
    server = await createTestServer();
    const adminUser = await findUserByEmail(server.database.db, 'demo', 'admin@demo.test');
    admin = `Bearer ${await mintIdToken(server, 'demo', { sub: adminUser!.id })}`;
    clinicianId = (await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!.id;
  });
  afterAll(() => server.close());

  const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    server.app.inject({ method, url, headers: { host: hostOf('demo'), authorization: admin }, payload });
  const refresh = (refreshToken: string) =>
    server.app.inject({
      method: 'POST',
      url: '/idp/token',
      headers: { host: hostOf('demo'), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: embeddedClientId('demo') }).toString(),
    });
  const providerRecordsOf = async (accountId: string) =>
    (await server.database.db
      .select({ model: oidcPayloads.model })
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.tenantId, 'demo'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`))).map((row) => row.model);
  const signInClinician = async (password: string) => {
    const result = await signInThroughProvider(server, 'demo', 'clinician@demo.test', password);
    if (!result.ok) throw new Error(`sign-in failed: ${result.status}`);
    expect(await providerRecordsOf(clinicianId)).toEqual(expect.arrayContaining(['Session', 'Grant', 'RefreshToken']));
    return result.tokens.refresh_token!;
  };

  it.each([
    ['a password reset', () => call('POST', `/api/demo/users/${clinicianId}/password-reset`, { password: 'a-new-clinician-password' }), 'a-new-clinician-password'],
    ['granting administrator rights', () => call('PATCH', `/api/demo/users/${clinicianId}`, { admin: true }), null],
    ['revoking them', () => call('PATCH', `/api/demo/users/${clinicianId}`, { admin: false }), null],
    ['disabling the account', () => call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: true }), null],
  ] as const)('%s', async (_, change, newPassword) => {
    // Re-enabled and back to the demo password between cases, so each starts from a signed-in clinician.
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false });
    await call('POST', `/api/demo/users/${clinicianId}/password-reset`, { password: 'demo-clinician-password' });
    const refreshToken = await signInClinician('demo-clinician-password');
    expect((await refresh(refreshToken)).statusCode).toBe(200);
    const second = await signInClinician('demo-clinician-password');

    expect((await change()).statusCode).toBe(200);
    expect(await providerRecordsOf(clinicianId)).toEqual([]);
    const refused = await refresh(second);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_grant');
    if (newPassword) expect((await signInThroughProvider(server, 'demo', 'clinician@demo.test', newPassword)).ok).toBe(true);
  });

  it("leaves other accounts' sessions alone", async () => {
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false });
    const adminId = (await findUserByEmail(server.database.db, 'demo', 'admin@demo.test'))!.id;
    const adminSignIn = await signInThroughProvider(server, 'demo', 'admin@demo.test', 'demo-admin-password');
    expect(adminSignIn.ok).toBe(true);
    expect((await call('POST', `/api/demo/users/${clinicianId}/password-reset`, { password: 'demo-clinician-password' })).statusCode).toBe(200);
    expect(await providerRecordsOf(adminId)).toEqual(expect.arrayContaining(['Session', 'RefreshToken']));
  });
});

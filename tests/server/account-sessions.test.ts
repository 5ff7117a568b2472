import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcPayloads, users } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { ACCOUNT_CHECK_CACHE_MS, AccountChecks } from '../../src/server/auth/account-check.ts';
import { createProviderSession } from '../support/mint-token.ts';
import {
  appOnDatabase,
  createTestServer,
  hostOf,
  mintIdToken,
  originOf,
  postgresUnavailable,
  signInThroughProvider,
  type TestServer,
} from './test-server.ts';

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

describe.skipIf(postgresUnavailable)('the API refuses a token at once, on every replica, once its sign-in has ended', () => {
  let server: TestServer;
  /** A second app on the same database, as a second replica behind the load balancer. */
  let replica: TestServer;
  let admin: string;
  let clinicianId: string;
  const host = hostOf('demo');
  beforeAll(async () => {
    server = await createTestServer();
    replica = await appOnDatabase(server.config, server.database);
    const adminUser = await findUserByEmail(server.database.db, 'demo', 'admin@demo.test');
    admin = `Bearer ${await mintIdToken(server, 'demo', { sub: adminUser!.id })}`;
    clinicianId = (await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!.id;
  });
  afterAll(async () => {
    await replica.app.close();
    await server.close();
  });

  const patientsStatus = async (on: TestServer, idToken: string) =>
    (await on.app.inject({ method: 'GET', url: '/api/demo/patients', headers: { host, authorization: `Bearer ${idToken}` } })).statusCode;
  const signInClinician = async () => {
    const result = await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'demo-clinician-password');
    if (!result.ok) throw new Error(`sign-in failed: ${result.status}`);
    expect(await patientsStatus(server, result.tokens.id_token)).toBe(200);
    return result;
  };
  const endSessionPage = (cookie: string, idTokenHint?: string) => {
    const params = new URLSearchParams({ post_logout_redirect_uri: `${originOf('demo')}/`, client_id: embeddedClientId('demo') });
    if (idTokenHint) params.set('id_token_hint', idTokenHint);
    return server.app.inject({ method: 'GET', url: `/idp/session/end?${params}`, headers: { host, cookie } });
  };
  const confirmSignOut = (cookie: string, xsrf: string) =>
    server.app.inject({
      method: 'POST',
      url: '/idp/session/end/confirm',
      headers: { host, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
  const xsrfOf = (body: string) => /name="xsrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
  const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    server.app.inject({ method, url, headers: { host, authorization: admin }, payload });

  it("signing out with the app's Sign out (id_token_hint) is one step and ends API access on both replicas", async () => {
    const signIn = await signInClinician();
    const page = await endSessionPage(signIn.cookie, signIn.tokens.id_token);
    expect(page.statusCode).toBe(200);
    // Submitted by the page itself, with a script its CSP allows by hash and no other.
    expect(page.body).toContain(".submit()</script>");
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-[^']+'/);
    expect((await confirmSignOut(signIn.cookie, xsrfOf(page.body))).statusCode).toBe(303);

    expect(await patientsStatus(server, signIn.tokens.id_token)).toBe(401);
    expect(await patientsStatus(replica, signIn.tokens.id_token)).toBe(401);
  });

  it.each([
    ['a password reset', () => call('POST', `/api/demo/users/${clinicianId}/password-reset`, { password: 'demo-clinician-password' })],
    ['a disable', () => call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: true })],
    ['a rights change', () => call('PATCH', `/api/demo/users/${clinicianId}`, { admin: true })],
  ] as const)('%s ends API access of the tokens issued before, on both replicas', async (_, change) => {
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false, admin: false });
    const signIn = await signInClinician();
    expect((await change()).statusCode).toBe(200);
    expect(await patientsStatus(server, signIn.tokens.id_token)).toBe(401);
    expect(await patientsStatus(replica, signIn.tokens.id_token)).toBe(401);
  });

  it('a token whose account was changed answers 401 even while its session row still exists', async () => {
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false, admin: false });
    const signIn = await signInClinician();
    // Raised behind the server's back (no session deleted): the version alone refuses the token.
    await server.database.db.update(users).set({ credentialVersion: sql`${users.credentialVersion} + 1` }).where(eq(users.id, clinicianId));
    expect(await patientsStatus(replica, signIn.tokens.id_token)).toBe(401);
  });

  it('another site sending the browser to the end-session URL gets a confirmation page, and nobody is signed out', async () => {
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false, admin: false });
    const signIn = await signInClinician();
    const page = await endSessionPage(signIn.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sign out?');
    expect(page.body).not.toContain('<script');
    expect(page.headers['content-security-policy']).toContain("script-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // The forged confirmation lacks the page's CSRF token: refused, session kept.
    const forged = await confirmSignOut(signIn.cookie, 'guessed-xsrf');
    expect(forged.statusCode).toBe(400);
    expect(await patientsStatus(server, signIn.tokens.id_token)).toBe(200);
    expect(await patientsStatus(replica, signIn.tokens.id_token)).toBe(200);
    // The user's own click on "Sign out" does sign out.
    expect((await confirmSignOut(signIn.cookie, xsrfOf(page.body))).statusCode).toBe(303);
    expect(await patientsStatus(server, signIn.tokens.id_token)).toBe(401);
  });

  it("another account's ID token as id_token_hint does not sign out without asking", async () => {
    await call('PATCH', `/api/demo/users/${clinicianId}`, { disabled: false, admin: false });
    const victim = await signInClinician();
    const attacker = await signInThroughProvider(server, 'demo', 'admin@demo.test', 'demo-admin-password');
    if (!attacker.ok) throw new Error('sign-in failed');
    const page = await endSessionPage(victim.cookie, attacker.tokens.id_token);
    expect(page.body).toContain('Sign out?');
    expect(page.body).not.toContain('<script');
    expect(await patientsStatus(server, victim.tokens.id_token)).toBe(200);
  });

  it('a replica reuses its answer for ACCOUNT_CHECK_CACHE_MS at most: the bound on how long another replica may lag', async () => {
    let now = 1_000_000;
    const checks = new AccountChecks(server.database.db, () => now);
    const sid = await createProviderSession(server.database.db, 'demo', clinicianId);
    expect((await checks.check('demo', clinicianId, sid)).sessionLive).toBe(true);
    await server.database.db.delete(oidcPayloads).where(sql`${oidcPayloads.sessionIds} @> array[${sid}]::text[]`);
    now += ACCOUNT_CHECK_CACHE_MS - 1;
    expect((await checks.check('demo', clinicianId, sid)).sessionLive).toBe(true);
    now += 1;
    expect((await checks.check('demo', clinicianId, sid)).sessionLive).toBe(false);
  });
});

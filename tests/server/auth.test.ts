import { generateKeyPair, exportJWK } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { users } from '../../src/server/db/schema.ts';
import { demoAccounts } from '../../src/server/seed/demo-accounts.ts';
import { createTestServer, hostOf, mintIdToken, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

describe.skipIf(postgresUnavailable)('sign-in and token checks', () => {
  let server: TestServer;
  let clinicianId: string;
  beforeAll(async () => {
    server = await createTestServer();
    clinicianId = (await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!.id;
  });
  afterAll(() => server.close());

  const getPatients = (tenantId: string, authorization?: string, host = hostOf(tenantId)) =>
    server.app.inject({ method: 'GET', url: `/api/${tenantId}/patients`, headers: { host, ...(authorization ? { authorization } : {}) } });

  it('auth-info describes a known tenant and its embedded provider', async () => {
    const response = await server.app.inject({ url: '/api/auth-info?tenantId=demo', headers: { host: hostOf('demo') } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      clientId: 'ivus-review-demo',
      issuer: 'http://demo.localhost:8080/idp',
      redirectUri: 'http://demo.localhost:8080/callback',
      signoutUri: 'http://demo.localhost:8080/',
      responseType: 'code',
      scope: 'email openid phone profile',
      silentRefreshRedirectUri: 'http://demo.localhost:8080/silent-renew',
      start_checksession: false,
      cognitoDomain: null,
    });
  });

  it('auth-info answers 404 for an unknown tenant and 400 for a malformed one', async () => {
    const unknown = await server.app.inject({ url: '/api/auth-info?tenantId=nowhere', headers: { host: hostOf('demo') } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Unknown organisation "nowhere".' });
    const malformed = await server.app.inject({ url: '/api/auth-info?tenantId=Not%20A%20Tenant', headers: { host: hostOf('demo') } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/tenantId/);
  });

  it('refuses a request without a token', async () => {
    const response = await getPatients('demo');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/Authorization/);
  });

  it('refuses a malformed Authorization header', async () => {
    expect((await getPatients('demo', 'Basic abc')).statusCode).toBe(401);
    expect((await getPatients('demo', 'Bearer')).statusCode).toBe(401);
    expect((await getPatients('demo', 'Bearer not.a.jwt')).statusCode).toBe(401);
  });

  it('refuses a forged token signed with another key', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const key = { ...(await exportJWK(privateKey)), kid: 'forged' };
    const token = await mintIdToken(server, 'demo', { sub: clinicianId, key });
    expect((await getPatients('demo', `Bearer ${token}`)).statusCode).toBe(401);
  });

  it('refuses an expired token with a message saying so', async () => {
    const token = await mintIdToken(server, 'demo', { sub: clinicianId, expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const response = await getPatients('demo', `Bearer ${token}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/expired/);
  });

  it("refuses another tenant's token, on either path or host", async () => {
    const acmeUser = await findUserByEmail(server.database.db, 'acme', 'clinician@acme.test');
    const acmeToken = await mintIdToken(server, 'acme', { sub: acmeUser!.id });
    expect((await getPatients('acme', `Bearer ${acmeToken}`)).statusCode).toBe(200);
    expect((await getPatients('demo', `Bearer ${acmeToken}`)).statusCode).toBe(401);
    // The path may not name another tenant than the host does.
    expect((await getPatients('acme', `Bearer ${acmeToken}`, hostOf('demo'))).statusCode).toBe(404);
  });

  it('refuses a token whose audience is not the tenant client', async () => {
    const token = await mintIdToken(server, 'demo', { sub: clinicianId, audience: 'someone-else' });
    expect((await getPatients('demo', `Bearer ${token}`)).statusCode).toBe(401);
  });

  it("lists the tenant's patients for a valid token, and only that tenant's", async () => {
    const token = await mintIdToken(server, 'demo', { sub: clinicianId });
    const response = await getPatients('demo', `Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.total).toBe(36);
    expect(page.items.every((p: { patientId: string }) => p.patientId.startsWith('DEM-'))).toBe(true);
  });

  it('signs a clinician in through the provider: the ID token carries email and groups and works on the API', async () => {
    const account = demoAccounts('demo')[1]!;
    const result = await signInThroughProvider(server, 'demo', account.email, account.password);
    if (!result.ok) throw new Error(`sign-in failed: ${result.status} ${result.body}`);
    const claims = JSON.parse(Buffer.from(result.tokens.id_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ email: 'clinician@demo.test', groups: [], iss: 'http://demo.localhost:8080/idp', aud: 'ivus-review-demo' });
    expect(result.tokens.refresh_token).toBeTruthy();
    const api = await getPatients('demo', `${result.tokens.token_type} ${result.tokens.id_token}`);
    expect(api.statusCode).toBe(200);
    // The provider keeps its sessions and grants in the database, not in process memory.
    const rows = await server.database.db.execute(sql`select count(*)::int as n from oidc_payloads where tenant_id = 'demo'`);
    expect(Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBeGreaterThan(0);
  });

  it('puts administrators in the Admins group of the ID token', async () => {
    const account = demoAccounts('demo')[0]!;
    const result = await signInThroughProvider(server, 'demo', account.email, account.password);
    if (!result.ok) throw new Error(`sign-in failed: ${result.status}`);
    const claims = JSON.parse(Buffer.from(result.tokens.id_token.split('.')[1]!, 'base64url').toString());
    expect(claims.groups).toEqual(['Admins']);
  });

  it('refuses a wrong password and an unknown account with the same message', async () => {
    const wrong = await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'not-the-password');
    const unknown = await signInThroughProvider(server, 'demo', 'nobody@demo.test', 'whatever-password');
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(unknown).toMatchObject({ ok: false, status: 401 });
    if (wrong.ok || unknown.ok) return;
    expect(wrong.body).toContain('Incorrect email or password.');
    expect(unknown.body).toContain('Incorrect email or password.');
  });

  it("does not sign a tenant's account in on another tenant's provider", async () => {
    const result = await signInThroughProvider(server, 'acme', 'clinician@demo.test', 'demo-clinician-password');
    expect(result.ok).toBe(false);
  });

  it('stops honouring the tokens of a disabled account', async () => {
    expect((await getPatients('demo', `Bearer ${await mintIdToken(server, 'demo', { sub: clinicianId })}`)).statusCode).toBe(200);
    // Disabled behind this server's back, as another replica would: a sign-in this server has not
    // seen in the last ACCOUNT_CHECK_CACHE_MS is checked against the database.
    const token = await mintIdToken(server, 'demo', { sub: clinicianId });
    await server.database.db.update(users).set({ disabled: true }).where(sql`${users.id} = ${clinicianId}`);
    try {
      expect((await getPatients('demo', `Bearer ${token}`)).statusCode).toBe(401);
      expect((await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'demo-clinician-password')).ok).toBe(false);
    } finally {
      await server.database.db.update(users).set({ disabled: false }).where(sql`${users.id} = ${clinicianId}`);
    }
  });
});

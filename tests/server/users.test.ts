import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordTokens } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { createTestServer, hostOf, mintIdToken, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

type Method = 'GET' | 'POST' | 'PATCH';

describe.skipIf(postgresUnavailable)('user administration API', () => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let adminId: string;
  let clinicianId: string;
  let acmeClinicianId: string;

  const tokenOf = async (tenantId: string, email: string) => {
    const user = await findUserByEmail(server.database.db, tenantId, email);
    return `Bearer ${await mintIdToken(server, tenantId, { sub: user!.id })}`;
  };
  const call = (method: Method, url: string, authorization: string, payload?: object, tenantId = 'demo') =>
    server.app.inject({ method, url, headers: { host: hostOf(tenantId), authorization }, ...(payload ? { payload } : {}) });
  const create = (body: object) => call('POST', '/api/demo/users', admin, body);
  const auditActions = async (targetId: string) => {
    const rows = await server.database.db.execute(
      sql`select action, actor_email, details from audit_log where tenant_id = 'demo' and target_id = ${targetId} order by id`,
    );
    return (rows as unknown as { rows: { action: string; actor_email: string; details: Record<string, unknown> }[] }).rows;
  };
  /** Opens a one-time link the way a browser would, and submits the form on it. */
  const setPasswordWithLink = (link: string, password: string, confirm = password) => {
    const url = new URL(link);
    const token = url.searchParams.get('token')!;
    return server.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, password, confirm }).toString(),
    });
  };

  beforeAll(async () => {
    server = await createTestServer();
    admin = await tokenOf('demo', 'admin@demo.test');
    clinician = await tokenOf('demo', 'clinician@demo.test');
    adminId = (await findUserByEmail(server.database.db, 'demo', 'admin@demo.test'))!.id;
    clinicianId = (await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!.id;
    acmeClinicianId = (await findUserByEmail(server.database.db, 'acme', 'clinician@acme.test'))!.id;
  });
  afterAll(() => server.close());

  it('answers 403 with a clear message to a non-administrator on every users and audit route', async () => {
    const routes: [Method, string, object?][] = [
      ['GET', '/api/demo/users'],
      ['POST', '/api/demo/users', { email: 'sneaky@demo.test', name: 'Sneaky' }],
      ['PATCH', `/api/demo/users/${clinicianId}`, { admin: true }],
      ['POST', `/api/demo/users/${adminId}/password-reset`, { password: 'taken-over-password' }],
      ['GET', '/api/demo/audit'],
    ];
    for (const [method, url, body] of routes) {
      const response = await call(method, url, clinician, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toMatch(/Only administrators/);
    }
    // Nothing changed behind the refusals.
    expect(await findUserByEmail(server.database.db, 'demo', 'sneaky@demo.test')).toBeUndefined();
    expect((await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!.groups).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/demo/users', headers: { host: hostOf('demo') } });
    expect(response.statusCode).toBe(401);
  });

  it("lists the tenant's users with their groups, state and last sign-in, never a password hash", async () => {
    const response = await call('GET', '/api/demo/users', admin);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ total: 2, offset: 0, limit: 25 });
    expect(page.items.map((u: { email: string }) => u.email)).toEqual(['admin@demo.test', 'clinician@demo.test']);
    expect(page.items[0]).toMatchObject({ name: 'Dr. Alex Admin', groups: ['Admins'], isAdmin: true, disabled: false });
    expect(page.items[1]).toMatchObject({ isAdmin: false, lastSignInAt: null });
    expect(response.body).not.toMatch(/scrypt|password/i);
  });

  it('searches by email or name and pages with offset and limit', async () => {
    const byName = (await call('GET', '/api/demo/users?search=casey', admin)).json();
    expect(byName.items.map((u: { email: string }) => u.email)).toEqual(['clinician@demo.test']);
    const none = (await call('GET', '/api/demo/users?search=%25', admin)).json();
    expect(none).toMatchObject({ total: 0, items: [] });
    const second = (await call('GET', '/api/demo/users?offset=1&limit=1', admin)).json();
    expect(second).toMatchObject({ total: 2, offset: 1, limit: 1 });
    expect(second.items.map((u: { email: string }) => u.email)).toEqual(['clinician@demo.test']);
  });

  it('answers 400 naming the problem for bad queries and bodies', async () => {
    const cases: [Method, string, object | undefined, RegExp][] = [
      ['GET', '/api/demo/users?limit=1000', undefined, /limit must be 100 or less/],
      ['GET', '/api/demo/users?role=admin', undefined, /unknown parameter "role"/],
      ['POST', '/api/demo/users', { email: 'not-an-email', name: 'X' }, /email must be an email address/],
      ['POST', '/api/demo/users', { email: 'short@demo.test', name: 'X', password: 'short' }, /password must be at least 12 characters/],
      ['POST', '/api/demo/users', { email: 'noname@demo.test' }, /name/],
      ['POST', '/api/demo/users', { email: 'x@demo.test', name: 'X', groups: ['Admins'] }, /unknown parameter "groups"/],
      ['PATCH', `/api/demo/users/${clinicianId}`, {}, /give admin or disabled/],
      ['PATCH', `/api/demo/users/${clinicianId}`, { admin: 'yes' }, /admin must be true or false/],
      ['POST', `/api/demo/users/${clinicianId}/password-reset`, { password: 'tiny' }, /password must be at least 12/],
    ];
    for (const [method, url, body, message] of cases) {
      const response = await call(method, url, admin, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('creates a user with a password, who can then sign in; the creation is audited', async () => {
    const response = await create({ email: '  Robin.New@Demo.test ', name: 'Robin New', password: 'robin-initial-password' });
    expect(response.statusCode).toBe(201);
    const { user, setPasswordLink } = response.json();
    expect(user).toMatchObject({ email: 'robin.new@demo.test', name: 'Robin New', groups: [], isAdmin: false, disabled: false });
    expect(setPasswordLink).toBeNull();
    expect(response.body).not.toContain('robin-initial-password');

    const signIn = await signInThroughProvider(server, 'demo', 'robin.new@demo.test', 'robin-initial-password');
    expect(signIn.ok).toBe(true);
    const listed = (await call('GET', '/api/demo/users?search=robin', admin)).json().items[0];
    expect(listed.lastSignInAt).not.toBeNull();

    const audit = await auditActions(user.id);
    expect(audit[0]).toMatchObject({ action: 'user-created', actor_email: 'admin@demo.test', details: { email: 'robin.new@demo.test' } });
    expect(JSON.stringify(audit)).not.toContain('robin-initial-password');
  });

  it('answers 409 for an email that already has an account, whatever its case', async () => {
    const response = await create({ email: 'CLINICIAN@demo.test', name: 'Copy', password: 'another-password-1' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/already exists/);
  });

  it('creates a user with a one-time link: shown once, stored only as a hash, usable once within 24 hours', async () => {
    const response = await create({ email: 'link.user@demo.test', name: 'Link User' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { user, setPasswordLink } = response.json();
    const link = new URL(setPasswordLink.url);
    expect(link.origin + link.pathname).toBe('http://demo.localhost:8080/idp/set-password');
    const token = link.searchParams.get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const hours = (Date.parse(setPasswordLink.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    // Only a hash is stored, and no other answer repeats the link.
    const stored = await server.database.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await call('GET', '/api/demo/users?search=link.user', admin)).body).not.toContain(token);
    expect((await call('GET', '/api/demo/audit?limit=200', admin)).body).not.toContain(token);

    // Until the link is used, no password signs the account in.
    expect((await signInThroughProvider(server, 'demo', 'link.user@demo.test', '')).ok).toBe(false);

    const page = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host: link.host } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Set your password');
    expect(page.body).toContain('link.user@demo.test');
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    const mismatch = await setPasswordWithLink(setPasswordLink.url, 'link-user-password', 'something-else-entirely');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('The two passwords differ');
    const tooShort = await setPasswordWithLink(setPasswordLink.url, 'short');
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.body).toContain('at least 12 characters');

    const done = await setPasswordWithLink(setPasswordLink.url, 'link-user-password');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Password set');
    expect((await signInThroughProvider(server, 'demo', 'link.user@demo.test', 'link-user-password')).ok).toBe(true);

    // A second use of the same link is refused and changes nothing.
    const again = await setPasswordWithLink(setPasswordLink.url, 'hijacked-password-1');
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('Link no longer valid');
    expect((await signInThroughProvider(server, 'demo', 'link.user@demo.test', 'link-user-password')).ok).toBe(true);
    expect((await auditActions(user.id)).map((row) => row.action)).toContain('password-reset');
  });

  it('refuses an expired link, and a link on another tenant’s address', async () => {
    const { user, setPasswordLink } = (await create({ email: 'late.user@demo.test', name: 'Late User' })).json();
    const link = new URL(setPasswordLink.url);
    const onAcme = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host: hostOf('acme') } });
    expect(onAcme.statusCode).toBe(410);
    await server.database.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordTokens.userId, user.id));
    const expired = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host: link.host } });
    expect(expired.statusCode).toBe(410);
    expect((await setPasswordWithLink(setPasswordLink.url, 'late-user-password')).statusCode).toBe(410);
  });

  it('grants and revokes Admins, effective on the API at once, each change audited', async () => {
    const { user } = (await create({ email: 'promoted@demo.test', name: 'Pro Moted', password: 'promoted-password' })).json();
    const token = await tokenOf('demo', 'promoted@demo.test');
    expect((await call('GET', '/api/demo/users', token)).statusCode).toBe(403);

    const granted = await call('PATCH', `/api/demo/users/${user.id}`, admin, { admin: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ groups: ['Admins'], isAdmin: true });
    // A rights change ends the sign-ins made before it: the old token answers 401, a new sign-in carries the rights.
    expect((await call('GET', '/api/demo/patients', token)).statusCode).toBe(401);
    const signIn = await signInThroughProvider(server, 'demo', 'promoted@demo.test', 'promoted-password');
    if (!signIn.ok) throw new Error('sign-in failed');
    expect(JSON.parse(Buffer.from(signIn.tokens.id_token.split('.')[1]!, 'base64url').toString()).groups).toEqual(['Admins']);
    const adminToken = `Bearer ${signIn.tokens.id_token}`;
    expect((await call('GET', '/api/demo/users', adminToken)).statusCode).toBe(200);

    const revoked = await call('PATCH', `/api/demo/users/${user.id}`, admin, { admin: false });
    expect(revoked.json()).toMatchObject({ groups: [], isAdmin: false });
    expect((await call('GET', '/api/demo/users', adminToken)).statusCode).toBe(401);

    const audit = await auditActions(user.id);
    expect(audit.filter((row) => row.action === 'role-changed').map((row) => row.details.change)).toEqual(['granted', 'revoked']);
  });

  it('disables an account: its token stops working at once and it cannot sign in; enabling restores the sign-in', async () => {
    const { user } = (await create({ email: 'leaver@demo.test', name: 'Lee Ver', password: 'leaver-password-1' })).json();
    const token = await tokenOf('demo', 'leaver@demo.test');
    expect((await call('GET', '/api/demo/patients', token)).statusCode).toBe(200);

    const disabled = await call('PATCH', `/api/demo/users/${user.id}`, admin, { disabled: true });
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect((await call('GET', '/api/demo/patients', token)).statusCode).toBe(401);
    const refused = await signInThroughProvider(server, 'demo', 'leaver@demo.test', 'leaver-password-1');
    expect(refused).toMatchObject({ ok: false, status: 401 });

    // Enabling again lets the account sign in; the token of before stays dead.
    await call('PATCH', `/api/demo/users/${user.id}`, admin, { disabled: false });
    expect((await call('GET', '/api/demo/patients', token)).statusCode).toBe(401);
    expect((await signInThroughProvider(server, 'demo', 'leaver@demo.test', 'leaver-password-1')).ok).toBe(true);
    expect((await auditActions(user.id)).map((row) => row.action)).toEqual(
      expect.arrayContaining(['account-disabled', 'account-enabled']),
    );
  });

  it('does not let an administrator disable themself or remove the last administrator', async () => {
    const self = await call('PATCH', `/api/demo/users/${adminId}`, admin, { disabled: true });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot disable your own account.');

    const lastAdmin = await call('PATCH', `/api/demo/users/${adminId}`, admin, { admin: false });
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json().message).toMatch(/at least one enabled administrator/);
    expect((await findUserByEmail(server.database.db, 'demo', 'admin@demo.test'))!.groups).toEqual(['Admins']);

    // With a second administrator, stepping down is allowed.
    const { user: deputy } = (await create({ email: 'deputy@demo.test', name: 'Dep Uty', password: 'deputy-password-1' })).json();
    await call('PATCH', `/api/demo/users/${deputy.id}`, admin, { admin: true });
    const deputyToken = await tokenOf('demo', 'deputy@demo.test');
    const stepDown = await call('PATCH', `/api/demo/users/${deputy.id}`, deputyToken, { admin: false });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().isAdmin).toBe(false);
  });

  it("answers 404 for another tenant's user id and for an id that is not one", async () => {
    for (const id of [acmeClinicianId, 'not-a-user-id', '00000000-0000-4000-8000-000000000000']) {
      expect((await call('PATCH', `/api/demo/users/${id}`, admin, { disabled: true })).statusCode).toBe(404);
      expect((await call('POST', `/api/demo/users/${id}/password-reset`, admin, {})).statusCode).toBe(404);
    }
    expect((await findUserByEmail(server.database.db, 'acme', 'clinician@acme.test'))!.disabled).toBe(false);
  });

  it('resets a password to a given one, or with a new one-time link that replaces the previous link', async () => {
    const { user } = (await create({ email: 'forgetful@demo.test', name: 'For Getful', password: 'first-password-1' })).json();
    const set = await call('POST', `/api/demo/users/${user.id}/password-reset`, admin, { password: 'second-password-2' });
    expect(set.statusCode).toBe(200);
    expect(set.json().setPasswordLink).toBeNull();
    expect((await signInThroughProvider(server, 'demo', 'forgetful@demo.test', 'first-password-1')).ok).toBe(false);
    expect((await signInThroughProvider(server, 'demo', 'forgetful@demo.test', 'second-password-2')).ok).toBe(true);

    const first = (await call('POST', `/api/demo/users/${user.id}/password-reset`, admin)).json().setPasswordLink.url;
    const second = (await call('POST', `/api/demo/users/${user.id}/password-reset`, admin, {})).json().setPasswordLink.url;
    expect(first).not.toBe(second);
    expect((await setPasswordWithLink(first, 'third-password-3')).statusCode).toBe(410);
    expect((await setPasswordWithLink(second, 'fourth-password-4')).statusCode).toBe(200);
    expect((await signInThroughProvider(server, 'demo', 'forgetful@demo.test', 'fourth-password-4')).ok).toBe(true);
    const resets = (await auditActions(user.id)).filter((row) => row.action === 'password-reset');
    expect(resets.map((row) => row.details.method)).toEqual([
      'set by administrator',
      'one-time link issued',
      'one-time link issued',
      'one-time link used',
    ]);
  });

  it('does not let a disabled account set its password with a link', async () => {
    const { user, setPasswordLink } = (await create({ email: 'blocked@demo.test', name: 'Blocked' })).json();
    await call('PATCH', `/api/demo/users/${user.id}`, admin, { disabled: true });
    expect((await setPasswordWithLink(setPasswordLink.url, 'blocked-password-1')).statusCode).toBe(410);
  });
});

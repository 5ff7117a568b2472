import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema.ts';
import { ACCOUNT_TIERS, ADDRESS_TIERS, CLIENT_TIERS } from '../../../src/server/auth/sign-in-locks.ts';
import { createSignInThrottle } from '../../../src/server/idp/sign-in-throttle.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { appOnDatabase, createTestServer, hostOf, mintIdToken, postgresUnavailable, signInThroughProvider, type TestServer } from '../test-server.ts';

describe('sign-in throttle', () => {
  type Attempt = { tenantId: string; email: string; deviceId?: string };
  /** A bare app whose two routes count a failure and read the wait, as the sign-in route does. */
  async function throttleApp() {
    const app = Fastify();
    await app.register(rateLimit, { global: false });
    const throttle = createSignInThrottle(app);
    app.post<{ Body: Attempt }>('/fail', async (request) => ({ wait: await throttle.recordFailure(request, request.body) }));
    app.post<{ Body: Attempt }>('/wait', async (request) => ({ wait: await throttle.retryAfterSeconds(request, request.body) }));
    await app.ready();
    const call = async (route: 'fail' | 'wait', ip: string, attempt: Attempt) =>
      (await app.inject({ method: 'POST', url: `/${route}`, remoteAddress: ip, payload: attempt })).json<{ wait: number }>().wait;
    return { app, fail: (ip: string, attempt: Attempt) => call('fail', ip, attempt), wait: (ip: string, attempt: Attempt) => call('wait', ip, attempt) };
  }

  it('locks an account from the address that failed a handful of times, longer as failures go on, without touching other addresses, accounts or tenants', async () => {
    const { app, fail, wait } = await throttleApp();
    const account = { tenantId: 'demo', email: 'clinician@demo.test' };
    const first = CLIENT_TIERS[0]!;
    for (let i = 1; i < first.failures; i++) expect(await fail('10.0.0.1', account)).toBe(0);
    expect(await wait('10.0.0.1', account)).toBe(0);
    const locked = await fail('10.0.0.1', account);
    expect(locked).toBeGreaterThan(0);
    expect(locked).toBeLessThanOrEqual(first.windowMs / 1000);
    // From another address the account is free: five guesses from one place lock out only that place.
    expect(await wait('10.0.0.2', account)).toBe(0);
    // Another account, the same account name in another tenant: free.
    expect(await wait('10.0.0.1', { tenantId: 'demo', email: 'admin@demo.test' })).toBe(0);
    expect(await wait('10.0.0.1', { tenantId: 'acme', email: 'clinician@demo.test' })).toBe(0);
    // The second tier: the wait grows to its window.
    const second = CLIENT_TIERS[1]!;
    let longer = 0;
    for (let i = first.failures; i < second.failures; i++) longer = await fail('10.0.0.1', account);
    expect(longer).toBeGreaterThan(first.windowMs / 1000);
    await app.close();
  });

  it('slows guesses spread over many addresses with an account-wide lock that the owner’s own browser (device cookie) is not subject to', async () => {
    const { app, fail, wait } = await throttleApp();
    const account = { tenantId: 'demo', email: 'spread@demo.test' };
    const perAddress = CLIENT_TIERS[0]!.failures - 1;
    let locked = 0;
    for (let i = 0; i < ACCOUNT_TIERS[0]!.failures; i++) locked = await fail(`10.1.0.${Math.floor(i / perAddress)}`, account);
    expect(locked).toBeGreaterThan(0);
    // A browser that never signed in to the account waits, from any address …
    expect(await wait('10.1.9.9', account)).toBeGreaterThan(0);
    // … the owner's browser does not, even from an address the guesses came from.
    expect(await wait('10.1.0.0', { ...account, deviceId: 'owner-laptop' })).toBe(0);
    await app.close();
  });

  it("does not lock the owner's browser behind an address that a guesser has locked", async () => {
    const { app, fail, wait } = await throttleApp();
    const account = { tenantId: 'demo', email: 'shared-nat@demo.test' };
    for (let i = 0; i < CLIENT_TIERS[0]!.failures; i++) await fail('10.2.0.1', account);
    expect(await wait('10.2.0.1', account)).toBeGreaterThan(0);
    expect(await wait('10.2.0.1', { ...account, deviceId: 'owner-desktop' })).toBe(0);
    // The device's own guesses lock the device.
    for (let i = 0; i < CLIENT_TIERS[0]!.failures; i++) await fail('10.2.0.1', { ...account, deviceId: 'stolen-laptop' });
    expect(await wait('10.2.0.1', { ...account, deviceId: 'stolen-laptop' })).toBeGreaterThan(0);
    expect(await wait('10.2.0.1', { ...account, deviceId: 'owner-desktop' })).toBe(0);
    await app.close();
  });

  it('locks a client address that fails on many accounts, within its tenant only', async () => {
    const { app, fail, wait } = await throttleApp();
    const tier = ADDRESS_TIERS[0]!;
    let locked = 0;
    for (let i = 0; i < tier.failures; i++) locked = await fail('10.9.9.9', { tenantId: 'demo', email: `guess${i}@demo.test` });
    expect(locked).toBeGreaterThan(0);
    expect(await wait('10.9.9.9', { tenantId: 'demo', email: 'someone-else@demo.test' })).toBeGreaterThan(0);
    expect(await wait('10.9.9.8', { tenantId: 'demo', email: 'someone-else@demo.test' })).toBe(0);
    expect(await wait('10.9.9.9', { tenantId: 'acme', email: 'someone-else@acme.test' })).toBe(0);
    await app.close();
  });
});

describe.skipIf(postgresUnavailable)('sign-in through the provider under a password-guessing flood', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 with a wait once an account has failed a handful of times, even to the right password, and writes one audit row', async () => {
    const failures = CLIENT_TIERS[0]!.failures;
    for (let i = 1; i < failures; i++) expect(await signInThroughProvider(server, 'demo', 'clinician@demo.test', `wrong-${i}`)).toMatchObject({ ok: false, status: 401 });
    const reached = await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'wrong-last');
    expect(reached).toMatchObject({ ok: false, status: 429 });
    if (reached.ok) return;
    expect(reached.body).toMatch(/Too many failed sign-ins\. Try again in \d+ s/);
    const right = await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'demo-clinician-password');
    expect(right).toMatchObject({ ok: false, status: 429 });
    const rows = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, 'demo'), eq(auditLog.action, 'sign-in-throttled')));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actorEmail).toBe('clinician@demo.test');
    // Other accounts, and the same kind of account in another organisation, sign in as usual.
    expect((await signInThroughProvider(server, 'demo', 'admin@demo.test', 'demo-admin-password')).ok).toBe(true);
    expect((await signInThroughProvider(server, 'acme', 'clinician@acme.test', 'acme-clinician-password')).ok).toBe(true);
  });
});

describe.skipIf(postgresUnavailable)('the throttle across replicas', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await createTestServer();
    // A second replica: another app on the same database, as another process behind the balancer would be.
    second = await appOnDatabase(first.config, first.database);
  });
  afterAll(async () => {
    await second.app.close();
    await first.close();
  });

  it('counts failures made on either replica: the guesses spread over two replicas lock the account on both', async () => {
    const failures = CLIENT_TIERS[0]!.failures;
    for (let i = 1; i < failures; i++) {
      const replica = i % 2 === 0 ? first : second;
      expect(await signInThroughProvider(replica, 'demo', 'admin@demo.test', `wrong-${i}`)).toMatchObject({ ok: false, status: 401 });
    }
    expect(await signInThroughProvider(first, 'demo', 'admin@demo.test', 'wrong-last')).toMatchObject({ ok: false, status: 429 });
    expect(await signInThroughProvider(second, 'demo', 'admin@demo.test', 'demo-admin-password')).toMatchObject({ ok: false, status: 429 });
  });
});

describe.skipIf(postgresUnavailable)('lock-outs per account and address, which cannot lock the owner out', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await createTestServer();
    const adminUser = await findUserByEmail(server.database.db, 'demo', 'admin@demo.test');
    admin = `Bearer ${await mintIdToken(server, 'demo', { sub: adminUser!.id })}`;
  });
  afterAll(() => server.close());

  const OWNER = 'clinician@demo.test';
  const PASSWORD = 'demo-clinician-password';
  const guess = (remoteAddress: string, i: number) => signInThroughProvider(server, 'demo', OWNER, `wrong-${i}`, { remoteAddress });
  const deviceCookieOf = (cookie: string) => cookie.split('; ').filter((pair) => pair.startsWith('ivus_device_')).join('; ');
  const users = (authorization = admin) =>
    server.app.inject({ method: 'GET', url: `/api/demo/users?search=${encodeURIComponent(OWNER)}`, headers: { host: hostOf('demo'), authorization } });
  const clearLock = (userId: string, authorization = admin) =>
    server.app.inject({ method: 'DELETE', url: `/api/demo/users/${userId}/sign-in-lock`, headers: { host: hostOf('demo'), authorization } });

  // Each sign-in pays for a password hash: these steps take longer than one test's default time.
  const SLOW = 120_000;
  /** The owner's browser's device cookie, from its first sign-in. */
  let device = '';

  it("five wrong passwords lock the guesser's address, not the owner elsewhere nor the owner's browser behind that address", async () => {
    // The owner signs in once from their browser: it gets a device cookie (signed, httpOnly).
    const first = await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.5.0.1' });
    if (!first.ok) throw new Error('sign-in failed');
    device = deviceCookieOf(first.cookie);
    expect(device).toMatch(/^ivus_device_[0-9a-f]{16}=/);

    // Five wrong passwords from one address lock that address out of the account …
    for (let i = 1; i < CLIENT_TIERS[0]!.failures; i++) expect(await guess('10.6.6.6', i)).toMatchObject({ ok: false, status: 401 });
    expect(await guess('10.6.6.6', 99)).toMatchObject({ ok: false, status: 429 });
    expect(await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.6.6.6' })).toMatchObject({ ok: false, status: 429 });
    // … the owner elsewhere signs in, and so does the owner's browser behind the guesser's very address.
    expect((await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.5.0.2' })).ok).toBe(true);
    expect((await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.6.6.6', cookie: device })).ok).toBe(true);
  }, SLOW);

  it("guesses spread over many addresses lock browsers that never signed in, not the owner's", async () => {

    // Guesses spread over many addresses reach the account-wide limit: browsers that never signed in wait …
    const perAddress = CLIENT_TIERS[0]!.failures - 1;
    for (let i = CLIENT_TIERS[0]!.failures; i < ACCOUNT_TIERS[0]!.failures; i++) await guess(`10.7.0.${Math.floor(i / perAddress)}`, i);
    expect(await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.8.0.1' })).toMatchObject({ ok: false, status: 429 });
    // … the owner's browser still signs in with the right password, and still refuses a wrong one.
    expect((await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.5.0.1', cookie: device })).ok).toBe(true);
    expect(await signInThroughProvider(server, 'demo', OWNER, 'wrong', { remoteAddress: '10.5.0.1', cookie: device })).toMatchObject({ ok: false, status: 401 });
    // A device cookie forged, or issued to another account, counts for nothing.
    const forged = device.replace(/=.*$/, '=eyJhbGciOiJIUzI1NiJ9.e30.forged');
    expect(await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.8.0.2', cookie: forged })).toMatchObject({ ok: false, status: 429 });

  }, SLOW);

  it('an administrator sees the lock on the users list and clears it, audited; a clinician may not', async () => {
    // The administrator sees the lock on the users list …
    const listed = (await users()).json().items.find((user: { email: string }) => user.email === OWNER);
    expect(listed.signInLock).toMatchObject({ accountWide: true });
    expect(Date.parse(listed.signInLock.until)).toBeGreaterThan(Date.now());
    // … a clinician may not clear it …
    const clinician = `Bearer ${await mintIdToken(server, 'demo', { sub: listed.id })}`;
    expect((await clearLock(listed.id, clinician)).statusCode).toBe(403);
    // … the administrator does, audited, and a new browser signs in again.
    const cleared = await clearLock(listed.id);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().signInLock).toBeNull();
    expect((await users()).json().items.find((user: { email: string }) => user.email === OWNER).signInLock).toBeNull();
    expect((await signInThroughProvider(server, 'demo', OWNER, PASSWORD, { remoteAddress: '10.8.0.3' })).ok).toBe(true);
    const audit = await server.database.db.select().from(auditLog).where(and(eq(auditLog.tenantId, 'demo'), eq(auditLog.action, 'sign-in-lock-cleared')));
    expect(audit).toEqual([expect.objectContaining({ actorEmail: 'admin@demo.test', targetId: listed.id })]);
  }, SLOW);

  it('answers 404 when clearing the lock of an unknown or malformed user id', async () => {
    expect((await clearLock('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await clearLock('not-a-user')).statusCode).toBe(404);
  });
});

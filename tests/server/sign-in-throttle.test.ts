import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema.ts';
import { ACCOUNT_TIERS, ADDRESS_TIERS, createSignInThrottle } from '../../src/server/idp/sign-in-throttle.ts';
import { appOnDatabase, createTestServer, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

describe('sign-in throttle', () => {
  type Attempt = { tenantId: string; email: string };
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

  it('locks an account after a handful of failures, longer as failures go on, without touching other accounts or tenants', async () => {
    const { app, fail, wait } = await throttleApp();
    const account = { tenantId: 'demo', email: 'clinician@demo.test' };
    const first = ACCOUNT_TIERS[0]!;
    for (let i = 1; i < first.failures; i++) expect(await fail('10.0.0.1', account)).toBe(0);
    expect(await wait('10.0.0.1', account)).toBe(0);
    const locked = await fail('10.0.0.1', account);
    expect(locked).toBeGreaterThan(0);
    expect(locked).toBeLessThanOrEqual(first.windowMs / 1000);
    // From another address too: the lock is the account's.
    expect(await wait('10.0.0.2', account)).toBeGreaterThan(0);
    // Another account, the same account name in another tenant: free.
    expect(await wait('10.0.0.1', { tenantId: 'demo', email: 'admin@demo.test' })).toBe(0);
    expect(await wait('10.0.0.1', { tenantId: 'acme', email: 'clinician@demo.test' })).toBe(0);
    // The second tier: the wait grows to its window.
    const second = ACCOUNT_TIERS[1]!;
    let longer = 0;
    for (let i = first.failures; i < second.failures; i++) longer = await fail('10.0.0.1', account);
    expect(longer).toBeGreaterThan(first.windowMs / 1000);
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
    const failures = ACCOUNT_TIERS[0]!.failures;
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
    const failures = ACCOUNT_TIERS[0]!.failures;
    for (let i = 1; i < failures; i++) {
      const replica = i % 2 === 0 ? first : second;
      expect(await signInThroughProvider(replica, 'demo', 'admin@demo.test', `wrong-${i}`)).toMatchObject({ ok: false, status: 401 });
    }
    expect(await signInThroughProvider(first, 'demo', 'admin@demo.test', 'wrong-last')).toMatchObject({ ok: false, status: 429 });
    expect(await signInThroughProvider(second, 'demo', 'admin@demo.test', 'demo-admin-password')).toMatchObject({ ok: false, status: 429 });
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit } from '../../src/server/db/audit.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { createTestServer, hostOf, mintIdToken, originOf, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

type AuditRow = { id: number; action: string; actor_id: string | null; actor_email: string | null; target_type: string | null; details: unknown };

describe.skipIf(postgresUnavailable)('audit trail', () => {
  let server: TestServer;
  let admin: string;

  const rowsAfter = async (id: number, tenantId = 'demo'): Promise<AuditRow[]> => {
    const result = await server.database.db.execute(
      sql`select id, action, actor_id, actor_email, target_type, details from audit_log where tenant_id = ${tenantId} and id > ${id} order by id`,
    );
    return (result as unknown as { rows: AuditRow[] }).rows;
  };
  const lastId = async () => {
    const result = await server.database.db.execute(sql`select coalesce(max(id), 0)::int as id from audit_log`);
    return Number((result as unknown as { rows: { id: number }[] }).rows[0]!.id);
  };
  const getAudit = (query: string, authorization = admin, tenantId = 'demo') =>
    server.app.inject({ method: 'GET', url: `/api/${tenantId}/audit${query}`, headers: { host: hostOf(tenantId), authorization } });

  beforeAll(async () => {
    server = await createTestServer();
    const user = await findUserByEmail(server.database.db, 'demo', 'admin@demo.test');
    admin = `Bearer ${await mintIdToken(server, 'demo', { sub: user!.id })}`;
  });
  afterAll(() => server.close());

  it('records a sign-in with its account', async () => {
    const before = await lastId();
    const result = await signInThroughProvider(server, 'demo', 'clinician@demo.test', 'demo-clinician-password');
    expect(result.ok).toBe(true);
    const clinician = await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test');
    expect(await rowsAfter(before)).toEqual([
      expect.objectContaining({ action: 'sign-in', actor_id: clinician!.id, actor_email: 'clinician@demo.test', target_type: 'session' }),
    ]);
  });

  it('records a failed sign-in with the email as typed and never the password', async () => {
    const before = await lastId();
    await signInThroughProvider(server, 'demo', 'Clinician@Demo.test', 'guessed-password-123');
    await signInThroughProvider(server, 'demo', 'nobody@demo.test', 'another-guess-456');
    const rows = await rowsAfter(before);
    expect(rows.map((row) => [row.action, row.actor_email])).toEqual([
      ['sign-in-failed', 'Clinician@Demo.test'],
      ['sign-in-failed', 'nobody@demo.test'],
    ]);
    expect(rows[0]!.details).toEqual({ reason: 'wrong password' });
    expect(rows[1]).toMatchObject({ actor_id: null, details: { reason: 'unknown account' } });
    const everything = JSON.stringify(await rowsAfter(0));
    expect(everything).not.toContain('guessed-password-123');
    expect(everything).not.toContain('another-guess-456');
  });

  it('records a sign-out at the provider, after which the refresh token is dead', async () => {
    const signIn = await signInThroughProvider(server, 'demo', 'admin@demo.test', 'demo-admin-password');
    if (!signIn.ok) throw new Error('sign-in failed');
    const before = await lastId();
    const host = hostOf('demo');
    const params = new URLSearchParams({
      id_token_hint: signIn.tokens.id_token,
      post_logout_redirect_uri: `${originOf('demo')}/`,
      client_id: embeddedClientId('demo'),
    });
    const confirmPage = await server.app.inject({ method: 'GET', url: `/idp/session/end?${params}`, headers: { host, cookie: signIn.cookie } });
    expect(confirmPage.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmPage.body)?.[1];
    expect(xsrf).toBeTruthy();
    const confirmed = await server.app.inject({
      method: 'POST',
      url: '/idp/session/end/confirm',
      headers: { host, cookie: signIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${originOf('demo')}/`);
    expect(await rowsAfter(before)).toEqual([
      expect.objectContaining({ action: 'sign-out', actor_email: 'admin@demo.test', target_type: 'session' }),
    ]);

    const refresh = await server.app.inject({
      method: 'POST',
      url: '/idp/token',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: signIn.tokens.refresh_token!,
        client_id: embeddedClientId('demo'),
      }).toString(),
    });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('pages newest first with a keyset cursor, without gaps or repeats', async () => {
    for (let i = 0; i < 7; i++) {
      await appendAudit(server.database.db, { tenantId: 'demo', action: 'record-viewed', targetType: 'record', targetId: `paging-${i}` });
    }
    const seen: number[] = [];
    let before: number | null = null;
    for (let page = 0; page < 50; page++) {
      const response = await getAudit(`?limit=3${before ? `&before=${before}` : ''}`);
      expect(response.statusCode).toBe(200);
      const body: { items: { id: number; at: string }[]; nextBefore: number | null } = response.json();
      seen.push(...body.items.map((item) => item.id));
      if (body.nextBefore === null) break;
      expect(body.items).toHaveLength(3);
      expect(body.nextBefore).toBe(body.items.at(-1)!.id);
      before = body.nextBefore;
    }
    const all = (await rowsAfter(0)).map((row) => Number(row.id)).reverse();
    expect(seen).toEqual(all);
    const first = (await getAudit('?limit=2')).json().items;
    expect(first[0].targetId).toBe('paging-6');
    expect(Date.parse(first[0].at)).not.toBeNaN();
  });

  it("shows only the caller's tenant", async () => {
    const acmeAdmin = await findUserByEmail(server.database.db, 'acme', 'admin@acme.test');
    const token = `Bearer ${await mintIdToken(server, 'acme', { sub: acmeAdmin!.id })}`;
    await appendAudit(server.database.db, { tenantId: 'acme', action: 'record-viewed', targetId: 'acme-only' });
    const acme = (await getAudit('?limit=200', token, 'acme')).json();
    expect(acme.items.map((item: { targetId: string }) => item.targetId)).toEqual(['acme-only']);
    const demo = (await getAudit('?limit=200')).body;
    expect(demo).not.toContain('acme-only');
  });

  it('answers 400 naming the parameter for a bad cursor or limit', async () => {
    for (const [query, message] of [
      ['?before=abc', /before must be an entry id/],
      ['?before=-4', /before must be an entry id/],
      ['?limit=0', /limit must be 1 or more/],
      ['?limit=5000', /limit must be 200 or less/],
      ['?page=2', /unknown parameter "page"/],
    ] as const) {
      const response = await getAudit(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });
});

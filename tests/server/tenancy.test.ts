import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patients, records } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { insertPacsConnection } from '../../src/server/db/pacs-connections.ts';
import { unlockedKeyOf } from '../../src/server/db/secrets.ts';
import { createTestServer, hostOf, mintIdToken, postgresUnavailable, type TestServer } from './test-server.ts';

type Route = { path: string; methods: string[] };

/**
 * Every route of the app from Fastify's route tree (`printRoutes`), so a route added later is
 * checked too without anyone remembering to list it here.
 */
function routesOf(tree: string): Route[] {
  const prefixes: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? prefixes[depth - 1]! : '') + match[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (match[3]) routes.push({ path, methods: match[3].split(', ').filter((method) => method !== 'HEAD') });
  }
  return routes;
}

describe.skipIf(postgresUnavailable)('tenancy: no request crosses from one tenant to another', () => {
  let server: TestServer;
  let acmeAdmin: string;
  let demoRecordId: string;
  let demoUserId: string;
  let demoConnectionId: string;
  let demoPatientName: string;
  let idRoutes: Route[];

  /** The API path of `route` on `tenantId`, its ids naming demo-tenant rows. */
  const demoPath = (route: Route, tenantId: string) =>
    route.path
      .replace(':tenant', tenantId)
      .replace(':patientId', 'DEM-001')
      .replace(':recordId', demoRecordId)
      .replace(':userId', demoUserId)
      .replace(':series', 'bmode')
      .replace(':chunk', '0')
      .replace(':version', '1')
      // A demo PACS connection, and a UID for its study routes.
      .replace(':id', demoConnectionId)
      .replace(':study', '1.2.3')
      .replace(/:[A-Za-z]+/g, 'x');
  const send = (method: string, url: string, host: string) =>
    server.app.inject({
      method: method as 'GET',
      url,
      headers: { host, authorization: acmeAdmin },
      ...(method === 'PATCH' ? { payload: { disabled: true, admin: false } } : method === 'POST' ? { payload: {} } : {}),
    });
  /** Nothing in an answer may come from the demo tenant (an error may repeat the id that was asked for). */
  const expectNoDemoData = (body: string, what: string) => {
    expect(body, what).not.toMatch(/DEM-0(0[2-9]|[1-9])|@demo\.test|Demo Heart Centre/);
    expect(body, what).not.toContain(demoPatientName);
  };
  /** A refusal is an error code and a sentence, with no room for anything else. */
  const expectRefusal = (body: string, what: string) => {
    expect(Object.keys(JSON.parse(body)).sort(), what).toEqual(['error', 'message']);
    expectNoDemoData(body, what);
  };

  beforeAll(async () => {
    server = await createTestServer();
    const db = server.database.db;
    const admin = await findUserByEmail(db, 'acme', 'admin@acme.test');
    acmeAdmin = `Bearer ${await mintIdToken(server, 'acme', { sub: admin!.id })}`;
    const [record] = await db
      .select({ id: records.id })
      .from(records)
      .where(and(eq(records.tenantId, 'demo'), eq(records.patientId, 'DEM-001')));
    demoRecordId = record!.id;
    demoUserId = (await findUserByEmail(db, 'demo', 'clinician@demo.test'))!.id;
    demoConnectionId = (await insertPacsConnection(db, unlockedKeyOf(db), 'demo', { name: 'Demo PACS', qidoUrl: 'http://127.0.0.1:9/dicom-web', wadoUrl: 'http://127.0.0.1:9/dicom-web', stowUrl: 'http://127.0.0.1:9/dicom-web', authKind: 'none' }, null)).id;
    const [patient] = await db.select({ name: patients.name }).from(patients).where(and(eq(patients.tenantId, 'demo'), eq(patients.patientId, 'DEM-001')));
    demoPatientName = patient!.name;
    idRoutes = routesOf(server.app.printRoutes({ commonPrefix: false })).filter(
      (route) => route.path.startsWith('/api/:tenant/') && /\/:(?!tenant)/.test(route.path),
    );
  });
  afterAll(() => server.close());

  it('finds every API route that takes an id', () => {
    const paths = idRoutes.map((route) => route.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/:tenant/patients/:patientId',
        '/api/:tenant/patients/:patientId/records',
        '/api/:tenant/records/:recordId/images',
        '/api/:tenant/records/:recordId/frames/:series/:chunk',
        '/api/:tenant/records/:recordId/previews/:series',
        '/api/:tenant/users/:userId',
        '/api/:tenant/users/:userId/password-reset',
      ]),
    );
  });

  it('answers 404 on acme for every demo patient, record and user id, never their data', async () => {
    let checked = 0;
    for (const route of idRoutes) {
      for (const method of route.methods) {
        const url = demoPath(route, 'acme');
        const response = await send(method, url, hostOf('acme'));
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expectRefusal(response.body, `${method} ${url}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(9);
    // The PATCH and password reset above changed nothing on the demo account.
    expect((await findUserByEmail(server.database.db, 'demo', 'clinician@demo.test'))!).toMatchObject({ disabled: false, groups: [] });
  });

  it("refuses an acme token on the demo tenant's address (401) and a demo path on acme's address (404)", async () => {
    for (const route of idRoutes) {
      for (const method of route.methods) {
        const onDemoHost = await send(method, demoPath(route, 'demo'), hostOf('demo'));
        expect(onDemoHost.statusCode, `${method} ${route.path} on demo`).toBe(401);
        expectRefusal(onDemoHost.body, route.path);
        const pathMismatch = await send(method, demoPath(route, 'demo'), hostOf('acme'));
        expect(pathMismatch.statusCode, `${method} ${route.path} with demo path on acme`).toBe(404);
        expectRefusal(pathMismatch.body, route.path);
      }
    }
  });

  it("lists only acme's own patients, users and audit entries", async () => {
    const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { host: hostOf('acme'), authorization: acmeAdmin } });
    const patients = (await get('/api/acme/patients?pageSize=200')).json();
    expect(patients.total).toBe(12);
    expect(patients.items.every((p: { patientId: string }) => p.patientId.startsWith('ACM-'))).toBe(true);
    const users = await get('/api/acme/users?limit=100');
    expect(users.json().items.map((u: { email: string }) => u.email)).toEqual(['admin@acme.test', 'clinician@acme.test']);
    const searchForDemo = await get('/api/acme/users?search=demo.test');
    expect(searchForDemo.json()).toMatchObject({ total: 0, items: [] });
    for (const url of ['/api/acme/patients?search=DEM-001', '/api/acme/audit?limit=200']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expectNoDemoData(response.body, url);
    }
  });
});

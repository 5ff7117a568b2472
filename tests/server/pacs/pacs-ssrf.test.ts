/**
 * PACS connections cannot be used to reach what a tenant administrator must not (issue 24, item 1):
 * the server's own listeners through any form of a loopback or unspecified address, the cloud
 * metadata service, a name rebound to loopback after it was saved, or a redirect. "Test connection"
 * answers reachable / refused / not a DICOMweb service and nothing finer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPacsConnection } from '../../../src/server/db/pacs-connections.ts';
import { unlockedKeyOf } from '../../../src/server/db/secrets.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { PROBE_MESSAGES } from '../../../src/server/pacs/connection-probe.ts';
import { createTestServer, hostOf, mintIdToken, type TestServer } from '../test-server.ts';

/** An HTTP listener on 127.0.0.1 that counts the connections opened to it. */
async function listener(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const server = http.createServer(answer);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The loopback and unspecified forms of 127.0.0.1:port, each as a PACS address. */
const LOOPBACK_TRICKS = (port: number) =>
  ['127.0.0.1', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]', '0.0.0.0', '[::ffff:0.0.0.0]', '[::]', 'localhost'].map(
    (host) => `http://${host}:${port}/dicom-web`,
  );

async function adminOf(server: TestServer, tenant = 'demo') {
  const user = await findUserByEmail(server.database.db, tenant, `admin@${tenant}.test`);
  return `Bearer ${await mintIdToken(server, tenant, { sub: user!.id })}`;
}

const call = (server: TestServer, authorization: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: { host: hostOf('demo'), authorization, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });

const connectionCount = async (server: TestServer) => {
  const result = await server.database.db.execute(sql`select count(*)::int as n from pacs_connections`);
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
};

describe('PACS addresses a tenant administrator may not reach (the default: loopback forbidden)', () => {
  let server: TestServer;
  let admin: string;
  let local: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    server = await createTestServer();
    admin = await adminOf(server);
    local = await listener((_request, response) => response.writeHead(200, { 'content-type': 'application/dicom+json' }).end('[]'));
  }, 60_000);
  afterAll(async () => {
    await local?.close();
    await server?.close();
  });

  it.each(LOOPBACK_TRICKS(0).map((url, index) => [url.replace(':0/', ':PORT/'), index] as const))('refuses %s with 400 on test and add (as any of its three addresses), and connects to nothing', async (_label, index) => {
    const qidoUrl = LOOPBACK_TRICKS(local.port)[index]!;
    const body = { name: 'Local', qidoUrl, auth: { kind: 'none' } };
    for (const [method, url] of [['POST', '/api/demo/pacs/connections/test'], ['POST', '/api/demo/pacs/connections']] as const) {
      const answer = await call(server, admin, method, url, body);
      expect(answer.statusCode, `${method} ${url} ${qidoUrl}: ${answer.body}`).toBe(400);
      expect(answer.json().message).toMatch(/loopback|unspecified/);
    }
    // As WADO-RS or STOW-RS address too.
    expect((await call(server, admin, 'POST', '/api/demo/pacs/connections', { ...body, qidoUrl: 'http://10.0.0.5/dicom-web', stowUrl: qidoUrl })).statusCode).toBe(400);
    expect(await connectionCount(server)).toBe(0);
    expect(local.connections()).toBe(0);
  });

  it('refuses the metadata service in its IPv6 disguises (400), and a change to such an address keeps the stored one', async () => {
    const saved = await call(server, admin, 'POST', '/api/demo/pacs/connections', { name: 'Hospital', qidoUrl: 'http://10.0.0.5:8042/dicom-web', auth: { kind: 'none' } });
    expect(saved.statusCode, saved.body).toBe(201);
    for (const qidoUrl of ['http://[::ffff:169.254.169.254]/latest', 'http://[::ffff:a9fe:a9fe]/latest', 'http://[::169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[fd00:ec2::254]/']) {
      const changed = await call(server, admin, 'PUT', `/api/demo/pacs/connections/${saved.json().id}`, { name: 'Hospital', qidoUrl, auth: { kind: 'none' } });
      expect(changed.statusCode, qidoUrl).toBe(400);
      expect(changed.json().message).toMatch(/link-local|metadata/);
    }
    const listed = (await call(server, admin, 'GET', '/api/demo/pacs/connections')).json();
    expect(listed.connections.map((c: { qidoUrl: string }) => c.qidoUrl)).toEqual(['http://10.0.0.5:8042/dicom-web']);
    await server.database.db.execute(sql`delete from pacs_connections`);
  });

  it('refuses at connect time a saved name that now resolves to loopback (DNS rebinding): every PACS call, nothing connected, nothing left', async () => {
    // Stored as if it had passed the check when saved, and resolves to loopback now.
    const db = server.database.db;
    const url = `http://localhost:${local.port}/dicom-web`;
    const { id } = await insertPacsConnection(db, unlockedKeyOf(db), 'demo', { name: 'Rebound', qidoUrl: url, wadoUrl: url, stowUrl: url, authKind: 'none' }, null);
    const test = await call(server, admin, 'POST', `/api/demo/pacs/connections/${id}/test`);
    expect(test.statusCode).toBe(502);
    expect(test.json()).toEqual({ error: 'pacs_unreachable', message: PROBE_MESSAGES.pacs_unreachable });
    const search = await call(server, admin, 'GET', `/api/demo/pacs/connections/${id}/studies?patientId=P1`);
    expect(search.statusCode).toBe(502);
    expect(search.json().message).toMatch(/not one the server may connect to/);
    const uid = '1.2.3.4';
    const pull = await call(server, admin, 'POST', `/api/demo/pacs/connections/${id}/pull`, { studyInstanceUid: uid, seriesInstanceUids: ['1.2.3.4.5'], patientId: 'P1' });
    expect(pull.statusCode).toBe(502);
    expect((await call(server, admin, 'GET', `/api/demo/pacs/connections/${id}/studies/${uid}/series`)).statusCode).toBe(502);
    expect(local.connections()).toBe(0);
    await db.execute(sql`delete from pacs_connections`);
  });
});

describe('PACS connection tests where loopback is allowed (PACS_ALLOW_LOOPBACK, as the suites run Orthanc)', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await createTestServer({ PACS_ALLOW_LOOPBACK: 'true' });
    admin = await adminOf(server);
  }, 60_000);
  afterAll(() => server?.close());

  const testOf = (qidoUrl: string) => call(server, admin, 'POST', '/api/demo/pacs/connections/test', { name: 'X', qidoUrl, auth: { kind: 'none' } });

  it('follows no redirect: the target is never connected to, and the answer is "not a DICOMweb service"', async () => {
    const target = await listener((_request, response) => response.writeHead(200, { 'content-type': 'application/dicom+json' }).end('[]'));
    const redirector = await listener((_request, response) => response.writeHead(307, { location: `http://127.0.0.1:${target.port}/dicom-web/studies` }).end());
    const toMetadata = await listener((_request, response) => response.writeHead(302, { location: 'http://[::ffff:a9fe:a9fe]/latest/meta-data/' }).end());
    try {
      for (const port of [redirector.port, toMetadata.port]) {
        const answer = await testOf(`http://127.0.0.1:${port}/dicom-web`);
        expect(answer.statusCode).toBe(502);
        expect(answer.json()).toEqual({ error: 'pacs_bad_answer', message: PROBE_MESSAGES.pacs_bad_answer });
      }
      expect(target.connections()).toBe(0);
    } finally {
      await Promise.all([target.close(), redirector.close(), toMetadata.close()]);
    }
  });

  it('does not read out an internal host through the other PACS calls either (no status, no body)', async () => {
    const secret = 'db password=hunter2';
    const host = await listener((_request, response) => response.writeHead(503, { 'content-type': 'text/plain' }).end(secret));
    const saved = await call(server, admin, 'POST', '/api/demo/pacs/connections', { name: 'Internal', qidoUrl: `http://127.0.0.1:${host.port}/x`, auth: { kind: 'none' } });
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json().id as string;
    try {
      for (const url of [`/api/demo/pacs/connections/${id}/studies?patientId=P1`, `/api/demo/pacs/connections/${id}/studies/1.2.3/series`]) {
        const answer = await call(server, admin, 'GET', url);
        expect(answer.statusCode).toBe(502);
        expect(answer.json().error).toBe('pacs_bad_answer');
        expect(answer.body).not.toMatch(/503|hunter2/);
      }
    } finally {
      await host.close();
      await server.database.db.execute(sql`delete from pacs_connections`);
    }
  });

  it('answers reachable, refused or not DICOMweb, never what an internal host said', async () => {
    const answers: Array<[number, string, string]> = [
      [500, 'text/plain', 'internal error: db password=hunter2 at 10.9.8.7'],
      [404, 'text/html', '<h1>Jenkins</h1>'],
      [200, 'text/html', '<html>Grafana login</html>'],
      [200, 'application/json', '{"status":"ok","version":"9.1"}'],
      [200, 'application/json', '[{"name":"not a study"}]'],
    ];
    for (const [status, type, body] of answers) {
      const host = await listener((_request, response) => response.writeHead(status, { 'content-type': type }).end(body));
      const answer = await testOf(`http://127.0.0.1:${host.port}/api`);
      await host.close();
      expect(answer.statusCode, body).toBe(502);
      expect(answer.json(), body).toEqual({ error: 'pacs_bad_answer', message: PROBE_MESSAGES.pacs_bad_answer });
    }
    const locked = await listener((_request, response) => response.writeHead(401, { 'www-authenticate': 'Basic realm="internal admin console v2.3"' }).end('who are you'));
    const refused = await testOf(`http://127.0.0.1:${locked.port}/`);
    await locked.close();
    expect(refused.json()).toEqual({ error: 'pacs_credentials_refused', message: PROBE_MESSAGES.pacs_credentials_refused });
    const closedPort = await listener(() => undefined);
    await closedPort.close();
    expect((await testOf(`http://127.0.0.1:${closedPort.port}/`)).json()).toEqual({ error: 'pacs_unreachable', message: PROBE_MESSAGES.pacs_unreachable });
    const dicomweb = await listener((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/dicom+json' }).end(JSON.stringify([{ '0020000D': { vr: 'UI', Value: ['1.2.3'] } }])),
    );
    const ok = await testOf(`http://127.0.0.1:${dicomweb.port}/dicom-web`);
    await dicomweb.close();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, studiesFound: 1 });
  });
});

/**
 * NUL bytes and unpaired surrogates (issue 24): in search, user names, PACS connection names,
 * annotation notes and labels, the sign-in email, a path parameter, they gave 500 (PostgreSQL refuses
 * NUL in text). Now 400 with a message saying where, and nothing is written; DICOM names are cleaned.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacsConnections, users } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { unstorableTextAt } from '../../src/server/http/validation.ts';
import { readDicomFile } from '../../src/server/dicom/dicom-file.ts';
import { makeDicom } from '../support/dicom-fixtures.ts';
import { createTestServer, hostOf, mintIdToken, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

const BROKEN = ['a\u0000b', 'a\ud800b', '\udc00', 'x\ud83d'];

describe('text that cannot be stored', () => {
  it('is found wherever it is, keys included, and ordinary Unicode is not', () => {
    for (const text of BROKEN) {
      expect(unstorableTextAt({ a: [{ b: text }] }, 'body')).toBe('body.a.0.b');
      expect(unstorableTextAt({ [text]: 1 }, 'body')).toBe(`body.${text}`);
    }
    expect(unstorableTextAt({ name: 'Kowalski, Łukasz ≥ 😀 Ελένη Иван', n: 1, ok: true, none: null }, 'body')).toBeNull();
  });
});

describe.skipIf(postgresUnavailable)('NUL and broken Unicode through the API', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await createTestServer();
    const user = await findUserByEmail(server.database.db, 'demo', 'admin@demo.test');
    admin = `Bearer ${await mintIdToken(server, 'demo', { sub: user!.id })}`;
  });
  afterAll(() => server.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    server.app.inject({ method, url, headers: { host: hostOf('demo'), authorization: admin }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tableSizes = async () => ({
    users: (await server.database.db.select({ n: count() }).from(users))[0]!.n,
    pacs: (await server.database.db.select({ n: count() }).from(pacsConnections))[0]!.n,
  });

  it('answers 400 saying where, never 500, and writes nothing', async () => {
    const before = await tableSizes();
    const adminId = (await findUserByEmail(server.database.db, 'demo', 'admin@demo.test'))!.id;
    for (const text of BROKEN) {
      const attempts: [string, Promise<{ statusCode: number; body: string; json(): { message: string } }>][] = [
        ['user name', call('POST', '/api/demo/users', { email: 'new@demo.test', name: text })],
        ['user email', call('POST', '/api/demo/users', { email: `new${text}@demo.test`, name: 'New' })],
        ['renamed user', call('PATCH', `/api/demo/users/${adminId}`, { name: text })],
        ['PACS connection name', call('POST', '/api/demo/pacs/connections', { name: text, qidoUrl: 'https://pacs.example.org/dicom-web', auth: { kind: 'none' } })],
      ];
      // A query string is UTF-8: only NUL can be sent in one (an unpaired surrogate has no UTF-8 form).
      if (text.includes('\u0000')) attempts.push(['search', call('GET', `/api/demo/patients?search=${encodeURIComponent(text)}`)]);
      for (const [what, pending] of attempts) {
        const response = await pending;
        expect(response.statusCode, `${what} ${JSON.stringify(text)}: ${response.body}`).toBe(400);
        expect(response.json().message).toMatch(/NUL character or an unpaired surrogate/);
      }
    }
    // A path parameter.
    const pathParameter = await call('GET', '/api/demo/patients/P%00X');
    expect(pathParameter.statusCode).toBe(400);
    expect(pathParameter.json().message).toMatch(/^path\.patientId/);
    expect(await tableSizes()).toEqual(before);
  });

  it('refuses a note or a label in the annotation manifest', async () => {
    const boundary = 'nul-test';
    const manifest = JSON.stringify({ version: 1, annotations: [{ label: 'x\u0000', note: 'y\ud800' }] });
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="recordId"\r\n\r\n00000000-0000-4000-8000-000000000000\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="patientId"\r\n\r\nP1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="manifest.json"\r\nContent-Type: application/json\r\n\r\n${manifest}\r\n--${boundary}--\r\n`;
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/demo/records?status=new',
      headers: { host: hostOf('demo'), authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.stringify(response.json())).toMatch(/manifest\.json\.annotations\.0\.label must not contain a NUL/);
  });

  it('refuses the sign-in email with 400', async () => {
    // A form is UTF-8 too: NUL is what can be sent.
    for (const email of ['admin\u0000@demo.test', '\u0000']) {
      const result = await signInThroughProvider(server, 'demo', email, 'whatever');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.status, result.body).toBe(400);
    }
  });
});

describe.skipIf(postgresUnavailable)("NUL in the provider's token endpoint", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('a code or a refresh token with a NUL is an invalid grant (400), not a 500', async () => {
    for (const grant of ['grant_type=authorization_code&code=a%00b&redirect_uri=http%3A%2F%2Fdemo.localhost%3A8080%2Fcallback&code_verifier=x', 'grant_type=refresh_token&refresh_token=a%00b']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/idp/token',
        headers: { host: hostOf('demo'), 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${grant}&client_id=${embeddedClientId('demo')}`,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    }
  });
});

describe('DICOM names at import', () => {
  it('drops NUL wherever it is in a name or an id (no DICOM text holds one)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-nul-'));
    const file = path.join(dir, 'nul.dcm');
    fs.writeFileSync(file, makeDicom({ patientName: 'Kowal\u0000ski^Jan\u0000', patientId: 'P\u00001234' }).bytes);
    const read = readDicomFile(file, 'nul.dcm');
    expect(read.patient.name).toBe('Kowalski, Jan');
    expect(JSON.stringify(read)).not.toContain('\\u0000');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

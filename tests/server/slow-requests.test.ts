import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportBatchSchema } from '../../src/domain/imports.ts';
import { makeDicom, multipartBody } from '../support/dicom-fixtures.ts';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

type Outcome = { answer: string; closed: boolean };

/**
 * Writes `head` and the first bytes of a body, never the rest, then waits for what the server does:
 * its answer and whether it closed the connection (or, with `untilAnswer`, only for the answer).
 */
function trickle(port: number, head: string, firstBytes: string, waitMs: number, untilAnswer = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head + firstBytes));
    let answer = '';
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      if (untilAnswer && answer.includes('\r\n\r\n')) done(false);
    });
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
  });
}

/**
 * Sends `head`, then `body` in `pieces` equal parts `everyMs` apart; resolves with the answer once the
 * server closes the connection (or, with `untilAnswer`, once it has answered in full).
 */
function paced(port: number, head: string, body: Buffer, pieces: number, everyMs: number, waitMs: number, untilAnswer = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const size = Math.ceil(body.length / pieces);
    const sender = setInterval(() => {
      if (sent >= body.length || socket.destroyed) return clearInterval(sender);
      socket.write(body.subarray(sent, sent + size));
      sent += size;
    }, everyMs);
    const done = (closed: boolean) => {
      clearTimeout(timer);
      clearInterval(sender);
      socket.destroy();
      resolve({ answer, closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      const [headers, content = ''] = answer.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(headers ?? '')?.[1] ?? NaN);
      if (untilAnswer && content.length >= length) done(false);
    });
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe.skipIf(postgresUnavailable)('slow and hostile requests', () => {
  let server: TestServer;
  let port: number;
  let authorization: string;
  beforeAll(async () => {
    // A 1 s window for signed-in bodies; the unauthenticated allowance (10 s) and the rate (1 KiB/s)
    // are the defaults. Room for the hundred connections below under the per-address cap.
    server = await createTestServer({ BODY_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_ADDRESS: '150' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as net.AddressInfo).port;
    authorization = await clinicianAuthorization(server, 'demo');
  });
  afterAll(() => server.close());

  const postHead = (auth: string | null, length: number, url = '/api/demo/users', contentType = 'application/json') =>
    `POST ${url} HTTP/1.1\r\nHost: ${hostOf('demo')}\r\n${auth ? `Authorization: ${auth}\r\n` : ''}Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers a request that is not signed in with 401 before reading its body, even a malformed or oversized one', async () => {
    for (const payload of ['{"not json', 'x'.repeat(2 * 1024 * 1024)]) {
      const response = await server.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: hostOf('demo'), 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(401);
    }
    // Over the wire, the body is never waited for: 401 comes though only 1 of its 1,000 bytes was sent.
    const unsigned = await trickle(port, postHead(null, 1000), '{', 5000, true);
    expect(unsigned.answer).toMatch(/^HTTP\/1\.1 401/);
  });

  it('closes a signed-in request whose body trickles in, with 408, once it falls behind the minimum rate', async () => {
    const slow = await trickle(port, postHead(authorization, 1000), '{"email": "', 8000);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.answer).toContain('slower than 1024 bytes a second');
    expect(slow.closed).toBe(true);
    // A body that does arrive in time is read as usual (here refused for what it says, not for how it came).
    const response = await server.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: hostOf('demo'), authorization, 'content-type': 'application/json' }, payload: '{"not json' });
    expect(response.statusCode).toBe(400);
  });

  it('cuts a stalled upload (multipart is no longer exempt) with 408 and closes it', async () => {
    const { body, contentType } = multipartBody([{ name: 'a.dcm', bytes: makeDicom().bytes }]);
    const stalled = await trickle(port, postHead(authorization, body.length, '/api/demo/imports', contentType), body.subarray(0, 300).toString('latin1'), 8000);
    expect(stalled.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(stalled.closed).toBe(true);
  });

  it('lets a slow but steady upload through', async () => {
    const { body, contentType } = multipartBody([{ name: 'steady.dcm', bytes: makeDicom().bytes }]);
    // About 3 s for the whole body, many times the minimum rate, over several 1 s windows.
    const steady = await paced(port, postHead(authorization, body.length, '/api/demo/imports', contentType), body, 15, 200, 30_000, true);
    expect(statusOf(steady.answer), steady.answer.slice(0, 300)).toBe(202);
    const batch = ImportBatchSchema.parse(JSON.parse(steady.answer.split('\r\n\r\n')[1]!));
    expect(batch.imports).toHaveLength(1);
  });

  // Issue 24: 100 connections trickling a byte now and then to the provider's token endpoint, the
  // sign-in form and the API (not signed in) were all still open after 45 s.
  it('closes a hundred unauthenticated trickling connections, the token endpoint and sign-in form included, well before 45 s', async () => {
    const targets = [
      postHead(null, 500, '/idp/token', 'application/x-www-form-urlencoded'),
      postHead(null, 500, '/idp/interaction/some-interaction/login', 'application/x-www-form-urlencoded'),
      postHead(null, 500, '/api/demo/users'),
      postHead(null, 50_000, '/api/demo/imports', 'multipart/form-data; boundary=x'),
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) => paced(port, targets[i % targets.length]!, Buffer.alloc(500, 'a'), 500, 2000, 45_000)),
    );
    const stillOpen = outcomes.filter((outcome) => !outcome.closed);
    expect(stillOpen.map((o) => o.answer.slice(0, 40))).toEqual([]);
    // Each was answered (408, or the API's 401 before its body) or cut.
    for (const { answer } of outcomes) expect([0, 401, 408]).toContain(statusOf(answer));
    expect(outcomes.filter(({ answer }) => statusOf(answer) === 408).length).toBeGreaterThan(0);
  }, 60_000);
});

describe.skipIf(postgresUnavailable)('connections per client address', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await createTestServer({ MAX_CONNECTIONS_PER_ADDRESS: '3' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  it('answers a connection over the cap 503 and closes it, and takes new ones once others have gone', async () => {
    const idle = await Promise.all(
      Array.from({ length: 3 }, () => new Promise<net.Socket>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      })),
    );
    const get = `GET /healthz HTTP/1.1\r\nHost: ${hostOf('demo')}\r\nConnection: close\r\n\r\n`;
    const refused = await trickle(port, get, '', 5000);
    expect(refused.answer).toMatch(/^HTTP\/1\.1 503/);
    expect(refused.closed).toBe(true);
    for (const socket of idle) socket.destroy();
    // The count goes down as they close.
    let answer = '';
    for (let attempt = 0; attempt < 50 && !/^HTTP\/1\.1 200/.test(answer); attempt++) {
      answer = (await trickle(port, get, '', 5000)).answer;
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

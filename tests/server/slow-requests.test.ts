import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

/**
 * Writes `head` and the first bytes of a body, never the rest, then waits for what the server does:
 * its answer and whether it closed the connection (or, with `untilAnswer`, only for the answer).
 */
function trickle(port: number, head: string, firstBytes: string, waitMs: number, untilAnswer = false): Promise<{ answer: string; closed: boolean }> {
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

describe.skipIf(postgresUnavailable)('slow and hostile requests', () => {
  let server: TestServer;
  let port: number;
  let authorization: string;
  beforeAll(async () => {
    server = await createTestServer({ BODY_TIMEOUT_SECONDS: '1' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as net.AddressInfo).port;
    authorization = await clinicianAuthorization(server, 'demo');
  });
  afterAll(() => server.close());

  const postHead = (auth: string | null, length: number) =>
    `POST /api/demo/users HTTP/1.1\r\nHost: ${hostOf('demo')}\r\n${auth ? `Authorization: ${auth}\r\n` : ''}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers a request that is not signed in with 401 before reading its body, even a malformed or oversized one', async () => {
    for (const payload of ['{"not json', 'x'.repeat(2 * 1024 * 1024)]) {
      const response = await server.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: hostOf('demo'), 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(401);
    }
    // Over the wire, the body is never waited for: 401 comes though only 1 of its 1,000 bytes was sent.
    const unsigned = await trickle(port, postHead(null, 1000), '{', 5000, true);
    expect(unsigned.answer).toMatch(/^HTTP\/1\.1 401/);
  });

  it('closes a signed-in request whose body trickles in, with 408, once the body timeout is up', async () => {
    const slow = await trickle(port, postHead(authorization, 1000), '{"email": "', 8000);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.answer).toContain('did not arrive within 1 s');
    expect(slow.closed).toBe(true);
    // A body that does arrive in time is read as usual (here refused for what it says, not for how it came).
    const response = await server.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: hostOf('demo'), authorization, 'content-type': 'application/json' }, payload: '{"not json' });
    expect(response.statusCode).toBe(400);
  });
});

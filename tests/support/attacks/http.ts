/**
 * Issue 24, from outside over HTTP: slow bodies and connection floods (item 4), NUL and broken
 * Unicode (item 9), pages another site may frame or sniff (item 10). The attack target answers a body
 * that is not signed in within 2 s and caps each address at 32 connections (attack-target.ts).
 */
import net from 'node:net';
import { embeddedClientId } from '../../../src/server/auth/tenant-directory.ts';
import type { Attack, AttackTarget } from '../attack-types.ts';

const ADMIN = 'admin@demo.test';

/**
 * Sends `head` and then a byte every `everyMs`; resolves with the status the server answered (0 for
 * none) once it closes the connection, or -1 if it was still open after `waitMs`.
 */
function trickle(target: AttackTarget, head: string, everyMs: number, waitMs: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(target.port, '127.0.0.1', () => socket.write(head));
    const dripping = setInterval(() => socket.write('a'), everyMs);
    let answer = '';
    const done = (open: boolean) => {
      clearTimeout(timer);
      clearInterval(dripping);
      socket.destroy();
      resolve(open ? -1 : Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    };
    const timer = setTimeout(() => done(true), waitMs);
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('close', () => done(false));
    socket.on('error', () => {});
  });
}

const post = (target: AttackTarget, url: string, contentType: string, length: number, authorization?: string) =>
  `POST ${url} HTTP/1.1\r\nHost: ${target.hostOf('demo')}\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;

/** Many unauthenticated trickles at once: 408 when every one was closed, else -1 (one still open). */
async function trickleFlood(target: AttackTarget, connections: number): Promise<number> {
  const heads = [
    post(target, '/idp/token', 'application/x-www-form-urlencoded', 500),
    post(target, '/idp/interaction/x/login', 'application/x-www-form-urlencoded', 500),
    post(target, '/api/demo/imports', 'multipart/form-data; boundary=x', 50_000),
  ];
  const statuses = await Promise.all(Array.from({ length: connections }, (_, i) => trickle(target, heads[i % heads.length]!, 1000, 20_000)));
  return statuses.includes(-1) ? -1 : 408;
}

/** Holds `cap` idle connections, then opens one more: its status (503 when refused). */
async function overTheCap(target: AttackTarget, cap: number): Promise<number> {
  const idle = await Promise.all(Array.from({ length: cap }, () => new Promise<net.Socket>((resolve) => {
    const socket: net.Socket = net.connect(target.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => {});
  })));
  try {
    return await trickle(target, `GET /healthz HTTP/1.1\r\nHost: ${target.hostOf('demo')}\r\nConnection: close\r\n\r\n`, 60_000, 5000);
  } finally {
    for (const socket of idle) socket.destroy();
  }
}

async function asAdmin(target: AttackTarget, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object): Promise<number> {
  const authorization = `Bearer ${await target.token('demo', ADMIN)}`;
  const response = await target.app.inject({ method, url, headers: { host: target.hostOf('demo'), authorization }, ...(payload ? { payload } : {}) });
  return response.statusCode;
}

/** 403 when a browser would refuse to frame the page from another site and would not sniff it, else its status. */
async function framedElsewhere(target: AttackTarget, url: string): Promise<number> {
  const response = await target.app.inject({ url, headers: { host: target.hostOf('demo') } });
  const csp = String(response.headers['content-security-policy'] ?? '');
  const refused = csp.includes("frame-ancestors 'none'") && response.headers['x-content-type-options'] === 'nosniff' && response.headers['x-frame-options'] === 'DENY';
  return refused ? 403 : response.statusCode;
}

export const HTTP_ATTACKS: readonly Attack[] = [
  // Item 4: slow bodies and connection floods.
  { category: 'bodies', name: "a trickle to the provider's token endpoint", expected: [408], run: (t) => trickle(t, post(t, '/idp/token', 'application/x-www-form-urlencoded', 500), 1000, 20_000) },
  { category: 'bodies', name: 'a trickle to the sign-in form', expected: [408], run: (t) => trickle(t, post(t, '/idp/interaction/x/login', 'application/x-www-form-urlencoded', 500), 1000, 20_000) },
  { category: 'bodies', name: 'a signed-in multipart save that stalls', expected: [408], run: async (t) => trickle(t, `${post(t, '/api/demo/records?status=new', 'multipart/form-data; boundary=x', 5000, `Bearer ${await t.token('demo', ADMIN)}`)}--x\r\n`, 60_000, 20_000) },
  { category: 'bodies', name: 'twenty unauthenticated trickles at once', expected: [408], run: (t) => trickleFlood(t, 20) },
  { category: 'bodies', name: 'more connections from one address than its cap', expected: [503], run: (t) => overTheCap(t, 32) },

  // Item 9: NUL and broken Unicode.
  { category: 'text', name: 'a NUL in the patient search', expected: [400], run: (t) => asAdmin(t, 'GET', '/api/demo/patients?search=a%00b') },
  { category: 'text', name: 'a NUL in a new user name', expected: [400], run: (t) => asAdmin(t, 'POST', '/api/demo/users', { email: 'nul@demo.test', name: 'a\u0000b' }) },
  { category: 'text', name: 'an unpaired surrogate in a PACS connection name', expected: [400], run: (t) => asAdmin(t, 'POST', '/api/demo/pacs/connections', { name: '\ud800', qidoUrl: 'https://pacs.example.org/dicom-web', auth: { kind: 'none' } }) },
  { category: 'text', name: 'a NUL in a path parameter', expected: [400], run: (t) => asAdmin(t, 'GET', '/api/demo/patients/P%00') },
  { category: 'text', name: 'a NUL in the sign-in email', expected: [400], run: (t) => t.signInStatus('demo', 'admin\u0000@demo.test', 'x') },
  {
    category: 'text',
    name: "a NUL in the provider's refresh token",
    expected: [400],
    run: async (t) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/idp/token',
          headers: { host: t.hostOf('demo'), 'content-type': 'application/x-www-form-urlencoded' },
          payload: `grant_type=refresh_token&refresh_token=a%00b&client_id=${embeddedClientId('demo')}`,
        })
      ).statusCode,
  },

  // Item 10: pages another site could frame or have sniffed.
  { category: 'headers', name: "framing the provider's sign-out page", expected: [403], run: (t) => framedElsewhere(t, '/idp/session/end') },
  { category: 'headers', name: "framing the provider's error page", expected: [403], run: (t) => framedElsewhere(t, '/idp/auth') },
  { category: 'headers', name: 'framing /index.html', expected: [403], run: (t) => framedElsewhere(t, '/index.html') },
];

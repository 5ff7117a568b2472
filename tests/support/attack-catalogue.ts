/**
 * The attacks a hostile client tries (issue 16), each with the answer it must get. One catalogue
 * serves the attack suite of `npm test` (tests/server/attacks.test.ts) and `npm run bench:attacks`,
 * which prints the table: tried, refused with the right status, data intact.
 */
import net from 'node:net';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, importJWK } from 'jose';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import type { Database } from '../../src/server/db/client.ts';
import type { Attack, AttackTarget } from './attack-types.ts';
import { ROUND_TWO_ATTACKS } from './attacks/index.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';

export type { Attack, AttackTarget } from './attack-types.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function demoPatients(target: AttackTarget, authorization: string | undefined, host = target.hostOf('demo')): Promise<number> {
  const headers: Record<string, string> = { host };
  if (authorization !== undefined) headers.authorization = authorization;
  return (await target.app.inject({ method: 'GET', url: '/api/demo/patients', headers })).statusCode;
}

const clinician = (tenantId: string) => `clinician@${tenantId}.test`;

/** What a successful attack would change: each table's rows, hashed (sign-in bookkeeping aside). */
export async function dataFingerprint(database: Database): Promise<Record<string, string>> {
  const tables = ['tenants', 'users', 'patients', 'records', 'annotation_versions', 'imports', 'import_series', 'server_secrets', 'password_tokens', 'dicom_callers'];
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const result = await database.db.execute(sql.raw(`select * from ${table} order by 1, 2`));
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows.map(({ last_sign_in_at: _ignored, ...row }) => row);
    digests[table] = createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
  }
  return digests;
}

/** Sends a request's headers and the first byte of its body, never the rest; the status line it gets back (0 for none). */
function trickledBodyStatus(target: AttackTarget, authorization: string, waitMs: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(target.port, '127.0.0.1', () =>
      socket.write(
        `POST /api/demo/users HTTP/1.1\r\nHost: ${target.hostOf('demo')}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{`,
      ),
    );
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
  });
}

export const ATTACKS: readonly Attack[] = [
  // Hosts (DNS rebinding).
  { category: 'hosts', name: 'a valid token sent to a foreign host', expected: [421], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'))}`, 'demo.evil.example') },
  { category: 'hosts', name: 'the right host name on another port', expected: [421], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'))}`, 'demo.localhost:1') },

  // The token matrix.
  { category: 'tokens', name: 'no token', expected: [401], run: (t) => demoPatients(t, undefined) },
  { category: 'tokens', name: 'not a bearer token', expected: [401], run: (t) => demoPatients(t, 'Basic YWRtaW46YWRtaW4=') },
  { category: 'tokens', name: 'expired', expected: [401], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'), { expiresIn: Math.floor(Date.now() / 1000) - 60 })}`) },
  { category: 'tokens', name: 'wrong issuer', expected: [401], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'), { issuer: 'https://evil.example/idp' })}`) },
  { category: 'tokens', name: 'wrong audience', expected: [401], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'), { audience: 'another-client' })}`) },
  { category: 'tokens', name: "another tenant's token", expected: [401], run: async (t) => demoPatients(t, `Bearer ${await t.token('acme', clinician('acme'))}`) },
  {
    category: 'tokens',
    name: 'alg none',
    expected: [401],
    run: async (t) => {
      const valid = await t.token('demo', clinician('demo'));
      const claims = JSON.parse(Buffer.from(valid.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      return demoPatients(t, `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`);
    },
  },
  {
    category: 'tokens',
    name: 'HS256 signed with the public key',
    expected: [401],
    run: async (t) => {
      const publicJwk = await t.publicKey('demo');
      const pem = await exportSPKI((await importJWK(publicJwk, 'RS256')) as CryptoKey);
      const user = await findUserByEmail(t.database.db, 'demo', clinician('demo'));
      const token = await new SignJWT({ email: clinician('demo') })
        .setProtectedHeader({ alg: 'HS256', kid: publicJwk.kid! })
        .setSubject(user!.id)
        .setIssuer(`${t.originOf('demo')}/idp`)
        .setAudience(embeddedClientId('demo'))
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(pem));
      return demoPatients(t, `Bearer ${token}`);
    },
  },
  {
    category: 'tokens',
    name: 'unknown kid (a key of its own)',
    expected: [401],
    run: async (t) => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      return demoPatients(t, `Bearer ${await t.token('demo', clinician('demo'), { key: { ...(await exportJWK(privateKey)), kid: 'attacker' } })}`);
    },
  },
  { category: 'tokens', name: 'a disabled account', expected: [401], run: async (t) => demoPatients(t, `Bearer ${await t.token('demo', 'disabled@demo.test')}`) },

  // Ids of another tenant.
  {
    category: 'tenancy',
    name: "acme asks for demo's patients and records by id",
    expected: [404],
    run: async (t) => {
      const authorization = `Bearer ${await t.token('acme', clinician('acme'))}`;
      const result = await t.database.db.execute(sql`select id from records where tenant_id = 'demo' limit 1`);
      const recordId = (result as unknown as { rows: { id: string }[] }).rows[0]!.id;
      const statuses = new Set<number>();
      for (const url of ['/api/acme/patients/DEM-001', '/api/acme/patients/DEM-001/records', `/api/acme/records/${recordId}/images`, `/api/acme/records/${recordId}/annotations`]) {
        statuses.add((await t.app.inject({ method: 'GET', url, headers: { host: t.hostOf('acme'), authorization } })).statusCode);
      }
      return statuses.size === 1 ? [...statuses][0]! : 500;
    },
  },
  { category: 'tenancy', name: "a demo path on acme's host", expected: [404], run: async (t) => demoPatients(t, `Bearer ${await t.token('acme', clinician('acme'))}`, t.hostOf('acme')) },

  // Bodies.
  {
    category: 'bodies',
    name: 'oversized JSON (2 MiB)',
    expected: [413],
    run: async (t) =>
      (await t.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: t.hostOf('demo'), authorization: `Bearer ${await t.token('demo', 'admin@demo.test')}`, 'content-type': 'application/json' }, payload: `{"name":"${'x'.repeat(2 * 1024 * 1024)}"}` })).statusCode,
  },
  {
    category: 'bodies',
    name: 'malformed JSON',
    expected: [400],
    run: async (t) =>
      (await t.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: t.hostOf('demo'), authorization: `Bearer ${await t.token('demo', 'admin@demo.test')}`, 'content-type': 'application/json' }, payload: '{"email": "a@b.test",' })).statusCode,
  },
  {
    category: 'bodies',
    name: 'a body without a token (never read)',
    expected: [401],
    run: async (t) => (await t.app.inject({ method: 'POST', url: '/api/demo/users', headers: { host: t.hostOf('demo'), 'content-type': 'application/json' }, payload: '{"oops' })).statusCode,
  },
  { category: 'bodies', name: 'a body trickled byte by byte', expected: [408], run: async (t) => trickledBodyStatus(t, `Bearer ${await t.token('demo', 'admin@demo.test')}`, 8000) },

  // Sign-in floods.
  {
    category: 'sign-in',
    name: 'password guessing on one account',
    expected: [429],
    run: async (t) => {
      let status = 0;
      for (let i = 0; i < 6 && status !== 429; i++) status = await t.signInStatus('demo', 'admin@demo.test', `guess-${i}`);
      return status;
    },
  },
  // Issue 24: what got through when attacked from outside, one file per topic in ./attacks/.
  ...ROUND_TWO_ATTACKS,
];

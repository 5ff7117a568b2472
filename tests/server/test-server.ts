import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { KeyEncryptionKey } from '../../src/server/crypto/key-encryption-key.ts';
import { unlockServerSecrets } from '../../src/server/db/secrets-startup.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { DEMO_TENANTS } from '../../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../../src/server/seed/seed.ts';
import { LocalDirectoryStore } from '../../src/server/storage/local-directory-store.ts';
import { S3Store } from '../../src/server/storage/s3-store.ts';
import { mintIdToken as mintWithDb } from '../support/mint-token.ts';
import { authorizationRequest } from '../support/authorization-request.ts';

export const PORT = 8080;
export const originOf = (tenantId: string) => `http://${tenantId}.localhost:${PORT}`;
export const hostOf = (tenantId: string) => `${tenantId}.localhost:${PORT}`;

/** What the project's global setup provided (undefined outside a Vitest project that provides it). */
function provided<K extends 'postgresAdminUrl' | 'postgresTemplate' | 'pgliteTemplate'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

/** True in the real-PostgreSQL project when the machine has no PostgreSQL binaries. */
export const postgresUnavailable = provided('postgresAdminUrl') === null;

/** A fresh database of this file's own, so files run in parallel without sharing rows; on PostgreSQL a copy of `template` if given. */
export async function testDatabase(template?: string): Promise<Database> {
  const adminUrl = provided('postgresAdminUrl');
  if (!adminUrl) return openDatabase({ kind: 'pglite', dataDir: null });
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  return openDatabase({ kind: 'postgres', url: adminUrl.replace(/\/postgres$/, `/${name}`) });
}

/**
 * A fresh database with the demo tenants, copied from the run's seeded template
 * (tests/server/pglite-template-setup.ts, tests/server/postgres-global-setup.ts): building the
 * schema and the demo accounts' scrypt hashes again took each server about 3 s of CPU.
 */
async function seededTestDatabase(): Promise<Database> {
  const pgliteTemplate = provided('pgliteTemplate');
  const database = pgliteTemplate
    ? await openDatabase({ kind: 'pglite', dataDir: null, from: new Blob([fs.readFileSync(pgliteTemplate)]) })
    : await testDatabase(provided('postgresTemplate') ?? undefined);
  for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
  return database;
}

export type TestServer = { app: FastifyInstance; database: Database; config: Config; storeDir: string; close: () => Promise<void> };

/** The whole server on an empty database seeded with the demo tenants (API only: no SPA build). */
export async function createTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  // A key-encryption key of its own, so no test server writes a key file into DATA_DIR.
  const kek = KeyEncryptionKey.generate().encode();
  const config = { ...loadConfig({ NODE_ENV: 'test', PORT: String(PORT), LOG_LEVEL: 'silent', IMAGING_WORKERS: '0', KEY_ENCRYPTION_KEY: kek, ...env }), webRoot: '/nonexistent' };
  const database = await seededTestDatabase();
  await unlockServerSecrets(config, database.db);
  return appOnDatabase(config, database);
}

/** The app on a seeded, unlocked database, with a throw-away file store (or the config's S3 bucket); closing it closes the database too. */
export async function appOnDatabase(config: Config, database: Database): Promise<TestServer> {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-store-'));
  // STORAGE=s3 in the config (an s3rver of the test's own): the bucket; else a throw-away directory.
  const store = config.storage.kind === 's3' ? new S3Store(config.storage) : new LocalDirectoryStore(storeDir);
  const app = await buildApp({ config, database, store });
  await app.ready();
  return {
    app,
    database,
    config,
    storeDir,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** Signs an ID token with a tenant's own provider key, as its provider would. */
export function mintIdToken(server: TestServer, tenantId: string, options: Parameters<typeof mintWithDb>[3]): Promise<string> {
  return mintWithDb(server.database.db, tenantId, originOf(tenantId), options);
}

type Cookies = Map<string, string>;

function storeCookies(jar: Cookies, setCookie: string | string[] | undefined) {
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value) jar.set(name, value);
    else jar.delete(name);
  }
}

const cookieHeader = (jar: Cookies) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

export type SignInResult =
  | { ok: true; tokens: { id_token: string; access_token: string; refresh_token?: string; token_type: string }; cookie: string }
  | { ok: false; status: number; body: string };

/**
 * The browser's whole sign-in through the embedded provider, driven with `inject`:
 * authorization request with PKCE, the sign-in form, consent, and the code exchange.
 */
export async function signInThroughProvider(
  server: TestServer,
  tenantId: string,
  email: string,
  password: string,
  /** The browser's address, and cookies it already holds (`name=value; …`), e.g. a device cookie. */
  browser: { remoteAddress?: string; cookie?: string } = {},
): Promise<SignInResult> {
  const host = hostOf(tenantId);
  const jar: Cookies = new Map();
  storeCookies(jar, browser.cookie?.split(';').filter((pair) => pair.includes('=')));
  const remoteAddress = browser.remoteAddress ?? '127.0.0.1';
  const start = authorizationRequest(originOf(tenantId), tenantId);
  const { verifier, redirectUri } = start;
  let url = start.url;
  for (let step = 0; step < 12; step++) {
    const response = await server.app.inject({ method: 'GET', url, remoteAddress, headers: { host, cookie: cookieHeader(jar) } });
    storeCookies(jar, response.headers['set-cookie']);
    const location = response.headers.location as string | undefined;
    if (location?.startsWith(redirectUri)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) return { ok: false, status: response.statusCode, body: location };
      const token = await server.app.inject({
        method: 'POST',
        url: '/idp/token',
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: embeddedClientId(tenantId), code_verifier: verifier }).toString(),
      });
      if (token.statusCode !== 200) return { ok: false, status: token.statusCode, body: token.body };
      // The provider's session cookies come along, for tests that go on to sign out.
      return { ok: true, tokens: token.json(), cookie: cookieHeader(jar) };
    }
    if (location) {
      url = location.startsWith('http') ? new URL(location).pathname + new URL(location).search : location;
      continue;
    }
    const form = /action="([^"]+\/login)"/.exec(response.body);
    if (response.statusCode !== 200 || !form) return { ok: false, status: response.statusCode, body: response.body };
    const login = await server.app.inject({
      method: 'POST',
      url: form[1]!,
      remoteAddress,
      headers: { host, cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password }).toString(),
    });
    storeCookies(jar, login.headers['set-cookie']);
    if (!login.headers.location) return { ok: false, status: login.statusCode, body: login.body };
    url = login.headers.location as string;
  }
  return { ok: false, status: 0, body: 'too many redirects' };
}

/** `Bearer <id token>` of the tenant's seeded demo clinician, as the browser would send it. */
export async function clinicianAuthorization(server: TestServer, tenantId: 'demo' | 'acme'): Promise<string> {
  const user = await findUserByEmail(server.database.db, tenantId, `clinician@${tenantId}.test`);
  return `Bearer ${await mintIdToken(server, tenantId, { sub: user!.id })}`;
}

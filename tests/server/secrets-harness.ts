import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { KeyEncryptionKey } from '../../src/server/crypto/key-encryption-key.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { serverSecrets } from '../../src/server/db/schema.ts';
import { loadTenantSecrets } from '../../src/server/db/secrets.ts';
import { unlockServerSecrets } from '../../src/server/db/secrets-startup.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { DEMO_TENANTS } from '../../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../../src/server/seed/seed.ts';
import { PORT, appOnDatabase, hostOf, originOf, type TestServer } from './test-server.ts';
import { authorizationRequest } from '../support/authorization-request.ts';

/** The PostgreSQL cluster of the server-postgres project, or null in the PGlite project. */
export function postgresAdminUrl(): string | null {
  try {
    return inject('postgresAdminUrl') ?? null;
  } catch {
    return null;
  }
}

/**
 * A database that outlives the servers started on it, so a test can stop one and start another
 * on the same rows: PGlite in a data directory of its own, or a fresh PostgreSQL database.
 */
export type Storage = { dataDir: string; databaseUrl: string | undefined; open: () => Promise<Database>; dispose: () => void };

export async function persistentStorage(): Promise<Storage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-secrets-'));
  const adminUrl = postgresAdminUrl();
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
  }
  return {
    dataDir,
    databaseUrl,
    open: () => openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir }),
    dispose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * What server.ts does on start, on an open database: settings (KEY_ENCRYPTION_KEY from `kek`, else
 * the key file in the storage's data directory), demo tenants, unlocking the secrets, the app.
 * Closing the server closes the database too, like stopping the process.
 */
export async function startServer(storage: Storage, kek: KeyEncryptionKey | null): Promise<TestServer> {
  const env = { NODE_ENV: 'test', PORT: String(PORT), LOG_LEVEL: 'silent', IMAGING_WORKERS: '0', DATA_DIR: storage.dataDir };
  const config = {
    ...loadConfig({ ...env, ...(kek ? { KEY_ENCRYPTION_KEY: kek.encode() } : {}) }),
    // As if DATABASE_URL were set (loadConfig would then insist on KEY_ENCRYPTION_KEY itself).
    databaseUrl: storage.databaseUrl,
    webRoot: '/nonexistent',
  };
  const database = await storage.open();
  try {
    for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
    await unlockServerSecrets(config, database.db);
    for (const tenant of DEMO_TENANTS) await loadTenantSecrets(database.db, tenant.id);
  } catch (error) {
    await database.close();
    throw error;
  }
  return appOnDatabase(config, database);
}

/** The stored secret rows, as the database holds them. */
export async function secretRows(database: Database) {
  return database.db.select().from(serverSecrets).orderBy(serverSecrets.tenantId, serverSecrets.kind);
}

export async function secretRow(database: Database, tenantId: string, kind: 'signing-jwks' | 'cookie-keys') {
  const rows = await database.db.select().from(serverSecrets).where(eq(serverSecrets.tenantId, tenantId));
  return rows.find((row) => row.kind === kind)!;
}

/** GET /api/{tenant}/patients with a token: 200 when the API accepts it. */
export async function apiStatus(server: TestServer, tenantId: string, idToken: string): Promise<number> {
  const response = await server.app.inject({ url: `/api/${tenantId}/patients`, headers: { host: hostOf(tenantId), authorization: `Bearer ${idToken}` } });
  return response.statusCode;
}

export function kidOf(jwt: string): string {
  return JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()).kid;
}

export async function clinicianId(server: TestServer, tenantId: string): Promise<string> {
  return (await findUserByEmail(server.database.db, tenantId, `clinician@${tenantId}.test`))!.id;
}

/**
 * A new authorization request of a browser that is already signed in at the provider (its
 * cookies): 'login' when the provider shows the sign-in form (the session was lost), else the
 * ID token it issues without asking.
 */
export async function resumeSession(server: TestServer, tenantId: string, cookie: string): Promise<{ idToken: string } | 'login'> {
  const host = hostOf(tenantId);
  const start = authorizationRequest(originOf(tenantId), tenantId);
  const { verifier, redirectUri } = start;
  const jar = new Map(cookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const));
  let url = start.url;
  for (let step = 0; step < 12; step++) {
    const header = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await server.app.inject({ url, headers: { host, cookie: header } });
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const name = pair!.slice(0, pair!.indexOf('='));
      const value = pair!.slice(pair!.indexOf('=') + 1);
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
    const location = response.headers.location as string | undefined;
    if (!location) return 'login';
    if (location.startsWith(redirectUri)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) return 'login';
      const token = await server.app.inject({
        method: 'POST',
        url: '/idp/token',
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: embeddedClientId(tenantId), code_verifier: verifier }).toString(),
      });
      if (token.statusCode !== 200) throw new Error(`token exchange failed: ${token.statusCode} ${token.body}`);
      return { idToken: token.json().id_token };
    }
    url = location.startsWith('http') ? new URL(location).pathname + new URL(location).search : location;
  }
  throw new Error('too many redirects');
}

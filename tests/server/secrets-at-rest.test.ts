import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { isSealed } from '../../src/server/crypto/envelope.ts';
import { KeyEncryptionKey, createKeyFile, readKeyFile } from '../../src/server/crypto/key-encryption-key.ts';
import { serverSecrets } from '../../src/server/db/schema.ts';
import { ServerSecretsError, loadTenantSecrets, newCookieKey, newSigningKey, openServerSecrets } from '../../src/server/db/secrets.ts';
import { resolveKeyEncryptionKey, unlockServerSecrets } from '../../src/server/db/secrets-startup.ts';
import { demoAccounts } from '../../src/server/seed/demo-accounts.ts';
import { mintIdToken as mintWithDb } from '../support/mint-token.ts';
import { apiStatus, clinicianId, kidOf, persistentStorage, postgresAdminUrl, secretRow, secretRows, startServer, type Storage } from './secrets-harness.ts';
import { originOf, postgresUnavailable, signInThroughProvider } from './test-server.ts';

const clinician = demoAccounts('demo')[1]!;

describe('the key-encryption key setting', () => {
  const base64 = KeyEncryptionKey.generate().encode().replaceAll('-', '+').replaceAll('_', '/');

  it('is required with PostgreSQL, and the server refuses to start without it', () => {
    const start = () => loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/ivus' });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/KEY_ENCRYPTION_KEY: required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/ivus', KEY_ENCRYPTION_KEY: base64 }).keyEncryptionKey).toBeInstanceOf(KeyEncryptionKey);
  });

  it('is optional with the embedded database', () => {
    expect(loadConfig({}).keyEncryptionKey).toBeUndefined();
  });

  it('takes 32 bytes in base64 or base64url, and names the variable (never the value) when it is wrong', () => {
    const url = base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    expect(loadConfig({ KEY_ENCRYPTION_KEY: base64 }).keyEncryptionKey!.id).toBe(loadConfig({ KEY_ENCRYPTION_KEY: url }).keyEncryptionKey!.id);
    const short = Buffer.alloc(16, 7).toString('base64');
    expect(() => loadConfig({ KEY_ENCRYPTION_KEY: short })).toThrow(/KEY_ENCRYPTION_KEY: must be 32 bytes \(it is 16\)/);
    expect(() => loadConfig({ KEY_ENCRYPTION_KEY: 'not a key!' })).toThrow(/KEY_ENCRYPTION_KEY: must be base64 or base64url/);
    try {
      loadConfig({ KEY_ENCRYPTION_KEY: short });
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
  });

  it('shows only its id when logged or serialised', () => {
    const key = KeyEncryptionKey.generate();
    const shown = `${JSON.stringify({ key })} ${String(key)}`;
    expect(shown).toContain(key.id);
    expect(shown).not.toContain(key.encode());
  });
});

describe.skipIf(postgresUnavailable)('signing and cookie keys at rest', () => {
  let storage: Storage;
  const kek = KeyEncryptionKey.generate();
  let idToken: string;
  let secretsBefore: Awaited<ReturnType<typeof loadTenantSecrets>>;

  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());

  it('stores every signing and cookie key encrypted, bound to the key-encryption key', async () => {
    const server = await startServer(storage, kek);
    try {
      const result = await signInThroughProvider(server, 'demo', clinician.email, clinician.password);
      if (!result.ok) throw new Error(`sign-in failed: ${result.status} ${result.body}`);
      idToken = result.tokens.id_token;
      secretsBefore = await loadTenantSecrets(server.database.db, 'demo');
      const acme = await loadTenantSecrets(server.database.db, 'acme');
      const rows = await secretRows(server.database);
      expect(rows.map((row) => `${row.tenantId}/${row.kind}`)).toEqual(expect.arrayContaining(['demo/signing-jwks', 'demo/cookie-keys', 'acme/signing-jwks', 'acme/cookie-keys']));
      const stored = JSON.stringify(rows.map((row) => row.value));
      expect(stored).not.toContain('"d":');
      for (const secrets of [secretsBefore, acme]) {
        expect(stored).not.toContain(secrets.signingKeys[0]!.d);
        expect(stored).not.toContain(secrets.cookieKeys[0]);
      }
      for (const row of rows) {
        expect(isSealed(row.value)).toBe(true);
        const sealed = row.value as { v: number; alg: string; kek: string; iv: string; tag: string; ct: string };
        expect(sealed).toMatchObject({ v: 1, alg: 'A256GCM', kek: kek.id });
        expect(Buffer.from(sealed.iv, 'base64url')).toHaveLength(12);
        expect(Buffer.from(sealed.tag, 'base64url')).toHaveLength(16);
      }
      // Every row has a nonce of its own.
      expect(new Set(rows.map((row) => (row.value as { iv: string }).iv)).size).toBe(rows.length);
    } finally {
      await server.close();
    }
  });

  it('signs and verifies as before after a restart with the same key', async () => {
    const server = await startServer(storage, kek);
    try {
      expect(await apiStatus(server, 'demo', idToken)).toBe(200);
      const secrets = await loadTenantSecrets(server.database.db, 'demo');
      expect(secrets).toEqual(secretsBefore);
      const again = await signInThroughProvider(server, 'demo', clinician.email, clinician.password);
      if (!again.ok) throw new Error(`sign-in failed: ${again.status} ${again.body}`);
      expect(kidOf(again.tokens.id_token)).toBe(kidOf(idToken));
    } finally {
      await server.close();
    }
  });

  it('refuses to start with another key, naming the tenant, and regenerates nothing', async () => {
    const rowsBefore = await (async () => {
      const database = await storage.open();
      try {
        return await secretRows(database);
      } finally {
        await database.close();
      }
    })();
    const start = startServer(storage, KeyEncryptionKey.generate());
    await expect(start).rejects.toThrow(ServerSecretsError);
    await expect(start).rejects.toThrow(/KEY_ENCRYPTION_KEY does not match: the (signing|cookie) keys of tenant "(demo|acme)"/);
    const database = await storage.open();
    try {
      expect(await secretRows(database)).toEqual(rowsBefore);
    } finally {
      await database.close();
    }
    // And the right key still works afterwards.
    const server = await startServer(storage, kek);
    await server.close();
  });
});

describe.skipIf(postgresUnavailable)('stored secrets moved or left in plain text', () => {
  let storage: Storage;
  const kek = KeyEncryptionKey.generate();
  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());

  it('does not open a row copied to another tenant or to another kind', async () => {
    const server = await startServer(storage, kek);
    const { db } = server.database;
    try {
      const where = (tenantId: string, kind: 'signing-jwks' | 'cookie-keys') => and(eq(serverSecrets.tenantId, tenantId), eq(serverSecrets.kind, kind));
      const demoSigning = await secretRow(server.database, 'demo', 'signing-jwks');
      const acmeSigning = await secretRow(server.database, 'acme', 'signing-jwks');
      const demoCookies = await secretRow(server.database, 'demo', 'cookie-keys');
      await db.update(serverSecrets).set({ value: acmeSigning.value }).where(where('demo', 'signing-jwks'));
      await expect(openServerSecrets(db, kek)).rejects.toThrow(/signing keys of tenant "demo" do not decrypt .* copied from another tenant or kind/);
      await db.update(serverSecrets).set({ value: demoCookies.value }).where(where('demo', 'signing-jwks'));
      await expect(openServerSecrets(db, kek)).rejects.toThrow(/signing keys of tenant "demo" do not decrypt/);
      // A flipped ciphertext byte fails the same way.
      const sealed = demoSigning.value as { ct: string };
      const ct = Buffer.from(sealed.ct, 'base64url');
      ct[0]! ^= 1;
      await db.update(serverSecrets).set({ value: { ...sealed, ct: ct.toString('base64url') } }).where(where('demo', 'signing-jwks'));
      await expect(openServerSecrets(db, kek)).rejects.toThrow(/signing keys of tenant "demo" do not decrypt/);
      await db.update(serverSecrets).set({ value: demoSigning.value }).where(where('demo', 'signing-jwks'));
      await expect(openServerSecrets(db, kek)).resolves.toEqual({ encrypted: 0 });
    } finally {
      await server.close();
    }
  });

  it('encrypts the plain-text rows of a database from before encryption at rest, keeping the same keys', async () => {
    const database = await storage.open();
    const plainSigning = [await newSigningKey()];
    const plainCookies = [newCookieKey()];
    let oldToken: string;
    try {
      // As the previous version stored them (the rows of the previous test go: another key sealed them).
      await database.db.delete(serverSecrets);
      await database.db.insert(serverSecrets).values([
        { tenantId: 'demo', kind: 'signing-jwks', value: plainSigning },
        { tenantId: 'demo', kind: 'cookie-keys', value: plainCookies },
      ]);
      // A token the previous version signed.
      const userId = (await database.db.query.users.findFirst({ where: (u, { and: all, eq: is }) => all(is(u.tenantId, 'demo'), is(u.email, clinician.email)) }))!.id;
      oldToken = await mintWithDb(database.db, 'demo', originOf('demo'), { sub: userId, key: plainSigning[0] });
    } finally {
      await database.close();
    }
    const server = await startServer(storage, kek);
    try {
      const rows = await secretRows(server.database);
      expect(rows.every((row) => isSealed(row.value))).toBe(true);
      expect(JSON.stringify(rows)).not.toContain(plainSigning[0]!.d);
      expect(JSON.stringify(rows)).not.toContain(plainCookies[0]);
      expect(await loadTenantSecrets(server.database.db, 'demo')).toEqual({ signingKeys: plainSigning, cookieKeys: plainCookies });
      expect(await apiStatus(server, 'demo', oldToken)).toBe(200);
      const signIn = await signInThroughProvider(server, 'demo', clinician.email, clinician.password);
      if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status}`);
      expect(kidOf(signIn.tokens.id_token)).toBe(plainSigning[0]!.kid);
      // The next start finds nothing left to encrypt.
      await expect(openServerSecrets(server.database.db, kek)).resolves.toEqual({ encrypted: 0 });
    } finally {
      await server.close();
    }
  });

  it('refuses a plain-text row beside encrypted ones: it could be a planted signing key', async () => {
    const server = await startServer(storage, kek);
    const { db } = server.database;
    try {
      const sealed = await secretRow(server.database, 'demo', 'signing-jwks');
      const planted = [await newSigningKey()];
      const demoSigning = and(eq(serverSecrets.tenantId, 'demo'), eq(serverSecrets.kind, 'signing-jwks'));
      await db.update(serverSecrets).set({ value: planted }).where(demoSigning);
      await expect(openServerSecrets(db, kek)).rejects.toThrow(/signing keys of tenant "demo" are stored in plain text although the other rows are encrypted/);
      // Nor does a running server take it.
      await expect(loadTenantSecrets(db, 'demo')).rejects.toThrow(/plain text/);
      // The API does not accept a token signed with it.
      const forged = await mintWithDb(db, 'demo', originOf('demo'), { sub: await clinicianId(server, 'demo'), key: planted[0] });
      expect(await apiStatus(server, 'demo', forged)).not.toBe(200);
      await db.update(serverSecrets).set({ value: sealed.value }).where(demoSigning);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(postgresAdminUrl() !== null)('the embedded key file', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());

  it('is generated private on first start, reused after, and never replaced while secrets need it', async () => {
    const file = path.join(storage.dataDir, 'key-encryption-key');
    const first = await startServer(storage, null);
    await first.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const key = readKeyFile(file)!;
    const database = await storage.open();
    try {
      const config = { keyEncryptionKey: undefined, databaseUrl: undefined, dataDir: storage.dataDir };
      const again = await unlockServerSecrets(config, database.db);
      expect(again).toMatchObject({ source: 'file', created: false, exposed: false, encrypted: 0 });
      expect(again.key.id).toBe(key.id);
      expect((await secretRow(database, 'demo', 'signing-jwks')).value).toMatchObject({ kek: key.id });
      fs.rmSync(file);
      await expect(resolveKeyEncryptionKey(config, database.db)).rejects.toThrow(/key-encryption-key is missing, but the database holds .* Restore the file/);
      expect(fs.existsSync(file)).toBe(false);
      fs.writeFileSync(file, 'garbage\n', { mode: 0o600 });
      await expect(resolveKeyEncryptionKey(config, database.db)).rejects.toThrow(/key file .* is damaged/);
      createKeyFile(`${file}.restored`, key);
      fs.renameSync(`${file}.restored`, file);
      expect((await unlockServerSecrets(config, database.db)).key.id).toBe(key.id);
    } finally {
      await database.close();
    }
    const server = await startServer(storage, null);
    try {
      expect(await apiStatus(server, 'demo', await mintWithDb(server.database.db, 'demo', originOf('demo'), { sub: await clinicianId(server, 'demo') }))).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('is created by one process only when two race', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-kek-'));
    try {
      const file = path.join(dir, 'key-encryption-key');
      const a = KeyEncryptionKey.generate();
      expect(createKeyFile(file, a)).toBe(true);
      expect(createKeyFile(file, KeyEncryptionKey.generate())).toBe(false);
      expect(readKeyFile(file)!.id).toBe(a.id);
      expect(fs.readdirSync(dir)).toEqual(['key-encryption-key']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused with PostgreSQL even if the settings were not checked', async () => {
    await expect(resolveKeyEncryptionKey({ keyEncryptionKey: undefined, databaseUrl: 'postgres://db/ivus', dataDir: storage.dataDir }, null as never)).rejects.toThrow(
      /KEY_ENCRYPTION_KEY: required with DATABASE_URL/,
    );
  });
});

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyEncryptionKey, readKeyFile, replaceKeyFile } from '../../src/server/crypto/key-encryption-key.ts';
import { loadTenantSecrets } from '../../src/server/db/secrets.ts';
import { KeyRotationError, rotateKeys, type RotationRequest } from '../../src/server/db/secrets-rotation.ts';
import { demoAccounts } from '../../src/server/seed/demo-accounts.ts';
import { apiStatus, kidOf, persistentStorage, postgresAdminUrl, resumeSession, secretRow, secretRows, startServer, type Storage } from './secrets-harness.ts';
import { hostOf, postgresUnavailable, signInThroughProvider, type TestServer } from './test-server.ts';

const clinician = demoAccounts('demo')[1]!;

/** A child's run as a failure message can show it: how it ended, how long it took, and its stderr. */
function timedSpawn(file: string, args: string[], env: Record<string, string | undefined>): SpawnSyncReturns<string> & { outcome: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  const ms = Math.round(performance.now() - started);
  const ended = result.error ? `did not run (${result.error.message})` : result.signal ? `was ended by ${result.signal}` : `exited ${result.status}`;
  return { ...result, outcome: `\`${[file, ...args].join(' ')}\` ${ended} after ${ms} ms; stderr: ${result.stderr ?? ''}` };
}

function rotation(storage: Storage, kek: KeyEncryptionKey | null, options: Partial<RotationRequest>): RotationRequest {
  const lines: string[] = [];
  return {
    config: { keyEncryptionKey: kek ?? undefined, databaseUrl: storage.databaseUrl, dataDir: storage.dataDir, tokenTtlSeconds: 3600, sessionTtlSeconds: 43_200 },
    signingKeys: false,
    force: false,
    report: (line) => lines.push(line),
    ...options,
  };
}

async function signIn(server: TestServer): Promise<{ idToken: string; cookie: string }> {
  const result = await signInThroughProvider(server, 'demo', clinician.email, clinician.password);
  if (!result.ok) throw new Error(`sign-in failed: ${result.status} ${result.body}`);
  return { idToken: result.tokens.id_token, cookie: result.cookie };
}

async function withServer<T>(storage: Storage, kek: KeyEncryptionKey | null, use: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startServer(storage, kek);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

describe.skipIf(postgresUnavailable)('rotating the key-encryption key', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());

  it('re-encrypts every secret under the new key: everything keeps working with it, and the old key is refused', async () => {
    const oldKek = KeyEncryptionKey.generate();
    const newKek = KeyEncryptionKey.generate();
    const { idToken, cookie, secrets } = await withServer(storage, oldKek, async (server) => ({
      ...(await signIn(server)),
      secrets: await loadTenantSecrets(server.database.db, 'demo'),
    }));
    await expect(rotateKeys(rotation(storage, oldKek, { newKek: 'generate' }))).rejects.toThrow(/Give the new key-encryption key in NEW_KEY_ENCRYPTION_KEY/);
    await expect(rotateKeys(rotation(storage, KeyEncryptionKey.generate(), { newKek }))).rejects.toThrow(KeyRotationError);
    await rotateKeys(rotation(storage, oldKek, { newKek }));
    await expect(startServer(storage, oldKek)).rejects.toThrow(/KEY_ENCRYPTION_KEY does not match/);
    await withServer(storage, newKek, async (server) => {
      expect((await secretRows(server.database)).every((row) => (row.value as { kek: string }).kek === newKek.id)).toBe(true);
      expect(await loadTenantSecrets(server.database.db, 'demo')).toEqual(secrets);
      expect(await apiStatus(server, 'demo', idToken)).toBe(200);
      // The provider session of before still signs the browser in without asking.
      const resumed = await resumeSession(server, 'demo', cookie);
      expect(resumed).not.toBe('login');
    });
    // A second run with the same new key (after an interruption) changes nothing and succeeds.
    await rotateKeys(rotation(storage, oldKek, { newKek }));
  });
});

describe.skipIf(postgresUnavailable)('rotating the signing and cookie keys', () => {
  let storage: Storage;
  const kek = KeyEncryptionKey.generate();
  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());

  it('signs new tokens with a new key while tokens and sessions of the old key keep working', async () => {
    const before = await withServer(storage, kek, (server) => signIn(server));
    const oldKid = kidOf(before.idToken);
    const lines: string[] = [];
    await rotateKeys({ ...rotation(storage, kek, { signingKeys: true }), report: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(new RegExp(`Tenant demo: new signing key \\S+ \\(previous ${oldKid} still verifies\\)`));
    await withServer(storage, kek, async (server) => {
      const secrets = await loadTenantSecrets(server.database.db, 'demo');
      expect(secrets.signingKeys.map((k) => k.kid)).toEqual([expect.not.stringMatching(oldKid), oldKid]);
      expect(secrets.cookieKeys).toHaveLength(2);
      const newKid = secrets.signingKeys[0]!.kid!;
      // The published key set holds both keys, the new one first.
      const jwks = await server.app.inject({ url: '/idp/jwks', headers: { host: hostOf('demo') } });
      expect(jwks.json().keys.map((k: { kid: string }) => k.kid)).toEqual([newKid, oldKid]);
      expect(JSON.stringify(jwks.json())).not.toContain('"d"');
      // A token signed before the rotation still works on the API.
      expect(await apiStatus(server, 'demo', before.idToken)).toBe(200);
      // The browser's provider session (cookies signed with the old cookie key) still signs it in, with a token of the new key.
      const resumed = await resumeSession(server, 'demo', before.cookie);
      if (resumed === 'login') throw new Error('the rotation signed the browser out');
      expect(kidOf(resumed.idToken)).toBe(newKid);
      // A fresh sign-in gets the new key too.
      const after = await signIn(server);
      expect(kidOf(after.idToken)).toBe(newKid);
      expect(await apiStatus(server, 'demo', after.idToken)).toBe(200);
    });
  });

  it('refuses to drop a previous key younger than the token and session lifetimes, unless forced', async () => {
    const signing = async () => {
      const database = await storage.open();
      try {
        return (await secretRow(database, 'demo', 'signing-jwks')).value;
      } finally {
        await database.close();
      }
    };
    const stored = await signing();
    await expect(rotateKeys(rotation(storage, kek, { signingKeys: true }))).rejects.toThrow(/rotated 0 minutes ago.*--force/);
    expect(await signing()).toEqual(stored);
    await rotateKeys(rotation(storage, kek, { signingKeys: true, force: true }));
    await withServer(storage, kek, async (server) => {
      const secrets = await loadTenantSecrets(server.database.db, 'demo');
      expect(secrets.signingKeys).toHaveLength(2);
      expect(secrets.cookieKeys).toHaveLength(3);
    });
  });
});

describe.skipIf(postgresAdminUrl() !== null)('rotating the embedded key file', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await persistentStorage();
  });
  afterAll(() => storage.dispose());
  const file = () => path.join(storage.dataDir, 'key-encryption-key');
  const oldFile = () => path.join(storage.dataDir, 'key-encryption-key.old');

  it('generates a new key file, re-encrypts, and removes the old key; an interrupted rotation is finished by a re-run', async () => {
    const { idToken } = await withServer(storage, null, (server) => signIn(server));
    const first = readKeyFile(file())!;
    await rotateKeys(rotation(storage, null, { newKek: 'generate' }));
    const second = readKeyFile(file())!;
    expect(second.id).not.toBe(first.id);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(oldFile())).toBe(false);
    await withServer(storage, null, async (server) => {
      expect(await apiStatus(server, 'demo', idToken)).toBe(200);
    });

    // A crash after the files were swapped but before the rows moved: the new file, the rows under the old key.
    replaceKeyFile(oldFile(), second);
    replaceKeyFile(file(), KeyEncryptionKey.generate());
    await expect(startServer(storage, null)).rejects.toThrow(/If `npm run rotate-keys` was interrupted, run it again/);
    await rotateKeys(rotation(storage, null, { newKek: 'generate' }));
    expect(fs.existsSync(oldFile())).toBe(false);
    await withServer(storage, null, async (server) => {
      expect(await apiStatus(server, 'demo', idToken)).toBe(200);
    });
  });

  it('runs as `npm run rotate-keys` only while no server holds the data directory', async () => {
    const run = (...args: string[]) => timedSpawn('scripts/rotate-keys.ts', args, { PATH: process.env.PATH, DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent' });
    const usage = run();
    expect(usage.status, usage.outcome).toBe(1);
    expect(usage.stderr).toMatch(/Say what to rotate/);
    const before = readKeyFile(file())!;
    await withServer(storage, null, async () => {
      const locked = run('--signing-keys');
      expect(locked.status, locked.outcome).toBe(1);
      expect(locked.stderr).toMatch(/in use by another server process/);
    });
    const done = run('--kek', '--signing-keys');
    expect(done.stderr, done.outcome).toBe('');
    expect(done.status, done.outcome).toBe(0);
    expect(done.stdout).toMatch(/Re-encrypted 4 of 4 stored secrets under the new key-encryption key [0-9a-f]{16}/);
    expect(done.stdout).toMatch(/Tenant demo: new signing key/);
    expect(done.stdout).not.toContain(readKeyFile(file())!.encode());
    expect(readKeyFile(file())!.id).not.toBe(before.id);
    await withServer(storage, null, async (server) => {
      expect((await loadTenantSecrets(server.database.db, 'demo')).signingKeys).toHaveLength(2);
    });
  });

  it('makes `npm start` refuse a wrong key, and PostgreSQL without one, with a message and no stack', () => {
    const start = (env: Record<string, string>) =>
      timedSpawn('src/server/server.ts', [], { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent', IMAGING_WORKERS: '0', NODE_ENV: 'test', ...env });
    const wrong = start({ DATA_DIR: storage.dataDir, KEY_ENCRYPTION_KEY: KeyEncryptionKey.generate().encode() });
    expect(wrong.status, wrong.outcome).toBe(1);
    expect(wrong.stderr).toMatch(/^The KEY_ENCRYPTION_KEY does not match: the (signing|cookie) keys of tenant "\w+"/);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    const postgres = start({ DATA_DIR: storage.dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/ivus' });
    expect(postgres.status, postgres.outcome).toBe(1);
    expect(postgres.stderr).toMatch(/KEY_ENCRYPTION_KEY: required with DATABASE_URL/);
    expect(postgres.stderr).not.toMatch(/\n\s+at /);
  });
});

import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { Config } from '../config.ts';
import { isSealed } from '../crypto/envelope.ts';
import { KeyEncryptionKey, OLD_KEY_FILE_NAME, readKeyFile, removeKeyFile, replaceKeyFile } from '../crypto/key-encryption-key.ts';
import { openDatabase, type Db } from './client.ts';
import { openCredentials, sealCredentials } from './pacs-connections.ts';
import { pacsConnections, serverSecrets } from './schema.ts';
import { keyIdsInUse, newCookieKey, newSigningKey, openServerSecrets, openStoredSecret, plainSecret, refusePlantedPlainRows, sealSecret, type SecretKind } from './secrets.ts';
import { keyFilePath, resolveKeyEncryptionKey } from './secrets-startup.ts';

/** Cookie keys kept after a rotation: the new one signs, the previous ones still verify. */
const COOKIE_KEYS_KEPT = 3;

export class KeyRotationError extends Error {}

const whereRow = (tenantId: string, kind: SecretKind) => and(eq(serverSecrets.tenantId, tenantId), eq(serverSecrets.kind, kind));

/**
 * Re-encrypts every stored secret under `to`, opening each with whichever of `from` sealed it
 * (the plain-text rows of a database from before encryption at rest are sealed).
 * One transaction: all rows move, or none.
 * Rows already under `to` are left alone, so a re-run after an interruption finishes the job.
 */
export async function reencryptSecrets(db: Db, from: readonly KeyEncryptionKey[], to: KeyEncryptionKey): Promise<{ rows: number; reencrypted: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(serverSecrets).for('update');
    refusePlantedPlainRows(rows);
    let reencrypted = 0;
    for (const row of rows) {
      if (isSealed(row.value) && row.value.kek === to.id) {
        openStoredSecret(to, row);
        continue;
      }
      const plain = isSealed(row.value) ? openStoredSecret(from, row) : plainSecret(row);
      await tx.update(serverSecrets).set({ value: sealSecret(to, row.tenantId, row.kind, plain) }).where(whereRow(row.tenantId, row.kind));
      reencrypted++;
    }
    // PACS credentials are sealed with the same key, so they move with it.
    const connections = await tx.select().from(pacsConnections).for('update');
    let credentialRows = 0;
    for (const row of connections) {
      if (row.credentials === null) continue;
      credentialRows++;
      if (isSealed(row.credentials) && row.credentials.kek === to.id) {
        openCredentials(to, row);
        continue;
      }
      const credentials = openCredentials([...from, to], row)!;
      await tx
        .update(pacsConnections)
        .set({ credentials: sealCredentials(to, row.tenantId, row.id, credentials) })
        .where(eq(pacsConnections.id, row.id));
      reencrypted++;
    }
    return { rows: rows.length + credentialRows, reencrypted };
  });
}

export type ProviderKeyRotation = { tenantId: string; kid: string; keptKid: string | undefined; droppedKids: string[] };

/**
 * Gives every tenant a new signing key and cookie key without signing anybody out: the new key
 * comes first (it signs from the next start on) and the previous signing key stays in the JWKS,
 * so tokens and sessions made with it still verify. Only one previous signing key is kept, so a
 * rotation that would drop one younger than `minimumAgeSeconds` (token + session lifetime) is
 * refused unless `force`: tokens it signed could still be in use.
 */
export async function rotateProviderKeys(
  db: Db,
  key: KeyEncryptionKey,
  options: { minimumAgeSeconds: number; force: boolean; now?: Date },
): Promise<ProviderKeyRotation[]> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(serverSecrets).for('update');
    const rotations: ProviderKeyRotation[] = [];
    for (const row of rows.filter((r) => r.kind === 'signing-jwks')) {
      const keys = openStoredSecret(key, row) as JWK[];
      // created_at is when the current key set was written, i.e. when the kept previous key stopped signing.
      const ageSeconds = (now.getTime() - row.createdAt.getTime()) / 1000;
      if (keys.length > 1 && ageSeconds < options.minimumAgeSeconds && !options.force) {
        throw new KeyRotationError(
          `The signing key of tenant "${row.tenantId}" was rotated ${Math.round(ageSeconds / 60)} minutes ago. Rotating again now ` +
            `would drop key ${keys[1]!.kid}, which tokens or sessions of the last ${Math.round(options.minimumAgeSeconds / 3600)} hours ` +
            '(TOKEN_TTL_SECONDS + SESSION_TTL_SECONDS) may still need. Wait, or pass --force to sign those out. Nothing was changed.',
        );
      }
      const fresh = await newSigningKey();
      const value = sealSecret(key, row.tenantId, 'signing-jwks', [fresh, ...keys.slice(0, 1)]);
      await tx.update(serverSecrets).set({ value, createdAt: now }).where(whereRow(row.tenantId, 'signing-jwks'));
      rotations.push({ tenantId: row.tenantId, kid: fresh.kid!, keptKid: keys[0]?.kid, droppedKids: keys.slice(1).map((k) => k.kid!) });
    }
    for (const row of rows.filter((r) => r.kind === 'cookie-keys')) {
      const keys = openStoredSecret(key, row) as string[];
      const value = sealSecret(key, row.tenantId, 'cookie-keys', [newCookieKey(), ...keys].slice(0, COOKIE_KEYS_KEPT));
      await tx.update(serverSecrets).set({ value, createdAt: now }).where(whereRow(row.tenantId, 'cookie-keys'));
    }
    return rotations;
  });
}

export type RotationRequest = {
  config: Pick<Config, 'keyEncryptionKey' | 'databaseUrl' | 'dataDir' | 'tokenTtlSeconds' | 'sessionTtlSeconds'>;
  /** Re-encrypt everything under a new key-encryption key: this one, or a generated one (embedded key file only). */
  newKek?: KeyEncryptionKey | 'generate';
  /** Rotate every tenant's signing key and cookie key. */
  signingKeys: boolean;
  force: boolean;
  report: (line: string) => void;
};

/**
 * `npm run rotate-keys`. With the embedded database it holds the data directory's lock, so the
 * server must be stopped; with PostgreSQL it may run beside the servers.
 */
export async function rotateKeys(request: RotationRequest): Promise<void> {
  const { config, report } = request;
  const usesKeyFile = !config.keyEncryptionKey && !config.databaseUrl;
  if (request.newKek === 'generate' && !usesKeyFile) {
    throw new KeyRotationError(
      'Give the new key-encryption key in NEW_KEY_ENCRYPTION_KEY (or --new-kek): only the key file of the embedded database ' +
        'is generated. Make one with `openssl rand -base64 32`.',
    );
  }
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    let key: KeyEncryptionKey | undefined;
    if (request.newKek) key = await replaceKeyEncryptionKey(database.db, request, usesKeyFile);
    if (request.signingKeys) {
      key ??= (await resolveKeyEncryptionKey(config, database.db)).key;
      await openServerSecrets(database.db, key);
      const rotations = await rotateProviderKeys(database.db, key, {
        minimumAgeSeconds: config.tokenTtlSeconds + config.sessionTtlSeconds,
        force: request.force,
      });
      for (const r of rotations) {
        const dropped = r.droppedKids.length ? `, dropped ${r.droppedKids.join(', ')}` : '';
        report(`Tenant ${r.tenantId}: new signing key ${r.kid} (previous ${r.keptKid ?? 'none'} still verifies${dropped}); new cookie key.`);
      }
      report('Servers sign with the new keys once restarted; until then they keep signing with the previous ones, which stay valid.');
    }
  } finally {
    await database.close();
  }
}

async function replaceKeyEncryptionKey(db: Db, request: RotationRequest, usesKeyFile: boolean): Promise<KeyEncryptionKey> {
  const { config, report } = request;
  const next = request.newKek === 'generate' || !request.newKek ? KeyEncryptionKey.generate() : request.newKek;
  const file = keyFilePath(config);
  const oldFile = path.join(config.dataDir, OLD_KEY_FILE_NAME);
  // Every key the rows may be under: the configured one, an old key file left by an interrupted
  // rotation, and the new key itself (a re-run after the rows moved but before the files did).
  const current = usesKeyFile ? [readKeyFile(file), readKeyFile(oldFile)].filter((k) => k !== null) : [config.keyEncryptionKey!];
  const inUse = await keyIdsInUse(db);
  const unknown = [...inUse].filter((id) => id !== next.id && !current.some((k) => k.id === id));
  if (unknown.length) {
    throw new KeyRotationError(
      `The stored secrets are encrypted with key-encryption key ${unknown.join(', ')}, which is not the configured ` +
        `${usesKeyFile ? `key file ${file}` : 'KEY_ENCRYPTION_KEY'}. Nothing was changed.`,
    );
  }
  if (usesKeyFile) {
    // The key the rows are under stays on disk as .old until they are re-encrypted, so a crash at any step loses no key.
    const previous = current.find((k) => inUse.has(k.id)) ?? current[0];
    if (previous) replaceKeyFile(oldFile, previous);
    replaceKeyFile(file, next);
  }
  const { rows, reencrypted } = await reencryptSecrets(db, [...current, next], next);
  if (usesKeyFile) removeKeyFile(oldFile);
  report(`Re-encrypted ${reencrypted} of ${rows} stored secrets under the new key-encryption key ${next.id}.`);
  report(
    usesKeyFile
      ? `The new key is in ${file}; the old one was removed. Back up the new file (apart from the database).`
      : 'Set KEY_ENCRYPTION_KEY to the new key for every server, then restart them; running servers keep the keys they have loaded until then.',
  );
  return next;
}

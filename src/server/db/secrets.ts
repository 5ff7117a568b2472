import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { SEALED_FORMAT_VERSION, UnsealError, isSealed, seal, unseal, type SealedSecret } from '../crypto/envelope.ts';
import type { KeyEncryptionKey } from '../crypto/key-encryption-key.ts';
import type { Db } from './client.ts';
import { pacsConnections, serverSecrets } from './schema.ts';

export type TenantSecrets = {
  /** Private signing keys of the tenant's embedded provider (RS256); the first one signs, all verify. */
  signingKeys: JWK[];
  /** The provider's cookie keys; the first one signs, all verify. */
  cookieKeys: string[];
};

export type SecretKind = 'signing-jwks' | 'cookie-keys';

type SecretRow = { tenantId: string; kind: SecretKind; value: unknown };

const LABELS: Record<SecretKind, string> = { 'signing-jwks': 'signing keys', 'cookie-keys': 'cookie keys' };

/**
 * Why a stored secret could not be opened. Start-up stops with the message (no stack), and keys
 * are never regenerated in its place: new keys would sign everybody out and invalidate every token.
 */
export class ServerSecretsError extends Error {
  readonly reason: 'wrong-key' | 'undecryptable' | 'malformed';

  constructor(reason: ServerSecretsError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(12).toString('base64url') };
}

export function newCookieKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Binds a sealed row to its tenant and kind, so a row copied to another tenant or kind does not open. */
function associatedData(tenantId: string, kind: SecretKind): Buffer {
  return Buffer.from(`ivus-review server secret v${SEALED_FORMAT_VERSION}\0${tenantId}\0${kind}`, 'utf8');
}

export function sealSecret(key: KeyEncryptionKey, tenantId: string, kind: SecretKind, value: unknown[]): SealedSecret {
  return seal(key, Buffer.from(JSON.stringify(value), 'utf8'), associatedData(tenantId, kind));
}

function plainList(row: SecretRow, value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ServerSecretsError('malformed', `The stored ${LABELS[row.kind]} of tenant "${row.tenantId}" are neither encrypted nor a list of keys.`);
  }
  return value;
}

/** A row written in plain text by a version before encryption at rest: its value, checked. */
export function plainSecret(row: SecretRow): unknown[] {
  return plainList(row, row.value);
}

/**
 * Plain-text rows are accepted only from a database that has no encrypted row yet (one written
 * by the version before encryption at rest, upgraded in a single transaction). Once rows are
 * sealed, a plain row is refused: it could be a signing key planted by someone who can write to
 * the database but lacks the key-encryption key, and the server would sign and verify with it.
 */
export function refusePlantedPlainRows(rows: readonly SecretRow[]): void {
  if (!rows.some((row) => isSealed(row.value))) return;
  const planted = rows.find((row) => !isSealed(row.value));
  if (planted) throw plantedRowError(planted);
}

function plantedRowError(row: SecretRow): ServerSecretsError {
  return new ServerSecretsError(
    'malformed',
    `The ${LABELS[row.kind]} of tenant "${row.tenantId}" are stored in plain text although the other rows are encrypted: ` +
      'plain text is only accepted when upgrading a database from before encryption at rest, since this row could be a planted ' +
      'key. Restore the row from a backup, or delete it to have new keys made for the tenant (its users then sign in again).',
  );
}

/** Decrypts a sealed row with whichever of `keys` sealed it. */
export function openStoredSecret(keys: KeyEncryptionKey | readonly KeyEncryptionKey[], row: SecretRow): unknown[] {
  const candidates = Array.isArray(keys) ? keys : [keys as KeyEncryptionKey];
  if (!isSealed(row.value)) throw new ServerSecretsError('malformed', `The stored ${LABELS[row.kind]} of tenant "${row.tenantId}" are not encrypted.`);
  const sealed = row.value;
  const key = candidates.find((candidate) => candidate.id === sealed.kek);
  if (!key) {
    throw new ServerSecretsError(
      'wrong-key',
      `The KEY_ENCRYPTION_KEY does not match: the ${LABELS[row.kind]} of tenant "${row.tenantId}" were encrypted with the key-encryption key ` +
        `${sealed.kek}, and this server has ${candidates.map((candidate) => candidate.id).join(', ')}. Start it with the key the ` +
        'secrets were encrypted with (KEY_ENCRYPTION_KEY, or DATA_DIR/key-encryption-key for the embedded database). If ' +
        '`npm run rotate-keys` was interrupted, run it again to finish. No key was regenerated, so nobody was signed out.',
    );
  }
  let plaintext: Buffer;
  try {
    plaintext = unseal(key, sealed, associatedData(row.tenantId, row.kind));
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    throw new ServerSecretsError(
      'undecryptable',
      `The ${LABELS[row.kind]} of tenant "${row.tenantId}" do not decrypt with the KEY_ENCRYPTION_KEY (${key.id}) although it is the key ` +
        'they name: the row was altered, or copied from another tenant or kind. Restore it from a backup.',
    );
  }
  return plainList(row, JSON.parse(plaintext.toString('utf8')));
}

/** The key-encryption key each opened database's secrets are sealed with (set once at start-up). */
const unlockedKeys = new WeakMap<Db, KeyEncryptionKey>();
/** The last value opened per tenant and kind, see openForUse. */
const lastOpened = new WeakMap<Db, Map<string, unknown[]>>();

/**
 * Encrypts the rows of a database from before encryption at rest, checks that every row opens
 * with `key`, and makes `key` the one loadTenantSecrets uses with `db`.
 * All in one transaction: a row that does not open leaves the database as it was.
 * Returns how many plain-text rows were encrypted.
 */
export async function openServerSecrets(db: Db, key: KeyEncryptionKey): Promise<{ encrypted: number }> {
  const encrypted = await db.transaction(async (tx) => {
    // Locked, so replicas starting together encrypt each plain row once (the second sees it sealed).
    const rows = await tx.select().from(serverSecrets).for('update');
    refusePlantedPlainRows(rows);
    let count = 0;
    for (const row of rows) {
      if (isSealed(row.value)) {
        openStoredSecret(key, row);
        continue;
      }
      const value = sealSecret(key, row.tenantId, row.kind, plainSecret(row));
      await tx.update(serverSecrets).set({ value }).where(and(eq(serverSecrets.tenantId, row.tenantId), eq(serverSecrets.kind, row.kind)));
      count++;
    }
    return count;
  });
  unlockedKeys.set(db, key);
  return { encrypted };
}

/** The key-encryption key opened at start-up for `db` (other sealed rows, such as PACS credentials, use it too). */
export function unlockedKeyOf(db: Db): KeyEncryptionKey {
  const key = unlockedKeys.get(db);
  if (!key) throw new Error('The stored secrets are locked: open them with openServerSecrets (or unlockServerSecrets) at start-up.');
  return key;
}

/** The ids of the key-encryption keys the stored secrets (provider keys and PACS credentials) are sealed with. */
export async function keyIdsInUse(db: Db): Promise<Set<string>> {
  const rows = [
    ...(await db.select({ value: serverSecrets.value }).from(serverSecrets)),
    ...(await db.select({ value: pacsConnections.credentials }).from(pacsConnections)),
  ];
  return new Set(rows.flatMap((row) => (isSealed(row.value) ? [row.value.kek] : [])));
}

function openForUse(db: Db, key: KeyEncryptionKey, row: SecretRow): unknown[] {
  const slot = `${row.tenantId}\0${row.kind}`;
  let opened = lastOpened.get(db);
  if (!opened) lastOpened.set(db, (opened = new Map()));
  // Start-up sealed every row, and this server writes only sealed ones.
  if (!isSealed(row.value)) throw plantedRowError(row);
  try {
    const value = openStoredSecret(key, row);
    opened.set(slot, value);
    return value;
  } catch (error) {
    // `npm run rotate-keys` re-encrypted the rows under a new key beside this running server
    // (PostgreSQL): keep the keys already opened until the server restarts with the new key.
    const previous = opened.get(slot);
    if (error instanceof ServerSecretsError && error.reason === 'wrong-key' && previous) return previous;
    throw error;
  }
}

async function readRow(db: Db, tenantId: string, kind: SecretKind): Promise<SecretRow | undefined> {
  const [row] = await db
    .select({ tenantId: serverSecrets.tenantId, kind: serverSecrets.kind, value: serverSecrets.value })
    .from(serverSecrets)
    .where(and(eq(serverSecrets.tenantId, tenantId), eq(serverSecrets.kind, kind)));
  return row;
}

async function readOrCreate(db: Db, key: KeyEncryptionKey, tenantId: string, kind: SecretKind, create: () => Promise<unknown[]>): Promise<unknown[]> {
  let row = await readRow(db, tenantId, kind);
  if (!row) {
    // Concurrent first uses agree: the insert does nothing when the row exists and everyone re-reads it.
    await db
      .insert(serverSecrets)
      .values({ tenantId, kind, value: sealSecret(key, tenantId, kind, await create()) })
      .onConflictDoNothing();
    row = await readRow(db, tenantId, kind);
  }
  return openForUse(db, key, row!);
}

/**
 * The tenant's provider secrets, generated on first use and stored (encrypted) in the database
 * so that a restart or another replica keeps signing with the same keys.
 */
export async function loadTenantSecrets(db: Db, tenantId: string): Promise<TenantSecrets> {
  const key = unlockedKeys.get(db);
  if (!key) throw new Error('The stored secrets are locked: open them with openServerSecrets (or unlockServerSecrets) at start-up.');
  return {
    signingKeys: (await readOrCreate(db, key, tenantId, 'signing-jwks', async () => [await newSigningKey()])) as JWK[],
    cookieKeys: (await readOrCreate(db, key, tenantId, 'cookie-keys', async () => [newCookieKey()])) as string[],
  };
}

/** The public half of a private JWK, for verifying tokens. */
export function publicJwk(key: JWK): JWK {
  const { kty, n, e, crv, x, y, kid, alg, use } = key;
  return Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined));
}

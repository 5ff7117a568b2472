import path from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import { KEY_FILE_NAME, type KeyEncryptionKey, keyFileIsExposed, loadOrCreateKeyFile, readKeyFile } from '../crypto/key-encryption-key.ts';
import type { Db } from './client.ts';
import { ServerSecretsError, keyIdsInUse, openServerSecrets } from './secrets.ts';

export type KeySource =
  | { key: KeyEncryptionKey; source: 'environment' }
  /** `created`: generated now; `exposed`: readable by other users than the owner. */
  | { key: KeyEncryptionKey; source: 'file'; file: string; created: boolean; exposed: boolean };

export type KeyConfig = Pick<Config, 'keyEncryptionKey' | 'databaseUrl' | 'dataDir'>;

export function keyFilePath(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, KEY_FILE_NAME);
}

/**
 * The key-encryption key this server uses: KEY_ENCRYPTION_KEY, or for the embedded database the
 * key file in DATA_DIR, generated on first start. A missing file is only replaced by a new key
 * while no stored secret needs the old one.
 */
export async function resolveKeyEncryptionKey(config: KeyConfig, db: Db): Promise<KeySource> {
  if (config.keyEncryptionKey) return { key: config.keyEncryptionKey, source: 'environment' };
  // loadConfig refuses this too; kept here so no caller can fall through to a generated key with a shared database.
  if (config.databaseUrl) throw new ConfigError('Invalid configuration:\n  KEY_ENCRYPTION_KEY: required with DATABASE_URL');
  const file = keyFilePath(config);
  if (!readKeyFile(file)) {
    const inUse = await keyIdsInUse(db);
    if (inUse.size) {
      throw new ServerSecretsError(
        'wrong-key',
        `The key-encryption key file ${file} is missing, but the database holds signing and cookie keys encrypted with ` +
          `key-encryption key ${[...inUse].join(', ')}. Restore the file from your backup (or set KEY_ENCRYPTION_KEY to that key). ` +
          'No new key was generated: it could not open them, and new signing keys would sign everybody out.',
      );
    }
  }
  const { key, created } = loadOrCreateKeyFile(file);
  return { key, source: 'file', file, created, exposed: keyFileIsExposed(file) };
}

/**
 * Start-up: finds the key-encryption key, encrypts any plain-text secrets left by an older
 * version, and checks that every stored secret opens with the key (else ServerSecretsError,
 * naming the tenant). After this, loadTenantSecrets works with `db`.
 */
export async function unlockServerSecrets(config: KeyConfig, db: Db): Promise<KeySource & { encrypted: number }> {
  const source = await resolveKeyEncryptionKey(config, db);
  const { encrypted } = await openServerSecrets(db, source.key);
  return { ...source, encrypted };
}

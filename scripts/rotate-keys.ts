/**
 * `npm run rotate-keys -- [--kek] [--new-kek KEY] [--signing-keys [--force]]`: rotates the keys
 * that protect sign-ins, without signing anybody out (README, "Keys at rest and their rotation").
 *
 *   --kek            re-encrypt the stored signing and cookie keys under a new key-encryption key:
 *                    NEW_KEY_ENCRYPTION_KEY, or for the embedded database's key file a generated one
 *   --new-kek KEY    the same with the new key given here (it shows in `ps` and shell history;
 *                    prefer NEW_KEY_ENCRYPTION_KEY)
 *   --signing-keys   give every tenant a new signing key and cookie key; the previous ones keep verifying
 *   --force          with --signing-keys: rotate even if that drops a previous key tokens may still need
 *
 * Reads the server's settings (DATA_DIR, DATABASE_URL, KEY_ENCRYPTION_KEY, the TTLs) from the
 * environment. The embedded database must not be in use by a server (its lock is taken).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { KeyEncryptionKey, KeyFileError } from '../src/server/crypto/key-encryption-key.ts';
import { DataDirLockedError } from '../src/server/db/lock.ts';
import { ServerSecretsError } from '../src/server/db/secrets.ts';
import { KeyRotationError, rotateKeys } from '../src/server/db/secrets-rotation.ts';

const USAGE = 'usage: npm run rotate-keys -- [--kek] [--new-kek KEY] [--signing-keys [--force]]';

class UsageError extends Error {}

function newKekFrom(value: string | undefined, name: string): KeyEncryptionKey {
  try {
    return KeyEncryptionKey.parse(value ?? '');
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message} (32 random bytes, e.g. \`openssl rand -base64 32\`)`);
  }
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        kek: { type: 'boolean', default: false },
        'new-kek': { type: 'string' },
        'signing-keys': { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rotateKek = values.kek || values['new-kek'] !== undefined;
  if (!rotateKek && !values['signing-keys']) throw new UsageError(`Say what to rotate: --kek, --new-kek or --signing-keys.\n${USAGE}`);
  const config = loadConfig();
  let newKek: KeyEncryptionKey | 'generate' | undefined;
  if (values['new-kek'] !== undefined) newKek = newKekFrom(values['new-kek'], '--new-kek');
  else if (rotateKek) newKek = process.env.NEW_KEY_ENCRYPTION_KEY ? newKekFrom(process.env.NEW_KEY_ENCRYPTION_KEY, 'NEW_KEY_ENCRYPTION_KEY') : 'generate';
  await rotateKeys({
    config,
    newKek,
    signingKeys: values['signing-keys'],
    force: values.force,
    report: (line) => process.stdout.write(`${line}\n`),
  });
}

main().catch((error: unknown) => {
  const known = [UsageError, ConfigError, DataDirLockedError, KeyFileError, ServerSecretsError, KeyRotationError];
  if (known.some((kind) => error instanceof kind)) process.stderr.write(`${(error as Error).message}\n`);
  else process.stderr.write(`Key rotation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';

/** AES-256: the key-encryption key is 32 random bytes. */
export const KEY_ENCRYPTION_KEY_BYTES = 32;

/** Where the embedded default keeps its generated key, inside DATA_DIR. */
export const KEY_FILE_NAME = 'key-encryption-key';
/** The previous key, kept by `npm run rotate-keys` until the secrets are re-encrypted. */
export const OLD_KEY_FILE_NAME = 'key-encryption-key.old';

/**
 * The key that encrypts the stored signing and cookie keys (envelope encryption). The bytes sit
 * in a private field so that logging or serialising a config that holds one shows only its id.
 */
export class KeyEncryptionKey {
  /** Public fingerprint, stored beside every ciphertext so a wrong key is named as such, not as corruption. */
  readonly id: string;
  readonly #bytes: Buffer;

  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
    // Domain-separated so the id is not a plain hash someone could reuse elsewhere.
    this.id = createHash('sha256').update('ivus-review key-encryption-key id\0').update(bytes).digest().subarray(0, 8).toString('hex');
  }

  static generate(): KeyEncryptionKey {
    return new KeyEncryptionKey(randomBytes(KEY_ENCRYPTION_KEY_BYTES));
  }

  /** Parses 32 bytes written in base64 or base64url (padding optional); the message never repeats the input. */
  static parse(text: string): KeyEncryptionKey {
    const trimmed = text.trim();
    // Buffer.from skips characters outside the alphabet, so check the alphabet first.
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new Error('must be base64 or base64url');
    const bytes = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
    if (bytes.length !== KEY_ENCRYPTION_KEY_BYTES) throw new Error(`must be ${KEY_ENCRYPTION_KEY_BYTES} bytes (it is ${bytes.length})`);
    return new KeyEncryptionKey(bytes);
  }

  /** The raw key, for the cipher only. */
  bytes(): Buffer {
    return this.#bytes;
  }

  /** The key in base64url, for its file. */
  encode(): string {
    return this.#bytes.toString('base64url');
  }

  toJSON(): string {
    return `[key-encryption-key ${this.id}]`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

export class KeyFileError extends Error {}

/** The key in a file, or null when there is no such file. */
export function readKeyFile(file: string): KeyEncryptionKey | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return KeyEncryptionKey.parse(text);
  } catch (error) {
    throw new KeyFileError(`The key-encryption key file ${file} is damaged: it ${(error as Error).message}.`);
  }
}

/** True when users other than the owner may read the file (it should be 0600). */
export function keyFileIsExposed(file: string): boolean {
  return (fs.statSync(file).mode & 0o077) !== 0;
}

/** Writes the key to a new private file and flushes it, so that a crash never leaves half a key behind a name. */
function writeTemporary(file: string, key: KeyEncryptionKey): string {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${key.encode()}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return temporary;
}

function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates the file with the key unless it exists, atomically: the key is written to a temporary
 * file and hard-linked to its name, which fails if another process got there first.
 * Returns false when the file already existed (and was left alone).
 */
export function createKeyFile(file: string, key: KeyEncryptionKey): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = writeTemporary(file, key);
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  syncDirectory(path.dirname(file));
  return true;
}

/** Replaces (or creates) the file with the key atomically: readers see the old key or the new one, never a mix. */
export function replaceKeyFile(file: string, key: KeyEncryptionKey): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = writeTemporary(file, key);
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(file));
}

export function removeKeyFile(file: string): void {
  fs.rmSync(file, { force: true });
  syncDirectory(path.dirname(file));
}

/** The key in `file`, generated into it when missing. `created` says which happened. */
export function loadOrCreateKeyFile(file: string): { key: KeyEncryptionKey; created: boolean } {
  const existing = readKeyFile(file);
  if (existing) return { key: existing, created: false };
  const generated = KeyEncryptionKey.generate();
  if (createKeyFile(file, generated)) return { key: generated, created: true };
  // Another process created it between our read and our link: use theirs.
  const winner = readKeyFile(file);
  if (!winner) throw new KeyFileError(`The key-encryption key file ${file} vanished while it was being created.`);
  return { key: winner, created: false };
}

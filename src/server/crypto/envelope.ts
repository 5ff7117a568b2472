import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyEncryptionKey } from './key-encryption-key.ts';

/** Version of the sealed format below; bump it (and keep reading the old one) if the format ever changes. */
export const SEALED_FORMAT_VERSION = 1;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A secret encrypted with AES-256-GCM under a key-encryption key, as stored (JSON):
 * `v` format version, `alg` the cipher, `kek` the id of the key-encryption key,
 * `iv` the random 96-bit nonce, `tag` the 128-bit authentication tag, `ct` the ciphertext
 * (binary fields in base64url). The associated data is not stored: the reader supplies it.
 */
export type SealedSecret = { v: 1; alg: 'A256GCM'; kek: string; iv: string; tag: string; ct: string };

export function isSealed(value: unknown): value is SealedSecret {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.v === SEALED_FORMAT_VERSION && v.alg === 'A256GCM' && ['kek', 'iv', 'tag', 'ct'].every((field) => typeof v[field] === 'string');
}

/** Thrown when a sealed secret does not authenticate: wrong key, altered bytes or other associated data. */
export class UnsealError extends Error {}

/** Encrypts `plaintext`, binding it to `associatedData` (which must be given again to decrypt). */
export function seal(key: KeyEncryptionKey, plaintext: Buffer, associatedData: Buffer): SealedSecret {
  // A fresh random nonce per encryption; a key seals a handful of rows, far from GCM's 2^32 random-nonce limit.
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes(), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    v: SEALED_FORMAT_VERSION,
    alg: 'A256GCM',
    kek: key.id,
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ct: ct.toString('base64url'),
  };
}

/** Decrypts and authenticates; throws UnsealError unless key, bytes and associated data all match. */
export function unseal(key: KeyEncryptionKey, sealed: SealedSecret, associatedData: Buffer): Buffer {
  const iv = Buffer.from(sealed.iv, 'base64url');
  const tag = Buffer.from(sealed.tag, 'base64url');
  // Node would accept a truncated tag; insist on the full 128 bits.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new UnsealError('malformed nonce or tag');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes(), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]);
  } catch {
    throw new UnsealError('authentication failed');
  }
}

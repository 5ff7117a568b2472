import { createHmac } from 'node:crypto';
import type { SignedUrl } from './blob-store.ts';
import { assertSafeKey } from './blob-store.ts';
import { MAX_SIGNED_URL_SECONDS, objectPath } from './signed-url.ts';

/** The least secret a CDN key may hold: HMAC-SHA256's own block of strength. */
export const MIN_CDN_KEY_BYTES = 32;

/** What the CDN (deploy/cdn/verify.js) recomputes: the expiry and the exact path, one line each. */
export function cdnSignature(key: string, expires: number, path: string): string {
  return createHmac('sha256', key).update(`${expires}\n${path}`).digest('base64url');
}

/**
 * A URL of the frames CDN for the stored object `key` (FRAME_CDN_URL): the CDN's base, the object's
 * path, then `?e=<unix expiry>&s=<base64url HMAC-SHA256(secret, expiry + "\n" + path)>`. The path
 * names tenant, record, imaging version, series and chunk, so the signature is good for that one
 * chunk until `e` and nothing else; the CDN checks it before its cache or the store is asked.
 */
export function signCdnUrl(baseUrl: string, secret: string, key: string, seconds: number, now = Date.now()): SignedUrl {
  assertSafeKey(key);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SIGNED_URL_SECONDS) throw new Error(`a signed URL lives 1 s to 7 days, not ${seconds} s`);
  const base = new URL(baseUrl);
  const path = `${base.pathname.replace(/\/+$/, '')}/${objectPath(key)}`;
  const expires = Math.floor(now / 1000) + seconds;
  return { url: `${base.origin}${path}?e=${expires}&s=${cdnSignature(secret, expires, path)}`, expiresAt: new Date(expires * 1000) };
}

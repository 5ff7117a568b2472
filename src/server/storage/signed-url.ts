import type { AwsClient } from 'aws4fetch';
import type { SignedUrl } from './blob-store.ts';

/** How long a signed frame URL works by default: the page fetches it at once; minutes cover a slow link and clock skew. */
export const DEFAULT_SIGNED_URL_SECONDS = 300;

/** S3 refuses a presigned URL that lives longer than a week. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 3600;

/**
 * The path of `key` in a path-style bucket URL: each segment percent-encoded as UTF-8 (any Unicode
 * key works), the slashes kept. NUL and unpaired surrogates have no place in an S3 key: refused.
 */
export function objectPath(key: string): string {
  if (key === '' || key.includes('\0')) throw new Error('an object key must be non-empty and without NUL');
  if (!key.isWellFormed()) throw new Error('an object key must be valid Unicode (no unpaired surrogate)');
  return key.split('/').map(encodeURIComponent).join('/');
}

/**
 * A GET URL for `key` under `bucketUrl` (`{endpoint}/{bucket}`) signed with AWS Signature V4 in
 * its query string (X-Amz-Algorithm...X-Amz-Signature), valid for `seconds` from `now`. Only the
 * host is signed: the browser may send what headers it likes, and the URL works for whoever holds
 * it until it expires, which is why it is short-lived and handed out only after the app's checks.
 */
export async function presignGet(client: AwsClient, bucketUrl: string, key: string, seconds: number, now = new Date()): Promise<SignedUrl> {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SIGNED_URL_SECONDS) throw new Error(`a signed URL lives 1 s to 7 days, not ${seconds} s`);
  const url = new URL(`${bucketUrl}/${objectPath(key)}`);
  url.searchParams.set('X-Amz-Expires', String(seconds));
  // Whole seconds: X-Amz-Date has no fraction, and the expiry is counted from it.
  const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const datetime = signedAt.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const signed = await client.sign(url.toString(), { method: 'GET', aws: { signQuery: true, datetime } });
  return { url: signed.url, expiresAt: new Date(signedAt.getTime() + seconds * 1000) };
}

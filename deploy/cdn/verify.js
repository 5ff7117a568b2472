// The frames CDN's check (njs, loaded by nginx.conf.template): a URL the app signed with FRAME_CDN_KEY
// (src/server/storage/cdn-url.ts) is `<path>?e=<unix expiry>&s=<base64url HMAC-SHA256(key, e + "\n" + path)>`.
// Answers "1" for a URL that is intact and not expired, "0" for anything else; nginx then answers 403
// before its cache or the store is asked.
import crypto from 'crypto';

// The app never signs for longer (S3_SIGNED_URL_SECONDS' bound): a later expiry was not ours.
const MAX_LIFETIME_SECONDS = 7 * 24 * 3600;
const MIN_KEY_BYTES = 32;

function check(r) {
  const key = process.env.FRAME_CDN_KEY;
  // Misconfigured: refuse everything rather than check against a weak or empty key.
  if (!key || key.length < MIN_KEY_BYTES) return '0';
  // The signed path is the raw one, and it must be the normalised one nginx caches under ($uri):
  // no %-escape, dot segment or double slash may make a signed URL name another object.
  const raw = r.variables.request_uri.split('?')[0];
  if (raw !== r.uri) return '0';
  const args = r.args;
  const names = Object.keys(args);
  if (names.length !== 2 || typeof args.e !== 'string' || typeof args.s !== 'string') return '0';
  if (!/^[0-9]{1,12}$/.test(args.e) || !/^[A-Za-z0-9_-]{43}$/.test(args.s)) return '0';
  const expires = Number(args.e);
  const now = Math.floor(Date.now() / 1000);
  if (expires < now || expires > now + MAX_LIFETIME_SECONDS) return '0';
  const expected = crypto.createHmac('sha256', key).update(args.e + '\n' + raw).digest('base64url');
  return sameText(expected, args.s) ? '1' : '0';
}

/** Constant time in the contents: every character compared, whatever the first difference. */
function sameText(a, b) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export default { check };

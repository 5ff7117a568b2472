/** Where a user lands after signing in when nothing else was asked for. */
export const DEFAULT_LANDING_PATH = '/patients';

const NOT_RETURNABLE = new Set(['/', '/login', '/logout', '/callback', '/silent-renew']);

/**
 * A plain path: one slash, then only the characters a URL path, query and fragment may hold
 * unescaped (RFC 3986). No whitespace or control character (a browser drops a tab or a newline,
 * so `/\t/x` becomes `//x`, another host), no backslash (read as a slash), nothing non-ASCII.
 */
const PLAIN_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#]*$/;
const ORIGIN_CHECK_BASE = 'https://app.invalid';

function decodedOrNull(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * A path inside this app to come back to after sign-in, or null (the caller then lands on
 * DEFAULT_LANDING_PATH). Only a plain same-origin path is kept: anything that could leave the origin
 * ('//evil.example', 'https://...', '/\tevil', '/\\evil', or those percent-encoded, '/%2F%2Fevil') or
 * loop back into the sign-in routes is refused.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || !PLAIN_PATH.test(value)) return null;
  // Encoded forms: once decoded (as a router or a later redirect might), still a plain path.
  const decoded = decodedOrNull(value);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (decoded === null || decoded.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(decoded)) return null;
  // Belt and braces: resolved the way the browser will, it stays on this origin and reads back unchanged.
  const resolved = new URL(value, ORIGIN_CHECK_BASE);
  if (resolved.origin !== ORIGIN_CHECK_BASE || `${resolved.pathname}${resolved.search}${resolved.hash}` !== value) return null;
  const pathname = value.split(/[?#]/)[0] ?? '';
  return NOT_RETURNABLE.has(pathname) ? null : value;
}

/** The return path carried in the sign-in request's state. */
export function returnToFromSigninState(state: unknown): string | null {
  if (state === null || typeof state !== 'object' || !('returnTo' in state)) return null;
  return safeReturnTo(state.returnTo);
}

/** Where a user lands after signing in when nothing else was asked for. */
export const DEFAULT_LANDING_PATH = '/patients';

const NOT_RETURNABLE = new Set(['/', '/login', '/logout', '/callback', '/silent-renew']);

/**
 * A path inside this app to come back to after sign-in, or null. Anything that could leave the
 * origin ('//evil.example', 'https://...') or loop back into the sign-in routes is refused.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const pathname = value.split(/[?#]/)[0] ?? '';
  return NOT_RETURNABLE.has(pathname) ? null : value;
}

/** The return path carried in the sign-in request's state. */
export function returnToFromSigninState(state: unknown): string | null {
  if (state === null || typeof state !== 'object' || !('returnTo' in state)) return null;
  return safeReturnTo(state.returnTo);
}

import { ADMIN_GROUP, DEFAULT_TOKEN_TYPE } from '../../domain/constants.ts';

/** What the app needs of an oidc-client-ts `User`; kept structural so the statechart can be tested without one. */
export interface SessionUser {
  profile: { [claim: string]: unknown };
  access_token: string;
  id_token?: string;
  token_type?: string;
  /** Data round-tripped through the sign-in request (the path to return to). */
  state?: unknown;
}

/** The signed-in user as the screens see it. */
export interface AuthUser {
  email: string;
  name: string;
  idToken: string;
  tokenType: string;
  groups: string[];
  isAdmin: boolean;
}

/** Spec section 5: signed in only with an email in the profile, an access token and an id token. */
export function isCompleteUser(user: SessionUser | null | undefined): user is SessionUser & { id_token: string } {
  if (!user) return false;
  const email = user.profile.email;
  return typeof email === 'string' && email !== '' && Boolean(user.access_token) && Boolean(user.id_token);
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The claims of a JWT, read without verifying it (the server verifies); null when it cannot be decoded. */
export function decodeJwtClaims(token: string | null | undefined): Record<string, unknown> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? Object.fromEntries(Object.entries(claims)) : null;
  } catch {
    return null;
  }
}

function claimAsList(claim: unknown): string[] {
  if (typeof claim === 'string') return claim === '' ? [] : [claim];
  if (Array.isArray(claim)) return claim.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Group membership from the id token's `groups` (or Cognito's `cognito:groups`) claim; none when the token cannot be decoded. */
export function groupsFromIdToken(idToken: string | null | undefined): string[] {
  const claims = decodeJwtClaims(idToken);
  if (!claims) return [];
  return [...new Set([...claimAsList(claims.groups), ...claimAsList(claims['cognito:groups'])])];
}

export function isAdminToken(idToken: string | null | undefined): boolean {
  return groupsFromIdToken(idToken).includes(ADMIN_GROUP);
}

export function toAuthUser(user: SessionUser & { id_token: string }): AuthUser {
  const groups = groupsFromIdToken(user.id_token);
  const email = String(user.profile.email);
  const name = typeof user.profile.name === 'string' && user.profile.name !== '' ? user.profile.name : email;
  return {
    email,
    name,
    idToken: user.id_token,
    tokenType: user.token_type || DEFAULT_TOKEN_TYPE,
    groups,
    isAdmin: groups.includes(ADMIN_GROUP),
  };
}

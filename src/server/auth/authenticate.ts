import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify } from 'jose';
import { ADMIN_GROUP } from '../../domain/constants.ts';
import type { AccountChecks } from './account-check.ts';
import { requestTenantId } from './request-tenant.ts';
import type { TenantAuth, TenantDirectory } from './tenant-directory.ts';

/** Who is calling, established from a verified ID token. */
export type Principal = {
  tenantId: string;
  userId: string;
  email: string;
  name: string;
  groups: string[];
  isAdmin: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    tenant?: TenantAuth;
  }
}

export class AuthError extends Error {
  readonly statusCode = 401;
}

export function groupsFromClaims(claims: Record<string, unknown>): string[] {
  const raw = claims.groups ?? claims['cognito:groups'];
  return Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * Verifies `Authorization: <type> <id token>` against the tenant of the request's host:
 * signature, issuer, audience and expiry. Each tenant has its own issuer and keys, so a
 * token of one tenant never verifies on another's host. For the embedded provider also the
 * account and the sign-in behind the token (auth/account-check.ts).
 */
export async function verifyRequestToken(accounts: AccountChecks, tenant: TenantAuth, header: string | undefined): Promise<Principal> {
  if (!header) throw new AuthError('Sign-in required: the request carries no Authorization header.');
  const match = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (!match || match[1]!.toLowerCase() !== 'bearer') {
    throw new AuthError('The Authorization header must be "Bearer <id token>".');
  }
  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(match[2]!, tenant.verificationKeys, {
      issuer: tenant.issuer,
      audience: tenant.clientId,
      algorithms: ['RS256', 'PS256', 'ES256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    claims = verified.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new AuthError('The sign-in has expired. Please sign in again.');
    throw new AuthError('The sign-in token is not valid for this organisation.');
  }
  const userId = String(claims.sub);
  let email = typeof claims.email === 'string' ? claims.email : '';
  let name = typeof claims.name === 'string' ? claims.name : email;
  let groups = groupsFromClaims(claims);
  if (tenant.embedded) {
    // The account and the sign-in, not only the signature: a token whose session was signed out, or
    // that predates a password change, a disable or a rights change, stops working at once.
    const sid = claims.sid;
    const version = claims.cv;
    if (typeof sid !== 'string' || typeof version !== 'number') throw new AuthError('The sign-in token is not valid for this organisation.');
    const { user, sessionLive } = await accounts.check(tenant.tenantId, userId, sid);
    if (!user || user.disabled) throw new AuthError('This account is no longer active.');
    if (user.credentialVersion !== version) throw new AuthError('The account was changed since this sign-in. Please sign in again.');
    if (!sessionLive) throw new AuthError('This sign-in has ended. Please sign in again.');
    ({ email, name, groups } = user);
  }
  return { tenantId: tenant.tenantId, userId, email, name, groups, isAdmin: groups.includes(ADMIN_GROUP) };
}

/**
 * onRequest hook of every `/api/{tenant}/...` route (before any body is read): the path's tenant must be the host's
 * tenant, and the token must verify for it.
 */
export function authenticate(accounts: AccountChecks, tenants: TenantDirectory) {
  return async (request: FastifyRequest<{ Params: { tenant?: string } }>, reply: FastifyReply) => {
    const hostTenant = requestTenantId(request);
    const pathTenant = request.params.tenant;
    const tenant = hostTenant ? await tenants.get(hostTenant) : null;
    if (!tenant || pathTenant !== hostTenant) {
      return reply.code(404).send({ error: 'unknown_tenant', message: `No organisation "${pathTenant}" at this address.` });
    }
    try {
      request.principal = await verifyRequestToken(accounts, tenant, request.headers.authorization);
      request.tenant = tenant;
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send({ error: 'unauthorized', message: error.message });
    }
  };
}

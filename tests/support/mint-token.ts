import { randomBytes } from 'node:crypto';
import { SignJWT, importJWK, type JWK } from 'jose';
import type { Db } from '../../src/server/db/client.ts';
import { oidcPayloads } from '../../src/server/db/schema.ts';
import { loadTenantSecrets } from '../../src/server/db/secrets.ts';
import { findUserById } from '../../src/server/db/tenants.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';

/**
 * A sign-in session of the embedded provider for `accountId`, as its adapter stores one, and the
 * session id (`sid`) its ID tokens carry. The API accepts a token only while its session exists.
 */
export async function createProviderSession(db: Db, tenantId: string, accountId: string): Promise<string> {
  const sid = randomBytes(12).toString('base64url');
  const id = randomBytes(16).toString('base64url');
  const payload = {
    kind: 'Session',
    jti: id,
    uid: randomBytes(12).toString('base64url'),
    accountId,
    loginTs: Math.floor(Date.now() / 1000),
    authorizations: { [embeddedClientId(tenantId)]: { sid } },
  };
  await db.insert(oidcPayloads).values({
    tenantId,
    model: 'Session',
    id,
    payload,
    uid: payload.uid,
    sessionIds: [sid],
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return sid;
}

/**
 * Signs an ID token with a tenant's own provider key, as its provider would (tests and benchmarks only):
 * with a live provider session (`sid`) and the account's current credential version (`cv`) unless the
 * claims name their own.
 */
export async function mintIdToken(
  db: Db,
  tenantId: string,
  origin: string,
  options: { sub: string; expiresIn?: string | number; key?: JWK; issuer?: string; audience?: string; claims?: Record<string, unknown> },
): Promise<string> {
  const key = options.key ?? (await loadTenantSecrets(db, tenantId)).signingKeys[0]!;
  const user = await findUserById(db, tenantId, options.sub);
  const sid = options.claims && 'sid' in options.claims ? undefined : await createProviderSession(db, tenantId, options.sub);
  return new SignJWT({ email: 'someone@example.test', sid, cv: user?.credentialVersion ?? 0, ...options.claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid! })
    .setSubject(options.sub)
    .setIssuer(options.issuer ?? `${origin}/idp`)
    .setAudience(options.audience ?? embeddedClientId(tenantId))
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(await importJWK(key, 'RS256'));
}

import { SignJWT, importJWK, type JWK } from 'jose';
import type { Db } from '../../src/server/db/client.ts';
import { loadTenantSecrets } from '../../src/server/db/secrets.ts';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';

/** Signs an ID token with a tenant's own provider key, as its provider would (tests and benchmarks only). */
export async function mintIdToken(
  db: Db,
  tenantId: string,
  origin: string,
  options: { sub: string; expiresIn?: string | number; key?: JWK; issuer?: string; audience?: string; claims?: Record<string, unknown> },
): Promise<string> {
  const key = options.key ?? (await loadTenantSecrets(db, tenantId)).signingKeys[0]!;
  return new SignJWT({ email: 'someone@example.test', ...options.claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid! })
    .setSubject(options.sub)
    .setIssuer(options.issuer ?? `${origin}/idp`)
    .setAudience(options.audience ?? embeddedClientId(tenantId))
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(await importJWK(key, 'RS256'));
}

import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from './client.ts';
import { serverSecrets } from './schema.ts';

export type TenantSecrets = {
  /** Private signing keys of the tenant's embedded provider (RS256). */
  signingKeys: JWK[];
  cookieKeys: string[];
};

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(12).toString('base64url') };
}

/**
 * The tenant's provider secrets, generated on first use and stored in the database so that
 * a restart or another replica keeps signing with the same keys. Concurrent first uses agree
 * because the insert does nothing when the row already exists and everyone re-reads it.
 */
export async function loadTenantSecrets(db: Db, tenantId: string): Promise<TenantSecrets> {
  const read = async (kind: 'signing-jwks' | 'cookie-keys') => {
    const [row] = await db
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(and(eq(serverSecrets.tenantId, tenantId), eq(serverSecrets.kind, kind)));
    return row?.value;
  };
  if ((await read('signing-jwks')) === undefined) {
    await db
      .insert(serverSecrets)
      .values({ tenantId, kind: 'signing-jwks', value: [await newSigningKey()] })
      .onConflictDoNothing();
  }
  if ((await read('cookie-keys')) === undefined) {
    await db
      .insert(serverSecrets)
      .values({ tenantId, kind: 'cookie-keys', value: [randomBytes(32).toString('base64url')] })
      .onConflictDoNothing();
  }
  return {
    signingKeys: (await read('signing-jwks')) as JWK[],
    cookieKeys: (await read('cookie-keys')) as string[],
  };
}

/** The public half of a private JWK, for verifying tokens. */
export function publicJwk(key: JWK): JWK {
  const { kty, n, e, crv, x, y, kid, alg, use } = key;
  return Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined));
}

import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { SIGN_IN_RESPONSE_TYPE, SIGN_IN_SCOPES } from '../../domain/constants.ts';
import type { AuthInfo } from '../../domain/auth-info.ts';
import type { Config } from '../config.ts';
import { tenantOrigin } from '../config.ts';
import type { Db } from '../db/client.ts';
import { loadTenantSecrets, publicJwk } from '../db/secrets.ts';
import { findTenant } from '../db/tenants.ts';

/** Everything the server knows about a tenant's sign-in, resolved from its row. */
export type TenantAuth = {
  tenantId: string;
  name: string;
  origin: string;
  issuer: string;
  clientId: string;
  /** True when the tenant signs in with the embedded provider (accounts in our users table). */
  embedded: boolean;
  cognitoDomain: string | null;
  startCheckSession: boolean;
  verificationKeys: JWTVerifyGetKey;
};

const CACHE_TTL_MS = 30_000;

export function embeddedClientId(tenantId: string): string {
  return `ivus-review-${tenantId}`;
}

/**
 * Resolves tenants to their sign-in settings. Results are cached briefly; the cache is only
 * a copy of database rows, so every replica answers alike.
 */
export class TenantDirectory {
  private readonly cache = new Map<string, { value: TenantAuth | null; at: number }>();
  private readonly db: Db;
  private readonly config: Config;

  constructor(db: Db, config: Config) {
    this.db = db;
    this.config = config;
  }

  async get(tenantId: string): Promise<TenantAuth | null> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.value;
    const value = await this.resolve(tenantId);
    this.cache.set(tenantId, { value, at: Date.now() });
    return value;
  }

  private async resolve(tenantId: string): Promise<TenantAuth | null> {
    const row = await findTenant(this.db, tenantId);
    if (!row) return null;
    const origin = tenantOrigin(this.config, tenantId);
    const base = {
      tenantId,
      name: row.name,
      origin,
      cognitoDomain: row.cognitoDomain,
      startCheckSession: row.startCheckSession,
    };
    if (row.idpIssuer && row.idpClientId) {
      const issuer = row.idpIssuer.replace(/\/+$/, '');
      return {
        ...base,
        issuer,
        clientId: row.idpClientId,
        embedded: false,
        verificationKeys: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)),
      };
    }
    const secrets = await loadTenantSecrets(this.db, tenantId);
    return {
      ...base,
      issuer: `${origin}/idp`,
      clientId: embeddedClientId(tenantId),
      embedded: true,
      verificationKeys: createLocalJWKSet({ keys: secrets.signingKeys.map(publicJwk) }),
    };
  }
}

/** The browser's OIDC client settings for a tenant (spec section 7). */
export function authInfoFor(tenant: TenantAuth): AuthInfo {
  return {
    clientId: tenant.clientId,
    issuer: tenant.issuer,
    redirectUri: `${tenant.origin}/callback`,
    signoutUri: `${tenant.origin}/`,
    responseType: SIGN_IN_RESPONSE_TYPE,
    scope: SIGN_IN_SCOPES,
    silentRefreshRedirectUri: `${tenant.origin}/silent-renew`,
    start_checksession: tenant.startCheckSession,
    cognitoDomain: tenant.cognitoDomain,
  };
}

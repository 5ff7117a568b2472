/**
 * The device cookie (issue 24): a browser that signed in to an account successfully gets a signed,
 * httpOnly cookie naming that account and a random device id. Its later sign-ins to the same account
 * are throttled by their own counter only (idp/sign-in-throttle.ts), so guesses from elsewhere cannot
 * lock the owner out of their own browser. It proves nothing about the password: a correct password
 * is still needed, and the per-device lock still applies to guesses made from the browser itself.
 *
 * Signed (HS256, jose) with a key derived from the tenant's provider cookie keys, which every replica
 * shares: any replica verifies it, another tenant's key does not, and rotating the cookie keys ends them.
 */
import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { TenantAuth } from '../auth/tenant-directory.ts';
import type { Db } from '../db/client.ts';
import { loadTenantSecrets } from '../db/secrets.ts';
import { IDP_MOUNT_PATH } from './provider.ts';

const AUDIENCE = 'ivus-device-cookie';
const DEVICE_COOKIE_DAYS = 90;
/** Only the sign-in form's requests carry it. */
const COOKIE_PATH = `${IDP_MOUNT_PATH}/interaction/`;

/** One cookie per account, so the accounts signed in from a shared workstation each keep theirs. */
export function deviceCookieName(userId: string): string {
  return `ivus_device_${createHash('sha256').update(userId).digest('hex').slice(0, 16)}`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export class DeviceCookies {
  private readonly keys = new Map<string, Promise<Uint8Array[]>>();
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** Newest first: signs with the first, verifies with any (the provider's own cookie keys rotate the same way). */
  private signingKeys(tenantId: string): Promise<Uint8Array[]> {
    let keys = this.keys.get(tenantId);
    if (!keys) {
      keys = loadTenantSecrets(this.db, tenantId).then((secrets) =>
        secrets.cookieKeys.map((key) => new Uint8Array(hkdfSync('sha256', key, tenantId, 'ivus device cookie', 32))),
      );
      keys.catch(() => this.keys.delete(tenantId));
      this.keys.set(tenantId, keys);
    }
    return keys;
  }

  /** The device id of the request's cookie for this account, when it is genuine and unexpired. */
  async deviceIdOf(request: FastifyRequest, tenant: TenantAuth, userId: string): Promise<string | undefined> {
    const token = cookieValue(request.headers.cookie, deviceCookieName(userId));
    if (!token) return undefined;
    for (const key of await this.signingKeys(tenant.tenantId)) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: tenant.issuer, audience: AUDIENCE, subject: userId, algorithms: ['HS256'] });
        return typeof payload.jti === 'string' ? payload.jti : undefined;
      } catch {
        // Not this key (or not genuine): try the next.
      }
    }
    return undefined;
  }

  /** The Set-Cookie header value after a successful sign-in: the same device id when it had one, renewed. */
  async issue(tenant: TenantAuth, userId: string, deviceId?: string): Promise<string> {
    const [key] = await this.signingKeys(tenant.tenantId);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(tenant.issuer)
      .setAudience(AUDIENCE)
      .setSubject(userId)
      .setJti(deviceId ?? randomBytes(16).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${DEVICE_COOKIE_DAYS}d`)
      .sign(key!);
    const secure = tenant.origin.startsWith('https:') ? '; Secure' : '';
    return `${deviceCookieName(userId)}=${token}; Path=${COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_DAYS * 86_400}; HttpOnly; SameSite=Strict${secure}`;
  }
}

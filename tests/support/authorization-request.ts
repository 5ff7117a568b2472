import { createHash, randomBytes } from 'node:crypto';
import { embeddedClientId } from '../../src/server/auth/tenant-directory.ts';

/**
 * The first request of the browser's sign-in at a tenant's embedded provider, as oidc-client-ts makes
 * it: the authorization-code flow with PKCE (S256). `url` is the path to start from; `verifier` goes
 * with the code exchange.
 */
export function authorizationRequest(origin: string, tenantId: string): { url: string; verifier: string; redirectUri: string } {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${origin}/callback`;
  const params = new URLSearchParams({
    client_id: embeddedClientId(tenantId),
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'email openid phone profile',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { url: `/idp/auth?${params}`, verifier, redirectUri };
}

import { z } from 'zod';

/**
 * What `GET /api/auth-info?tenantId={tenant}` answers: everything the browser needs
 * to build its OpenID Connect client for the tenant (spec section 7).
 */
export const AuthInfoSchema = z.object({
  clientId: z.string().min(1),
  issuer: z.url(),
  redirectUri: z.url(),
  signoutUri: z.url(),
  responseType: z.string().min(1),
  scope: z.string().min(1),
  silentRefreshRedirectUri: z.url(),
  start_checksession: z.boolean(),
  /** Set when the tenant signs in through Cognito's hosted UI; null for standard OIDC. */
  cognitoDomain: z.string().nullable(),
});
export type AuthInfo = z.infer<typeof AuthInfoSchema>;

export const AuthInfoQuerySchema = z.object({
  tenantId: z.string().regex(/^[a-z0-9-]{1,63}$/, 'tenantId must be a tenant name such as "demo"'),
});

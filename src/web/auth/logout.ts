import type { AuthInfo } from '../../domain/auth-info.ts';

/** Cognito's hosted UI has no standard end-session endpoint; it signs out at `/logout` with `logout_uri`. */
export function cognitoLogoutUrl(info: Pick<AuthInfo, 'cognitoDomain' | 'clientId' | 'signoutUri'>): string | null {
  if (!info.cognitoDomain) return null;
  const domain = info.cognitoDomain.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const query = new URLSearchParams({ client_id: info.clientId, logout_uri: info.signoutUri });
  return `https://${domain}/logout?${query.toString()}`;
}

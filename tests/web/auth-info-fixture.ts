import type { AuthInfo } from '../../src/domain/auth-info.ts';

/** The demo tenant's sign-in settings, as GET /api/auth-info answers them. */
export const DEMO_AUTH_INFO: AuthInfo = {
  clientId: 'ivus-demo',
  issuer: 'http://demo.localhost:8080/idp',
  redirectUri: 'http://demo.localhost:8080/callback',
  signoutUri: 'http://demo.localhost:8080/',
  responseType: 'code',
  scope: 'email openid phone profile',
  silentRefreshRedirectUri: 'http://demo.localhost:8080/silent-renew',
  start_checksession: false,
  cognitoDomain: null,
};

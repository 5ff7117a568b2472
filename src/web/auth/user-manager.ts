import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import type { AuthInfo } from '../../domain/auth-info.ts';
import {
  SESSION_CHECK_INTERVAL_S,
  SILENT_REQUEST_TIMEOUT_S,
  STALE_AUTH_STATE_AGE_S,
  TOKEN_EXPIRING_NOTICE_S,
} from '../../domain/constants.ts';

/**
 * oidc-client-ts settings for the tenant. The user lives in session storage (gone with the tab),
 * the sign-in state in local storage (spec section 9). oidc-client-ts's own expiry timer already
 * fires no sooner than 1 s and polls at least every 5 s, and retries a timed-out renewal after 5 s.
 */
export function userManagerSettings(info: AuthInfo): UserManagerSettings {
  return {
    authority: info.issuer,
    client_id: info.clientId,
    redirect_uri: info.redirectUri,
    post_logout_redirect_uri: info.signoutUri,
    silent_redirect_uri: info.silentRefreshRedirectUri,
    response_type: info.responseType,
    scope: info.scope,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
    accessTokenExpiringNotificationTimeInSeconds: TOKEN_EXPIRING_NOTICE_S,
    silentRequestTimeoutInSeconds: SILENT_REQUEST_TIMEOUT_S,
    staleStateAgeInSeconds: STALE_AUTH_STATE_AGE_S,
    checkSessionIntervalInSeconds: SESSION_CHECK_INTERVAL_S,
    monitorSession: info.start_checksession,
    automaticSilentRenew: true,
  };
}

export function createUserManager(info: AuthInfo): UserManager {
  return new UserManager(userManagerSettings(info));
}

/** For the hidden silent-renew frame: it only hands the answer to its parent, so it watches nothing itself. */
export function createSilentRenewUserManager(info: AuthInfo): UserManager {
  return new UserManager({ ...userManagerSettings(info), automaticSilentRenew: false, monitorSession: false });
}

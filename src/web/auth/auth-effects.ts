import { fromCallback, fromPromise } from 'xstate';
import type { User, UserManager } from 'oidc-client-ts';
import type { AuthInfo } from '../../domain/auth-info.ts';
import { authMachine, type AuthEvent } from './auth.machine.ts';
import { cognitoLogoutUrl } from './logout.ts';
import type { SessionUser } from './session-user.ts';

export interface AuthEffectDeps {
  /** Puts /logout in the address bar (the router then signs out). */
  goToLogout: () => void;
  /** Forgets everything the app keeps about the session (contexts, downloaded frames); awaited before leaving. */
  resetStores: () => void | Promise<void>;
  /** Leaves the app for an external address. */
  leave: (url: string) => void;
}

/** The stored user; an expired one is renewed first (refresh token), and dropped if that fails. */
async function restoreUser(userManager: UserManager): Promise<User | null> {
  const user = await userManager.getUser();
  if (!user || !user.expired) return user;
  try {
    return await userManager.signinSilent();
  } catch (error) {
    console.warn('The stored session has expired and could not be renewed', error);
    await userManager.removeUser();
    return null;
  }
}

/** Spec section 2, /logout: remove the user, clear stale state, reset the stores, then the provider's logout. */
async function signOut(userManager: UserManager, info: AuthInfo, deps: AuthEffectDeps): Promise<void> {
  const user = await userManager.getUser().catch(() => null);
  if (user) {
    // The provider forgets the refresh token now instead of when it expires.
    await userManager.revokeTokens().catch((error: unknown) => console.warn('Token revocation failed', error));
  }
  await userManager.removeUser();
  await userManager.clearStaleState();
  await deps.resetStores();

  const cognitoUrl = cognitoLogoutUrl(info);
  if (cognitoUrl) {
    deps.leave(cognitoUrl);
    return;
  }
  // Without an id token hint oidc-client-ts adds client_id itself; adding it twice would be refused.
  await userManager.signoutRedirect({
    post_logout_redirect_uri: info.signoutUri,
    ...(user?.id_token ? { id_token_hint: user.id_token, extraQueryParams: { client_id: info.clientId } } : {}),
  });
}

function forwardSessionEvents(userManager: UserManager, send: (event: AuthEvent) => void): () => void {
  const events = userManager.events;
  const unsubscribers = [
    events.addUserLoaded((user) => send({ type: 'auth.userLoaded', user })),
    events.addUserUnloaded(() => send({ type: 'auth.userUnloaded' })),
    events.addUserSignedOut(() => send({ type: 'auth.userSignedOut' })),
    events.addAccessTokenExpired(() => send({ type: 'auth.accessTokenExpired' })),
    events.addSilentRenewError((error) => send({ type: 'auth.silentRenewError', error })),
  ];
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}

/** The auth statechart wired to oidc-client-ts. */
export function authMachineFor(userManager: UserManager, info: AuthInfo, deps: AuthEffectDeps) {
  return authMachine.provide({
    actors: {
      restoreUser: fromPromise<SessionUser | null>(() => restoreUser(userManager)),
      signinRedirect: fromPromise<void, { returnTo: string | null }>(({ input }) =>
        userManager.signinRedirect({ state: { returnTo: input.returnTo } }),
      ),
      signinCallback: fromPromise<SessionUser | null>(() => userManager.signinRedirectCallback()),
      signinSilent: fromPromise<SessionUser | null>(() => userManager.signinSilent()),
      signOut: fromPromise(() => signOut(userManager, info, deps)),
      sessionEvents: fromCallback<AuthEvent>(({ sendBack }) => forwardSessionEvents(userManager, sendBack)),
    },
    actions: {
      goToLogout: () => deps.goToLogout(),
    },
  });
}

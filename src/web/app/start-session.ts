import { clearFrameCache, unregisterServiceWorker } from '../sw/sw-client.ts';
import { createActor } from 'xstate';
import { navigate } from 'wouter/use-browser-location';
import type { AuthInfo } from '../../domain/auth-info.ts';
import { createApiClient, type ApiClient } from '../api/api-client.ts';
import { authMachineFor } from '../auth/auth-effects.ts';
import type { AuthActorRef } from '../auth/auth.machine.ts';
import { createUserManager } from '../auth/user-manager.ts';
import { clearContexts } from '../session/context-store.ts';
import { draftStore } from '../review/index.ts';

export interface AppSession {
  tenant: string;
  authInfo: AuthInfo;
  auth: AuthActorRef;
  api: ApiClient;
}

function goToLogout(): void {
  if (window.location.pathname !== '/logout') navigate('/logout', { replace: true });
}

/**
 * Builds the tenant's sign-in client, starts the auth statechart and the API client. Done once per
 * page outside React, so that React's development double-mounting never runs a sign-in step twice.
 */
export function startSession(tenant: string, authInfo: AuthInfo): AppSession {
  const userManager = createUserManager(authInfo);
  const auth = createActor(
    authMachineFor(userManager, authInfo, {
      goToLogout,
      resetStores: async () => {
        // Unsaved annotation drafts are kept on purpose (a forced sign-out is what they are for);
        // only their last writes are awaited, before the page is left for the provider.
        await draftStore.settled();
        clearContexts();
        // Patient images must not outlive the session in this browser, nor the worker that holds the
        // user's token for its downloads; the next start registers a fresh one.
        await clearFrameCache();
        await unregisterServiceWorker();
      },
      leave: (url) => window.location.assign(url),
    }),
  );
  auth.start();

  const api = createApiClient({
    tenant,
    getCredentials: () => {
      const user = auth.getSnapshot().context.user;
      return user?.id_token ? { idToken: user.id_token, tokenType: user.token_type } : null;
    },
    // Spec: a 401 means the session is no longer valid.
    onUnauthorized: goToLogout,
  });

  return { tenant, authInfo, auth, api };
}

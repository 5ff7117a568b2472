import { assign, fromCallback, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { SILENT_RENEW_RETRY_MS } from '../../domain/constants.ts';
import { returnToFromSigninState, safeReturnTo } from './return-to.ts';
import { isCompleteUser, type SessionUser } from './session-user.ts';

/**
 * The session's life (spec section 4). Every effect (oidc-client-ts, navigation) is provided
 * from outside with `authMachine.provide(...)`; the defaults below only say what is missing.
 */

export interface AuthContext {
  user: SessionUser | null;
  /** Where to go once signed in (kept in the sign-in request's state across the redirect). */
  returnTo: string | null;
  /** A sentence for the user when sign-in could not even start. */
  error: string | null;
  /** Set after a failed callback so the login screen does not redirect again in a loop. */
  callbackFailed: boolean;
}

export type AuthEvent =
  | { type: 'auth.login'; returnTo?: string | null }
  | { type: 'auth.callback' }
  | { type: 'auth.logout' }
  | { type: 'auth.userLoaded'; user: SessionUser }
  | { type: 'auth.userUnloaded' }
  | { type: 'auth.userSignedOut' }
  | { type: 'auth.accessTokenExpired' }
  | { type: 'auth.silentRenewError'; error: unknown };

function notProvided(name: string): never {
  throw new Error(`auth effect "${name}" is not provided`);
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}

/** Spec section 8: logged, and no message for the user. */
function logCallbackFailure(error: unknown): void {
  console.error('Unable to authenticate user', error);
}

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    /** The stored user (renewed first when its access token has expired), or null. */
    restoreUser: fromPromise<SessionUser | null>(async () => notProvided('restoreUser')),
    /** Leaves for the provider's sign-in page. */
    signinRedirect: fromPromise<void, { returnTo: string | null }>(async () => notProvided('signinRedirect')),
    /** Exchanges the code in the callback address for the user. */
    signinCallback: fromPromise<SessionUser | null>(async () => notProvided('signinCallback')),
    signinSilent: fromPromise<SessionUser | null>(async () => notProvided('signinSilent')),
    /** Removes the user, clears stale state and stores, then leaves for the provider's logout address. */
    signOut: fromPromise<void>(async () => notProvided('signOut')),
    /** Forwards the user manager's events (userLoaded, userUnloaded, accessTokenExpired...) as auth events. */
    sessionEvents: fromCallback<AuthEvent>(() => undefined),
  },
  actions: {
    /** Shows /logout in the address bar; provided by the app's router. */
    goToLogout: () => undefined,
  },
  guards: {
    isCompleteUser: (_, user: SessionUser | null | undefined) => isCompleteUser(user),
  },
  delays: {
    silentRenewRetry: SILENT_RENEW_RETRY_MS,
  },
}).createMachine({
  id: 'auth',
  context: { user: null, returnTo: null, error: null, callbackFailed: false },
  invoke: { src: 'sessionEvents' },
  initial: 'restoring',
  on: {
    'auth.logout': { target: '.signingOut' },
  },
  states: {
    restoring: {
      invoke: {
        src: 'restoreUser',
        onDone: [
          {
            guard: { type: 'isCompleteUser', params: ({ event }) => event.output },
            target: 'authenticated',
            actions: assign({ user: ({ event }) => event.output }),
          },
          { target: 'unauthenticated', actions: assign({ user: null }) },
        ],
        onError: { target: 'unauthenticated', actions: assign({ user: null }) },
      },
      on: {
        'auth.callback': { target: 'processingCallback' },
        'auth.login': {
          target: 'redirecting',
          actions: assign({ returnTo: ({ event }) => safeReturnTo(event.returnTo) }),
        },
      },
    },
    unauthenticated: {
      on: {
        'auth.login': {
          target: 'redirecting',
          actions: assign({ returnTo: ({ event }) => safeReturnTo(event.returnTo) }),
        },
        'auth.callback': { target: 'processingCallback' },
        'auth.userLoaded': {
          guard: { type: 'isCompleteUser', params: ({ event }) => event.user },
          target: 'authenticated',
          actions: assign({ user: ({ event }) => event.user }),
        },
      },
    },
    redirecting: {
      entry: assign({ error: null, callbackFailed: false }),
      invoke: {
        src: 'signinRedirect',
        input: ({ context }) => ({ returnTo: context.returnTo }),
        onError: {
          target: 'unauthenticated',
          actions: [
            ({ event }) => console.error('Unable to start sign-in', event.error),
            assign({ error: ({ event }) => `Sign-in could not start: ${messageOf(event.error)}` }),
          ],
        },
      },
    },
    processingCallback: {
      entry: assign({ callbackFailed: false }),
      invoke: {
        src: 'signinCallback',
        onDone: [
          {
            guard: { type: 'isCompleteUser', params: ({ event }) => event.output },
            target: 'authenticated',
            actions: assign({
              user: ({ event }) => event.output,
              returnTo: ({ event }) => returnToFromSigninState(event.output?.state),
              callbackFailed: false,
            }),
          },
          {
            target: 'unauthenticated',
            actions: [
              () => logCallbackFailure(new Error('The signed-in user lacks an email, access token or id token')),
              assign({ user: null, callbackFailed: true }),
            ],
          },
        ],
        onError: {
          target: 'unauthenticated',
          actions: [
            ({ event }) => logCallbackFailure(event.error),
            assign({ user: null, callbackFailed: true }),
          ],
        },
      },
    },
    authenticated: {
      initial: 'active',
      on: {
        'auth.userLoaded': [
          {
            guard: { type: 'isCompleteUser', params: ({ event }) => event.user },
            actions: assign({ user: ({ event }) => event.user }),
          },
          { target: 'signingOut', actions: 'goToLogout' },
        ],
        'auth.userUnloaded': { target: 'signingOut', actions: 'goToLogout' },
        'auth.userSignedOut': { target: 'signingOut', actions: 'goToLogout' },
        'auth.accessTokenExpired': { target: 'signingOut', actions: 'goToLogout' },
      },
      states: {
        active: {
          on: {
            'auth.silentRenewError': {
              target: 'waitingToRetryRenew',
              actions: ({ event }) => console.warn('Silent token renewal failed; retrying shortly', event.error),
            },
          },
        },
        /** One more try after a failed renewal; if it fails too, the access token's expiry ends the session. */
        waitingToRetryRenew: {
          after: { silentRenewRetry: 'renewing' },
        },
        renewing: {
          invoke: {
            src: 'signinSilent',
            onDone: [
              {
                guard: { type: 'isCompleteUser', params: ({ event }) => event.output },
                target: 'active',
                actions: assign({ user: ({ event }) => event.output }),
              },
              { target: 'active' },
            ],
            onError: {
              target: 'active',
              actions: ({ event }) => console.warn('Silent token renewal failed again', event.error),
            },
          },
        },
      },
    },
    signingOut: {
      entry: assign({ user: null, returnTo: null }),
      invoke: {
        src: 'signOut',
        onError: {
          target: 'unauthenticated',
          actions: [
            ({ event }) => console.error('Unable to sign out', event.error),
            assign({ error: ({ event }) => `Sign-out did not complete: ${messageOf(event.error)}` }),
          ],
        },
      },
      on: {
        // Already leaving: a second request (or the user manager's own unload event) changes nothing.
        'auth.logout': {},
      },
    },
  },
});

export type AuthActorRef = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

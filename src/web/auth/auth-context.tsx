import { createContext, use, useSyncExternalStore, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { AuthActorRef, AuthSnapshot } from './auth.machine.ts';
import { isCompleteUser, toAuthUser, type AuthUser } from './session-user.ts';

const AUTH_STATUSES = ['restoring', 'unauthenticated', 'redirecting', 'processingCallback', 'authenticated', 'signingOut'] as const;

/** The top-level state of the auth statechart. */
export type AuthStatus = (typeof AUTH_STATUSES)[number];

const AuthContext = createContext<AuthActorRef | null>(null);

/** The auth actor lives as long as the page; it is created and started outside React (see app/start-session.ts). */
export function AuthProvider({ actor, children }: { actor: AuthActorRef; children: ReactNode }) {
  return <AuthContext value={actor}>{children}</AuthContext>;
}

export function useAuthActor(): AuthActorRef {
  const actor = use(AuthContext);
  if (!actor) throw new Error('AuthService is not provided');
  return actor;
}

export function authStatus(snapshot: AuthSnapshot): AuthStatus {
  return AUTH_STATUSES.find((status) => snapshot.matches(status)) ?? 'restoring';
}

export function useAuthStatus(): AuthStatus {
  return useSelector(useAuthActor(), authStatus);
}

export function useAuthError(): string | null {
  return useSelector(useAuthActor(), (snapshot) => snapshot.context.error);
}

export function useAuthUser(): AuthUser | null {
  const user = useSelector(useAuthActor(), (snapshot) => snapshot.context.user);
  return isCompleteUser(user) ? toAuthUser(user) : null;
}

const NO_SUBSCRIPTION = () => () => {};

/**
 * The signed-in user's email, or null when no one is signed in or there is no auth service above
 * (a screen rendered alone). For what is only remembered per user (a layout choice), never for access.
 */
export function useSignedInEmail(): string | null {
  const actor = use(AuthContext);
  return useSyncExternalStore(
    actor
      ? (onChange: () => void) => {
          const subscription = actor.subscribe(onChange);
          return () => subscription.unsubscribe();
        }
      : NO_SUBSCRIPTION,
    () => {
      const user = actor?.getSnapshot().context.user;
      return isCompleteUser(user) ? (user.profile.email as string) : null;
    },
  );
}

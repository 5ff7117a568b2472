import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { vi } from 'vitest';
import { UiProviders } from '../../src/web/app/ui-providers.tsx';
import { AuthProvider } from '../../src/web/auth/auth-context.tsx';
import { authMachine, type AuthActorRef } from '../../src/web/auth/auth.machine.ts';
import type { SessionUser } from '../../src/web/auth/session-user.ts';
import { ApiProvider } from '../../src/web/api/api-context.tsx';
import { createApiClient, type ApiClient } from '../../src/web/api/api-client.ts';
import { fakeIdToken } from './fake-token.ts';

export function sessionUser({ admin = false, email = 'dana@demo.test' } = {}): SessionUser {
  return {
    profile: { email, name: 'Dana Clinician' },
    access_token: 'access-token',
    id_token: fakeIdToken({ sub: 'u1', email, groups: admin ? ['Admins'] : ['Clinicians'] }),
    token_type: 'Bearer',
  };
}

export interface FakeAuthOptions {
  user?: SessionUser | null;
  signinRedirect?: (returnTo: string | null) => Promise<void>;
  signinCallback?: () => Promise<SessionUser | null>;
  signOut?: () => Promise<void>;
}

/** The real auth statechart with fake effects, already past restoring. */
export async function startFakeAuth({ user = sessionUser(), ...effects }: FakeAuthOptions = {}): Promise<AuthActorRef> {
  const actor = createActor(
    authMachine.provide({
      actors: {
        restoreUser: fromPromise<SessionUser | null>(async () => user),
        signinRedirect: fromPromise<void, { returnTo: string | null }>(({ input }) =>
          (effects.signinRedirect ?? (() => new Promise<void>(() => undefined)))(input.returnTo),
        ),
        signinCallback: fromPromise<SessionUser | null>(effects.signinCallback ?? (async () => null)),
        signinSilent: fromPromise<SessionUser | null>(async () => null),
        signOut: fromPromise(effects.signOut ?? (() => new Promise<void>(() => undefined))),
        sessionEvents: fromCallback(() => undefined),
      },
    }),
  ).start();
  await waitFor(actor, (snapshot) => !snapshot.matches('restoring'));
  return actor;
}

/** An API client over a fake fetch; `respond` answers each request. */
export function fakeApi(respond: (url: URL, init: RequestInit | undefined) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    respond(new URL(String(input), 'http://demo.localhost'), init),
  );
  const client = createApiClient({
    tenant: 'demo',
    getCredentials: () => ({ idToken: 'id.token.sig', tokenType: 'Bearer' }),
    onUnauthorized: () => undefined,
    fetch: fetchMock,
  });
  /** The requests sent so far, as "METHOD path?query" with their JSON bodies. */
  const requests = () =>
    fetchMock.mock.calls.map(([input, init]) => {
      const url = new URL(String(input), 'http://demo.localhost');
      return { call: `${init?.method ?? 'GET'} ${url.pathname}${url.search}`, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    });
  return { client, fetchMock, requests };
}

export interface RenderOptions {
  path?: string;
  auth?: AuthActorRef;
  api?: ApiClient;
}

/** Renders `ui` with the app's providers on an in-memory address. */
export function renderApp(ui: ReactNode, { path = '/', auth, api }: RenderOptions = {}) {
  const location = memoryLocation({ path, record: true });
  let tree = (
    <Router hook={location.hook} searchHook={location.searchHook}>
      {ui}
    </Router>
  );
  if (api) tree = <ApiProvider client={api}>{tree}</ApiProvider>;
  if (auth) tree = <AuthProvider actor={auth}>{tree}</AuthProvider>;
  const result = render(<UiProviders>{tree}</UiProviders>);
  const currentPath = () => location.history.at(-1) ?? '';
  return { ...result, location, currentPath };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { User, UserManager } from 'oidc-client-ts';
import { createActor } from 'xstate';
import {
  EXPIRY_TIMER_MAX_POLL_MS,
  SILENT_RENEW_RETRY_MS,
  STALE_AUTH_STATE_AGE_S,
  TOKEN_EXPIRING_NOTICE_S,
} from '../../../src/domain/constants.ts';
import type { AuthInfo } from '../../../src/domain/auth-info.ts';
import { authMachineFor, type AuthEffectDeps } from '../../../src/web/auth/auth-effects.ts';
import { userManagerSettings } from '../../../src/web/auth/user-manager.ts';
import { DEMO_AUTH_INFO } from '../auth-info-fixture.ts';
import { fakeIdToken } from '../fake-token.ts';

/**
 * The session's timings end to end: the auth statechart wired to a real oidc-client-ts
 * UserManager (as the app runs it), with fake timers and a fake token endpoint.
 */

const ISSUER = DEMO_AUTH_INFO.issuer;
const TOKEN_ENDPOINT = `${ISSUER}/token`;
const METADATA = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/auth`,
  token_endpoint: TOKEN_ENDPOINT,
  end_session_endpoint: `${ISSUER}/session/end`,
  revocation_endpoint: `${ISSUER}/token/revocation`,
  userinfo_endpoint: `${ISSUER}/me`,
  jwks_uri: `${ISSUER}/jwks`,
};

const idToken = (n: number) =>
  fakeIdToken({ sub: 'u1', email: 'dana@demo.test', iss: ISSUER, aud: DEMO_AUTH_INFO.clientId, iat: 1, exp: 4_000_000_000, n });

const nowS = () => Math.floor(Date.now() / 1000);

function signedInUser(expiresInS: number): User {
  return new User({
    id_token: idToken(1),
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    token_type: 'Bearer',
    scope: DEMO_AUTH_INFO.scope,
    profile: { sub: 'u1', email: 'dana@demo.test', iss: ISSUER, aud: DEMO_AUTH_INFO.clientId, exp: 4_000_000_000, iat: 1 },
    expires_at: nowS() + expiresInS,
  });
}

/** A sign-in request's state as oidc-client-ts keeps it in local storage. */
function storeSigninState(id: string, ageS: number) {
  localStorage.setItem(`oidc.${id}`, JSON.stringify({ id, created: nowS() - ageS, request_type: 'si:r', data: null }));
}

/**
 * Waits for `condition` on the real event loop (the fake clock stands still meanwhile), so the
 * timings below are exact: vi.waitFor would move the fake clock on while it polls. The patience is
 * real time (performance.now is not faked), not a count of turns: the sign-in client's WebCrypto
 * work runs on Node's thread pool, and on a loaded machine it outlasted 500 turns of the loop.
 */
async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

type TokenAnswer = (body: URLSearchParams) => Response;

async function startSession({ expiresInS, token, info = DEMO_AUTH_INFO }: { expiresInS: number; token: TokenAnswer; info?: AuthInfo }) {
  const tokenRequests: { at: number; body: URLSearchParams }[] = [];
  const started = Date.now();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url === TOKEN_ENDPOINT) {
        const body = new URLSearchParams(String(init?.body ?? ''));
        tokenRequests.push({ at: Date.now() - started, body });
        return token(body);
      }
      return Response.json({});
    }),
  );
  const userManager = new UserManager({ ...userManagerSettings(info), metadata: METADATA });
  await userManager.storeUser(signedInUser(expiresInS));
  const deps = {
    goToLogout: vi.fn(),
    resetStores: vi.fn(async () => undefined),
    leave: vi.fn(),
  } satisfies AuthEffectDeps;
  const actor = createActor(authMachineFor(userManager, info, deps)).start();
  await until(() => actor.getSnapshot().matches('authenticated'));
  return { actor, deps, userManager, tokenRequests };
}

const refreshed = (n: number): TokenAnswer => () =>
  Response.json({ id_token: idToken(n), access_token: `access-${n}`, refresh_token: `refresh-${n}`, token_type: 'Bearer', expires_in: 300 });
const refused: TokenAnswer = () => Response.json({ error: 'invalid_grant', error_description: 'grant request is invalid' }, { status: 400 });

describe('session lifecycle with the real sign-in client', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-03-05T10:00:00Z'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it(`renews silently with the refresh token ${TOKEN_EXPIRING_NOTICE_S} s before the access token expires`, async () => {
    const { actor, tokenRequests } = await startSession({ expiresInS: 120, token: refreshed(2) });
    await vi.advanceTimersByTimeAsync((120 - TOKEN_EXPIRING_NOTICE_S) * 1000 - 1000);
    expect(tokenRequests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => tokenRequests.length === 1);
    expect(tokenRequests[0]!.body.get('grant_type')).toBe('refresh_token');
    expect(tokenRequests[0]!.body.get('refresh_token')).toBe('refresh-1');
    await until(() => actor.getSnapshot().context.user?.access_token === 'access-2');
    expect(actor.getSnapshot().matches('authenticated')).toBe(true);
  });

  it(`retries a failed renewal after ${SILENT_RENEW_RETRY_MS / 1000} s, then ends on /logout once the access token expires`, async () => {
    const { actor, deps, tokenRequests } = await startSession({ expiresInS: 90, token: refused });
    // First attempt at the expiring notice (30 s), the statechart's retry 5 s later.
    await vi.advanceTimersByTimeAsync(30_000);
    await until(() => tokenRequests.length === 1);
    await vi.advanceTimersByTimeAsync(SILENT_RENEW_RETRY_MS - 1);
    expect(tokenRequests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => tokenRequests.length === 2);
    expect(tokenRequests.map((r) => r.at)).toEqual([30_000, 30_000 + SILENT_RENEW_RETRY_MS]);
    expect(actor.getSnapshot().matches('authenticated')).toBe(true);

    // Still signed in up to the expiry itself; signed out at the expiry timer's next poll.
    await vi.advanceTimersByTimeAsync(90_000 - 35_000);
    expect(deps.goToLogout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000 + EXPIRY_TIMER_MAX_POLL_MS);
    expect(deps.goToLogout).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('signs out: user removed, stale sign-in state cleared, stores reset, then the end-session address', async () => {
    const { actor, deps, userManager } = await startSession({ expiresInS: 300, token: refreshed(2) });
    storeSigninState('stale', STALE_AUTH_STATE_AGE_S + 60);
    storeSigninState('fresh', 60);
    const order: string[] = [];
    deps.resetStores.mockImplementation(async () => {
      order.push(`reset (user stored: ${(await userManager.getUser()) !== null})`);
    });
    const signoutRedirect = vi.spyOn(userManager, 'signoutRedirect').mockImplementation(async () => {
      order.push('end-session');
    });

    actor.send({ type: 'auth.logout' });
    await until(() => signoutRedirect.mock.calls.length === 1);
    expect(order).toEqual(['reset (user stored: false)', 'end-session']);
    expect(signoutRedirect).toHaveBeenCalledWith({
      post_logout_redirect_uri: DEMO_AUTH_INFO.signoutUri,
      id_token_hint: idToken(1),
      extraQueryParams: { client_id: DEMO_AUTH_INFO.clientId },
    });
    expect(localStorage.getItem('oidc.stale')).toBeNull();
    expect(localStorage.getItem('oidc.fresh')).not.toBeNull();
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith('oidc.user:'))).toEqual([]);
    expect(deps.leave).not.toHaveBeenCalled();
  });

  it("signs out through Cognito's logout form when the tenant has a Cognito domain", async () => {
    const info = { ...DEMO_AUTH_INFO, cognitoDomain: 'demo-auth.example.com' };
    const { actor, deps, userManager } = await startSession({ expiresInS: 300, token: refreshed(2), info });
    const signoutRedirect = vi.spyOn(userManager, 'signoutRedirect');
    actor.send({ type: 'auth.logout' });
    await until(() => deps.leave.mock.calls.length === 1);
    const url = new URL(deps.leave.mock.calls[0]![0]);
    expect(url.origin + url.pathname).toBe('https://demo-auth.example.com/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: DEMO_AUTH_INFO.clientId, logout_uri: DEMO_AUTH_INFO.signoutUri });
    expect(deps.resetStores).toHaveBeenCalledTimes(1);
    expect(signoutRedirect).not.toHaveBeenCalled();
  });

  it(`drops sign-in state older than ${STALE_AUTH_STATE_AGE_S / 60} minutes when a sign-in starts`, async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({})));
    const userManager = new UserManager({ ...userManagerSettings(DEMO_AUTH_INFO), metadata: METADATA });
    const deps = { goToLogout: vi.fn(), resetStores: vi.fn(), leave: vi.fn() } satisfies AuthEffectDeps;
    const actor = createActor(authMachineFor(userManager, DEMO_AUTH_INFO, deps)).start();
    await until(() => actor.getSnapshot().matches('unauthenticated'));
    // An abandoned sign-in, then another one a minute later; the clock then moves past the first one's age limit.
    storeSigninState('abandoned', 0);
    await vi.advanceTimersByTimeAsync(60_000);
    storeSigninState('recent', 0);
    await vi.advanceTimersByTimeAsync(STALE_AUTH_STATE_AGE_S * 1000 - 60_000);
    expect(localStorage.getItem('oidc.abandoned')).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1000);

    actor.send({ type: 'auth.login', returnTo: '/patients' });
    const newState = () => Object.keys(localStorage).filter((key) => key.startsWith('oidc.') && !['oidc.abandoned', 'oidc.recent'].includes(key));
    await until(() => newState().length === 1);
    expect(localStorage.getItem('oidc.abandoned')).toBeNull();
    expect(localStorage.getItem('oidc.recent')).not.toBeNull();
  });
});

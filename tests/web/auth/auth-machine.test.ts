import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type AnyActorRef } from 'xstate';
import { authMachine, type AuthEvent } from '../../../src/web/auth/auth.machine.ts';
import type { SessionUser } from '../../../src/web/auth/session-user.ts';
import { SILENT_RENEW_RETRY_MS } from '../../../src/domain/constants.ts';

const completeUser: SessionUser = {
  profile: { email: 'clinician@demo.test', name: 'Dana Clinician' },
  access_token: 'access',
  id_token: 'header.payload.signature',
  token_type: 'Bearer',
};

interface Effects {
  restoreUser?: () => Promise<SessionUser | null>;
  signinRedirect?: (returnTo: string | null) => Promise<void>;
  signinCallback?: () => Promise<SessionUser | null>;
  signinSilent?: () => Promise<SessionUser | null>;
  signOut?: () => Promise<void>;
  goToLogout?: () => void;
}

/** The machine with fake effects; `emit` plays the user manager's events. */
function startAuth(effects: Effects = {}) {
  let emit: (event: AuthEvent) => void = () => undefined;
  const machine = authMachine.provide({
    actors: {
      restoreUser: fromPromise(effects.restoreUser ?? (async () => null)),
      signinRedirect: fromPromise<void, { returnTo: string | null }>(({ input }) =>
        (effects.signinRedirect ?? (() => new Promise<void>(() => undefined)))(input.returnTo),
      ),
      signinCallback: fromPromise(effects.signinCallback ?? (async () => completeUser)),
      signinSilent: fromPromise(effects.signinSilent ?? (async () => completeUser)),
      signOut: fromPromise(effects.signOut ?? (() => new Promise<void>(() => undefined))),
      sessionEvents: fromCallback<AuthEvent>(({ sendBack }) => {
        emit = sendBack;
      }),
    },
    actions: { goToLogout: effects.goToLogout ?? (() => undefined) },
  });
  const actor = createActor(machine).start();
  return { actor, emit: (event: AuthEvent) => emit(event) };
}

const settled = (actor: AnyActorRef, state: string) => waitFor(actor, (snapshot) => snapshot.matches(state));

describe('auth statechart', () => {
  it('restores a stored user that has an email, an access token and an id token', async () => {
    const { actor } = startAuth({ restoreUser: async () => completeUser });
    await settled(actor, 'authenticated');
    expect(actor.getSnapshot().context.user?.profile.email).toBe('clinician@demo.test');
  });

  it.each([
    ['no email', { ...completeUser, profile: { name: 'No Mail' } }],
    ['no id token', { ...completeUser, id_token: undefined }],
    ['no access token', { ...completeUser, access_token: '' }],
  ])('stays signed out when the stored user has %s', async (_, user) => {
    const { actor } = startAuth({ restoreUser: async () => user });
    await settled(actor, 'unauthenticated');
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('stays signed out when nothing is stored or restoring fails', async () => {
    const { actor } = startAuth({ restoreUser: async () => Promise.reject(new Error('storage blocked')) });
    await settled(actor, 'unauthenticated');
  });

  it('starts the redirect with the path to come back to', async () => {
    const signinRedirect = vi.fn(() => new Promise<void>(() => undefined));
    const { actor } = startAuth({ signinRedirect });
    await settled(actor, 'unauthenticated');
    actor.send({ type: 'auth.login', returnTo: '/patients/P-1/records' });
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(signinRedirect).toHaveBeenCalledWith('/patients/P-1/records');
  });

  it('refuses a return path that would leave the app', async () => {
    const signinRedirect = vi.fn(() => new Promise<void>(() => undefined));
    const { actor } = startAuth({ signinRedirect });
    await settled(actor, 'unauthenticated');
    actor.send({ type: 'auth.login', returnTo: '//evil.example/patients' });
    expect(signinRedirect).toHaveBeenCalledWith(null);
  });

  it('completes the callback and keeps the requested path from the sign-in state', async () => {
    const { actor } = startAuth({ signinCallback: async () => ({ ...completeUser, state: { returnTo: '/upload' } }) });
    actor.send({ type: 'auth.callback' });
    await settled(actor, 'authenticated');
    expect(actor.getSnapshot().context.returnTo).toBe('/upload');
  });

  it('logs a failed callback as "Unable to authenticate user" and stays signed out', async () => {
    const failure = new Error('No matching state found in storage');
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { actor } = startAuth({ signinCallback: async () => Promise.reject(failure) });
    await settled(actor, 'unauthenticated');
    actor.send({ type: 'auth.callback' });
    await waitFor(actor, (snapshot) => snapshot.context.callbackFailed);
    expect(actor.getSnapshot().matches('unauthenticated')).toBe(true);
    expect(log).toHaveBeenCalledWith('Unable to authenticate user', failure);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('does not sign in from a callback whose user lacks an email', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { actor } = startAuth({ signinCallback: async () => ({ ...completeUser, profile: {} }) });
    actor.send({ type: 'auth.callback' });
    await waitFor(actor, (snapshot) => snapshot.context.callbackFailed);
    expect(log).toHaveBeenCalledWith('Unable to authenticate user', expect.any(Error));
  });

  it.each(['auth.userUnloaded', 'auth.accessTokenExpired', 'auth.userSignedOut'] as const)(
    'goes to /logout and signs out on %s',
    async (type) => {
      const goToLogout = vi.fn();
      const signOut = vi.fn(() => new Promise<void>(() => undefined));
      const { actor, emit } = startAuth({ restoreUser: async () => completeUser, goToLogout, signOut });
      await settled(actor, 'authenticated');
      emit({ type });
      expect(goToLogout).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().matches('signingOut')).toBe(true);
      expect(signOut).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().context.user).toBeNull();
    },
  );

  it('signs out once however often logout is asked for', async () => {
    const signOut = vi.fn(() => new Promise<void>(() => undefined));
    const { actor, emit } = startAuth({ restoreUser: async () => completeUser, signOut });
    await settled(actor, 'authenticated');
    actor.send({ type: 'auth.logout' });
    actor.send({ type: 'auth.logout' });
    emit({ type: 'auth.userUnloaded' });
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('takes a renewed user', async () => {
    const { actor, emit } = startAuth({ restoreUser: async () => completeUser });
    await settled(actor, 'authenticated');
    emit({ type: 'auth.userLoaded', user: { ...completeUser, id_token: 'renewed.id.token' } });
    expect(actor.getSnapshot().context.user?.id_token).toBe('renewed.id.token');
  });

  it('retries a failed silent renewal after 5 seconds', async () => {
    vi.useFakeTimers();
    try {
      const signinSilent = vi.fn(async () => ({ ...completeUser, id_token: 'retried.id.token' }));
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const { actor, emit } = startAuth({ restoreUser: async () => completeUser, signinSilent });
      await vi.waitFor(() => expect(actor.getSnapshot().matches('authenticated')).toBe(true));
      emit({ type: 'auth.silentRenewError', error: new Error('network') });
      await vi.advanceTimersByTimeAsync(SILENT_RENEW_RETRY_MS - 1);
      expect(signinSilent).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(signinSilent).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(actor.getSnapshot().context.user?.id_token).toBe('retried.id.token'));
      expect(actor.getSnapshot().matches({ authenticated: 'active' })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a readable error when sign-in cannot start', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { actor } = startAuth({ signinRedirect: async () => Promise.reject(new Error('discovery failed')) });
    await settled(actor, 'unauthenticated');
    actor.send({ type: 'auth.login' });
    await waitFor(actor, (snapshot) => snapshot.context.error !== null);
    expect(actor.getSnapshot().context.error).toContain('discovery failed');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRouter } from '../../../src/web/app/app-router.tsx';
import { fakeApi, renderApp, sessionUser, startFakeAuth, type FakeAuthOptions } from '../render.tsx';

function emptyPatients() {
  return fakeApi(() => Response.json({ items: [], total: 0, page: 1, pageSize: 25 }));
}

async function renderRoutes(path: string, auth: FakeAuthOptions) {
  const actor = await startFakeAuth(auth);
  const rendered = renderApp(<AppRouter />, { path, auth: actor, api: emptyPatients().client });
  return { ...rendered, actor };
}

const never = () => new Promise<never>(() => undefined);

describe('route guard and sign-in routes', () => {
  it('sends a signed-out visitor to /login, remembering the page, and starts the sign-in at once', async () => {
    const signinRedirect = vi.fn(never);
    const { currentPath } = await renderRoutes('/patients/P-1/records', { user: null, signinRedirect });
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledWith('/patients/P-1/records'));
    expect(currentPath()).toBe('/login?returnTo=%2Fpatients%2FP-1%2Frecords');
  });

  it('redirects the empty path to /login', async () => {
    const signinRedirect = vi.fn(never);
    const { currentPath } = await renderRoutes('/', { user: null, signinRedirect });
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledWith(null));
    expect(currentPath()).toBe('/login');
  });

  it('lands on the remembered page after the callback', async () => {
    const user = { ...sessionUser(), state: { returnTo: '/upload' } };
    const { currentPath } = await renderRoutes('/callback?code=abc&state=xyz', {
      user: null,
      signinCallback: async () => user,
    });
    await waitFor(() => expect(currentPath()).toBe('/upload'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload' })).toBeTruthy();
  });

  it('lands on /patients after a callback without a remembered page', async () => {
    const { currentPath } = await renderRoutes('/callback?code=abc&state=xyz', {
      user: null,
      signinCallback: async () => sessionUser(),
    });
    await waitFor(() => expect(currentPath()).toBe('/patients'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Patients' })).toBeTruthy();
  });

  it('logs a failed callback and offers sign-in without redirecting in a loop', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const signinRedirect = vi.fn(never);
    const { currentPath } = await renderRoutes('/callback?error=access_denied', {
      user: null,
      signinRedirect,
      signinCallback: async () => Promise.reject(new Error('access_denied')),
    });
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(log).toHaveBeenCalledWith('Unable to authenticate user', expect.any(Error));
    expect(signinRedirect).not.toHaveBeenCalled();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(signinRedirect).toHaveBeenCalledTimes(1);
  });

  it('skips sign-in for a signed-in user who opens /login', async () => {
    const { currentPath } = await renderRoutes('/login', { user: sessionUser() });
    await waitFor(() => expect(currentPath()).toBe('/patients'));
  });

  it('signs out on /logout', async () => {
    const signOut = vi.fn(never);
    await renderRoutes('/logout', { user: sessionUser(), signOut });
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('heading', { name: 'Signing out' })).toBeTruthy();
  });

  it('shows "not permitted" on /users to a non-administrator', async () => {
    await renderRoutes('/users', { user: sessionUser({ admin: false }) });
    expect(await screen.findByText('Not permitted')).toBeTruthy();
  });

  it('shows the users frame to an administrator', async () => {
    await renderRoutes('/users', { user: sessionUser({ admin: true }) });
    expect(await screen.findByRole('tab', { name: 'Audit trail' })).toBeTruthy();
    expect(screen.queryByText('Not permitted')).toBeNull();
  });
});

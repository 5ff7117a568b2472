// @vitest-environment-options {"url": "http://demo.localhost:8080/patients"}
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, demoAddress } from '../../../src/web/app/app.tsx';
import { showStartupFailure } from '../../../src/web/app/startup-failure.ts';
import { DEMO_AUTH_INFO } from '../auth-info-fixture.ts';

const AUTH_INFO = DEMO_AUTH_INFO;

describe('start-up', () => {
  it('shows a readable page with Retry when the sign-in configuration cannot be loaded', async () => {
    const user = userEvent.setup();
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(Response.json({ error: 'unavailable', message: 'Database starting.' }, { status: 503 }))
      .mockResolvedValueOnce(Response.json(AUTH_INFO))
      .mockResolvedValue(Response.json({ error: 'not_found', message: 'nope' }, { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      render(<App />);
      expect(await screen.findByRole('heading', { name: 'Sign-in is not available' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toContain('Database starting.');
      expect(log).toHaveBeenCalledWith(expect.stringContaining('HTTP 503'));
      expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth-info?tenantId=demo');

      await user.click(screen.getByRole('button', { name: 'Retry' }));
      // Configured now: the guard sends the visitor to sign in, which here fails at the provider's discovery.
      expect(await screen.findByRole('heading', { name: 'Sign in' }, { timeout: 3000 })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toContain('Sign-in could not start');
      expect(window.location.pathname).toBe('/login');
      expect(new URLSearchParams(window.location.search).get('returnTo')).toBe('/patients');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('names the demo workspace address of this server', () => {
    expect(demoAddress({ protocol: 'http:', port: '5173' })).toBe('http://demo.localhost:5173');
    expect(demoAddress({ protocol: 'https:', port: '' })).toBe('https://demo.localhost');
  });

  it('can always show a start-up failure, even without React', () => {
    const root = document.createElement('div');
    document.body.append(root);
    showStartupFailure(new Error('chunk failed to load'), root);
    expect(root.querySelector('h1')?.textContent).toBe('IVUS Review could not start');
    expect(root.textContent).toContain('chunk failed to load');
    expect(root.querySelector('button')?.textContent).toBe('Reload');
    root.remove();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { returnToFromSigninState, safeReturnTo } from '../../../src/web/auth/return-to.ts';
import { cognitoLogoutUrl } from '../../../src/web/auth/logout.ts';
import { AuthInfoError, fetchAuthInfo } from '../../../src/web/auth/auth-info.ts';
import { userManagerSettings } from '../../../src/web/auth/user-manager.ts';
import { DEMO_AUTH_INFO } from '../auth-info-fixture.ts';

const info = DEMO_AUTH_INFO;

describe('return path after sign-in', () => {
  it('keeps paths inside the app', () => {
    expect(safeReturnTo('/patients/P1/records?x=1')).toBe('/patients/P1/records?x=1');
  });

  it('refuses other origins and the sign-in routes themselves', () => {
    for (const value of ['//evil.example', 'https://evil.example/', '/\\evil', '/login', '/logout?x', '/callback', 42, null]) {
      expect(safeReturnTo(value)).toBeNull();
    }
  });

  // Issue 24: `/login?returnTo=/%09/x` reaches safeReturnTo as '/\t/x', which the browser reads as `//x`.
  it.each([
    ['a tab after the slash', '/\t/x'],
    ['a newline after the slash', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a leading space', ' /patients'],
    ['a NUL byte', '/patients\u0000'],
    ['a backslash', '/\\evil.example'],
    ['a backslash later on', '/patients\\..\\x'],
    ['two slashes', '//evil.example'],
    ['three slashes', '///evil.example'],
    ['encoded slashes', '/%2F%2Fevil.example'],
    ['an encoded second slash', '/%2fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded tab', '/%09/x'],
    ['broken percent-encoding', '/patients/%E0%A4%A'],
    ['an https URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['no leading slash', 'patients'],
    ['an empty string', ''],
    ['non-ASCII', '/pacjenci/Łukasz'],
    ['an object', { toString: (): string => '/patients' }],
  ])('replaces %s with the landing page', (_label, value) => {
    expect(safeReturnTo(value)).toBeNull();
  });

  it('keeps plain paths with a query and a fragment, percent-encoded characters included', () => {
    for (const value of ['/patients?q=Kowalski%2C%20%C5%81ukasz', '/patients/P%201/records#frame-3', '/users', '/audit?page=2&size=50']) {
      expect(safeReturnTo(value)).toBe(value);
    }
  });

  it('comes back from the sign-in state', () => {
    expect(returnToFromSigninState({ returnTo: '/users' })).toBe('/users');
    expect(returnToFromSigninState('nonsense')).toBeNull();
  });
});

describe('Cognito logout address', () => {
  it('is null for a standard provider', () => {
    expect(cognitoLogoutUrl(info)).toBeNull();
  });

  it('names the client and the return address', () => {
    const url = new URL(cognitoLogoutUrl({ ...info, cognitoDomain: 'auth.example.com' }) ?? '');
    expect(url.origin + url.pathname).toBe('https://auth.example.com/logout');
    expect(url.searchParams.get('client_id')).toBe('ivus-demo');
    expect(url.searchParams.get('logout_uri')).toBe('http://demo.localhost:8080/');
  });
});

describe('GET /api/auth-info', () => {
  it('asks for the tenant without authorization and validates the answer', async () => {
    const fetchMock = vi.fn(async () => Response.json(info));
    await expect(fetchAuthInfo('demo', fetchMock)).resolves.toEqual(info);
    expect(fetchMock).toHaveBeenCalledWith('/api/auth-info?tenantId=demo', { headers: { Accept: 'application/json' } });
  });

  it('logs the HTTP status and rethrows with the server’s message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = vi.fn(async () =>
      Response.json({ error: 'unknown_tenant', message: 'There is no tenant "nope".' }, { status: 404 }),
    );
    const failure = fetchAuthInfo('nope', fetchMock);
    await expect(failure).rejects.toBeInstanceOf(AuthInfoError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: 'There is no tenant "nope".' });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('HTTP 404'));
  });

  it('refuses an incomplete configuration', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = vi.fn(async () => Response.json({ clientId: 'x' }));
    await expect(fetchAuthInfo('demo', fetchMock)).rejects.toBeInstanceOf(AuthInfoError);
  });
});

describe('user manager settings', () => {
  it('come from auth-info and the spec constants', () => {
    const settings = userManagerSettings({ ...info, start_checksession: true });
    expect(settings).toMatchObject({
      authority: info.issuer,
      client_id: 'ivus-demo',
      redirect_uri: info.redirectUri,
      post_logout_redirect_uri: info.signoutUri,
      silent_redirect_uri: info.silentRefreshRedirectUri,
      response_type: 'code',
      scope: 'email openid phone profile',
      accessTokenExpiringNotificationTimeInSeconds: 60,
      silentRequestTimeoutInSeconds: 10,
      staleStateAgeInSeconds: 900,
      checkSessionIntervalInSeconds: 2,
      monitorSession: true,
      automaticSilentRenew: true,
    });
  });
});

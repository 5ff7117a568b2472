/**
 * Issue 24 items 3, 7 and 10 (end session): tokens that outlive their sign-in, an account locked by
 * whoever types its email, and a sign-out forced by another site. The acme clinician signs in and
 * out; the demo clinician is guessed at from addresses of its own, so the other attacks' sign-ins
 * (from 127.0.0.1) are not locked by these.
 */
import type { Attack, AttackTarget } from '../attack-types.ts';

const ACME_CLINICIAN = { email: 'clinician@acme.test', password: 'acme-clinician-password' };
const DEMO_CLINICIAN = { email: 'clinician@demo.test', password: 'demo-clinician-password' };

async function acmePatients(t: AttackTarget, idToken: string): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/acme/patients', headers: { host: t.hostOf('acme'), authorization: `Bearer ${idToken}` } });
  return response.statusCode;
}

async function signedInAcmeClinician(t: AttackTarget): Promise<{ idToken: string; cookie: string }> {
  const signIn = await t.signIn('acme', ACME_CLINICIAN.email, ACME_CLINICIAN.password);
  if (signIn.status !== 200 || !signIn.idToken || !signIn.cookie) throw new Error(`sign-in failed: ${signIn.status}`);
  return { idToken: signIn.idToken, cookie: signIn.cookie };
}

/**
 * What a browser does when a page elsewhere navigates it to the end-session URL: it loads the page
 * and, when the page submits its own form by script, follows it. It cannot read the page (another
 * origin), so it never clicks a confirmation for the user.
 */
async function navigateToEndSession(t: AttackTarget, cookie: string, idTokenHint?: string): Promise<void> {
  const host = t.hostOf('acme');
  const params = new URLSearchParams({ post_logout_redirect_uri: `${t.originOf('acme')}/` });
  if (idTokenHint) params.set('id_token_hint', idTokenHint);
  const page = await t.app.inject({ method: 'GET', url: `/idp/session/end?${params}`, headers: { host, cookie } });
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (!xsrf || !page.body.includes('.submit()</script>')) return;
  await t.app.inject({
    method: 'POST',
    url: '/idp/session/end/confirm',
    headers: { host, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
}

async function guess(t: AttackTarget, remoteAddress: string, times: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < times; i++) status = (await t.signIn('demo', DEMO_CLINICIAN.email, `guess-${remoteAddress}-${i}`, { remoteAddress })).status;
  return status;
}

const deviceCookieOf = (cookie: string) => cookie.split('; ').filter((pair) => pair.startsWith('ivus_device_')).join('; ');

export const SESSION_ATTACKS: readonly Attack[] = [
  {
    category: 'sessions',
    name: 'an ID token used on the API after its user signed out',
    expected: [401],
    run: async (t) => {
      const { idToken, cookie } = await signedInAcmeClinician(t);
      // The app's own Sign out: this sign-in's token as id_token_hint, submitted by the page.
      await navigateToEndSession(t, cookie, idToken);
      return acmePatients(t, idToken);
    },
  },
  {
    category: 'sessions',
    name: "another site sends the user's browser to the end-session URL (the API status of the user's token after it)",
    expected: [200],
    run: async (t) => {
      const { idToken, cookie } = await signedInAcmeClinician(t);
      await navigateToEndSession(t, cookie);
      return acmePatients(t, idToken);
    },
  },
  {
    category: 'sessions',
    name: "another site sends the browser to end-session with another account's ID token as hint (the user's token after it)",
    expected: [200],
    run: async (t) => {
      const { idToken, cookie } = await signedInAcmeClinician(t);
      const other = await t.signIn('acme', 'admin@acme.test', 'acme-admin-password');
      await navigateToEndSession(t, cookie, other.idToken ?? 'no-token');
      return acmePatients(t, idToken);
    },
  },
  {
    category: 'sign-in',
    name: "five wrong passwords from one address, then the owner's right password from another (the owner's sign-in status)",
    expected: [200],
    run: async (t) => {
      await guess(t, '198.51.100.7', 5);
      return (await t.signIn('demo', DEMO_CLINICIAN.email, DEMO_CLINICIAN.password, { remoteAddress: '198.51.100.8' })).status;
    },
  },
  {
    category: 'sign-in',
    name: "guesses from many addresses against an account, then its owner's browser signs in (the owner's sign-in status)",
    expected: [200],
    run: async (t) => {
      const owner = await t.signIn('demo', DEMO_CLINICIAN.email, DEMO_CLINICIAN.password, { remoteAddress: '198.51.100.20' });
      const device = deviceCookieOf(owner.cookie ?? '');
      // Four from each address (under the per-address lock), enough for the account-wide one.
      for (let address = 21; address < 24; address++) await guess(t, `198.51.100.${address}`, 4);
      const stranger = await t.signIn('demo', DEMO_CLINICIAN.email, DEMO_CLINICIAN.password, { remoteAddress: '198.51.100.30' });
      if (stranger.status !== 429) throw new Error(`the account-wide limit did not hold: ${stranger.status}`);
      return (await t.signIn('demo', DEMO_CLINICIAN.email, DEMO_CLINICIAN.password, { remoteAddress: '198.51.100.21', cookie: device })).status;
    },
  },
  {
    category: 'sign-in',
    name: "a clinician clears an account's sign-in lock",
    expected: [403],
    run: async (t) => {
      const users = await t.app.inject({ method: 'GET', url: '/api/demo/users', headers: { host: t.hostOf('demo'), authorization: `Bearer ${await t.token('demo', 'admin@demo.test')}` } });
      const owner = (users.json() as { items: { id: string; email: string }[] }).items.find((user) => user.email === DEMO_CLINICIAN.email)!;
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/demo/users/${owner.id}/sign-in-lock`,
        headers: { host: t.hostOf('demo'), authorization: `Bearer ${await t.token('demo', DEMO_CLINICIAN.email)}` },
      });
      return response.statusCode;
    },
  },
];

import { expect, test } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { clinician, signIn, storedIdToken, submitProviderSignIn } from './sign-in.ts';

test('visiting /patients while signed out ends on the provider sign-in page', async ({ page }) => {
  await page.goto(`${originOf('demo')}/patients`);
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Demo Heart Centre')).toBeVisible();
});

test('the demo clinician signs in through the provider and lands on the seeded patients', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('table')).toBeVisible();
  const patientIds = page.getByRole('row').filter({ hasText: /DEM-\d{3}/ });
  await expect(patientIds.first()).toBeVisible();
  expect(await patientIds.count()).toBeGreaterThan(10);
  // The ID token carries the user's email, as the API needs it.
  const token = await storedIdToken(page);
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  expect(claims.email).toBe(clinician().email);
});

test('a wrong password shows the error and does not sign in', async ({ page }) => {
  await page.goto(`${originOf('demo')}/patients`);
  await submitProviderSignIn(page, clinician().email, 'definitely-wrong');
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  // Still signed out: the app sends us back to the provider.
  await page.goto(`${originOf('demo')}/patients`);
  await expect(page).toHaveURL(/\/idp\/interaction\//);
});

test('a demo token is refused on acme.localhost', async ({ page }) => {
  await signIn(page);
  const token = await storedIdToken(page);
  const onDemo = await page.evaluate(
    (t) => fetch('/api/demo/patients', { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.status),
    token,
  );
  expect(onDemo).toBe(200);
  await page.goto(`${originOf('acme')}/favicon.svg`);
  const onAcme = await page.evaluate(
    (t) => fetch('/api/acme/patients', { headers: { Authorization: `Bearer ${t}` } }).then(async (r) => ({ status: r.status, body: await r.json() })),
    token,
  );
  expect(onAcme.status).toBe(401);
  expect(onAcme.body.message).toMatch(/not valid for this organisation/);
});

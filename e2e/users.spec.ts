import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { administrator, clinician, signIn, storedIdToken, submitProviderSignIn } from './sign-in.ts';

const userRow = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });
const usersButton = (page: Page) => page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Users' });

test('an administrator creates a user who signs in, becomes an administrator, and is then disabled', async ({ page, browser }) => {
  const account = {
    tenantId: 'demo',
    email: `e2e-${Date.now()}@demo.test`,
    name: 'Robin Newcomer',
    password: 'robin-newcomer-password',
    groups: [],
  };

  // The administrator creates the account with a password.
  await signIn(page, administrator(), '/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(userRow(page, 'admin@demo.test')).toContainText('(you)');
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create user' });
  await dialog.getByLabel('Email').fill(account.email);
  await dialog.getByLabel('Name').fill(account.name);
  await dialog.getByText('Set a password now').click();
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `${account.email} can sign in now.` })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(userRow(page, account.email)).toContainText('Never');

  // The new user signs in in a browser of their own: Users is disabled for them.
  const theirs = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const newcomer = await theirs.newPage();
  await signIn(newcomer, account);
  await expect(usersButton(newcomer)).toHaveAttribute('aria-disabled', 'true');

  // Made an administrator, they see Users enabled once signed in again.
  await userRow(page, account.email).getByRole('button', { name: 'Make admin' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `${account.email} is now an administrator.` })).toBeVisible();
  await expect(userRow(page, account.email)).toContainText('Admins');
  await newcomer.getByRole('button', { name: 'Sign out' }).click();
  await submitProviderSignIn(newcomer, account.email, account.password);
  await expect(newcomer).toHaveURL(/\/patients$/);
  await expect(usersButton(newcomer)).not.toHaveAttribute('aria-disabled', 'true');
  await usersButton(newcomer).click();
  await expect(newcomer).toHaveURL(/\/users$/);
  await expect(userRow(newcomer, account.email)).toContainText('(you)');
  const token = await storedIdToken(newcomer);

  // Disabled (after a confirmation), their token is refused at once and they cannot sign in.
  await userRow(page, account.email).getByRole('button', { name: 'Disable' }).click();
  const question = page.getByRole('alertdialog', { name: 'Disable this account?' });
  await question.getByRole('button', { name: 'Disable account' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `${account.email} is disabled.` })).toBeVisible();
  await expect(userRow(page, account.email)).toContainText('Disabled');

  const status = await newcomer.evaluate(
    (t) => fetch('/api/demo/patients', { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.status),
    token,
  );
  expect(status).toBe(401);
  // The app's next call is refused too, which ends the session on the provider's sign-in page.
  await newcomer.goto(`${originOf('demo')}/patients`);
  await expect(newcomer).toHaveURL(/\/idp\/interaction\//);
  await submitProviderSignIn(newcomer, account.email, account.password);
  await expect(newcomer.getByRole('alert')).toHaveText('Incorrect email or password.');
  await theirs.close();

  // The audit trail tells the story.
  await page.getByRole('tab', { name: 'Audit trail' }).click();
  const trail = page.getByTestId('audit-table');
  for (const action of ['User created', 'Role changed', 'Account disabled', 'Sign-in failed']) {
    await expect(trail.getByRole('row').filter({ hasText: action }).filter({ hasText: account.email }).first()).toBeVisible();
  }
});

test('a clinician sees Users disabled and "Not permitted" on /users', async ({ page }) => {
  await signIn(page, clinician());
  await expect(usersButton(page)).toHaveAttribute('aria-disabled', 'true');
  await page.goto(`${originOf('demo')}/users`);
  await expect(page.getByText('Not permitted')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  const status = await page.evaluate(
    (t) => fetch('/api/demo/users', { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.status),
    await storedIdToken(page),
  );
  expect(status).toBe(403);
});

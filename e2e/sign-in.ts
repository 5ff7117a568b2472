import { expect, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { demoAccounts } from '../src/server/seed/demo-accounts.ts';

export const clinician = (tenantId = 'demo') => demoAccounts(tenantId)[1]!;
export const administrator = (tenantId = 'demo') => demoAccounts(tenantId)[0]!;

/** Fills the embedded provider's sign-in page, which the app has redirected to. */
export async function submitProviderSignIn(page: Page, email: string, password: string): Promise<void> {
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the real provider and waits for the patients list. */
export async function signIn(page: Page, account = clinician(), path = '/patients'): Promise<void> {
  await page.goto(`${originOf(account.tenantId)}${path}`);
  await submitProviderSignIn(page, account.email, account.password);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
}

/** The ID token the app keeps in session storage (oidc-client-ts user store). */
export async function storedIdToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i)!;
      if (key.startsWith('oidc.user:')) return JSON.parse(sessionStorage.getItem(key)!).id_token as string;
    }
    throw new Error('no signed-in user in session storage');
  });
}

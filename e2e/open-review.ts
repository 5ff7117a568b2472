import { expect, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { clinician, signIn, submitProviderSignIn } from './sign-in.ts';

/** The review address of DEM-001's 300-frame record. */
export async function shortRecordHref(page: Page): Promise<string> {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  return `${originOf('demo')}${await link.getAttribute('href')}`;
}

/** Signs in, opens the 300-frame demo record and waits until every frame is in the page. */
export async function openLoadedReview(page: Page): Promise<void> {
  await signIn(page);
  await page.goto(await shortRecordHref(page));
  await expect(page.getByTestId('frames-status')).toHaveText(/300 B-mode and 40 angio frames (loaded|downloaded)/, { timeout: 60_000 });
}

/**
 * Opens a review without images in another tab of the same browser profile: the tab signs in again
 * when asked (the session is kept per tab), as a clinician would.
 */
export async function openReviewInNewTab(next: Page, href: string): Promise<void> {
  await next.goto(`${href}?noImage=true`);
  const email = next.getByLabel('Email');
  await expect(email.or(next.getByTestId('annotations-status'))).toBeVisible();
  if (await email.isVisible()) await submitProviderSignIn(next, clinician().email, clinician().password);
  await expect(next).toHaveURL(/\/review/);
}

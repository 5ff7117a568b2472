/**
 * Issue 27, first load: signing in and the patients list download none of the review's code (its
 * session, pixi, the codecs); the records page fetches it while the clinician picks a record. The chunks are named by the build's manifest,
 * so the check follows the hashed file names of whatever was built.
 */
import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { FIRST_LOAD_BUDGET_BYTES, firstLoad, gzipBytesOf, readManifest, reviewOpen, totalGzip } from '../bench/bundle-chunks.ts';
import { signIn } from './sign-in.ts';

/** The paths of the JavaScript files the page has requested so far. */
function recordScripts(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) requested.push(pathname);
  });
  return requested;
}

test('the patients list loads within the budget and without the review code, which the records page fetches before a record is opened', async ({ page }) => {
  const reviewFiles = reviewOpen(readManifest()).map((chunk) => `/${chunk.file}`);
  const reviewRoute = reviewFiles.filter((file) => /\/review-route-/.test(file));
  expect(reviewRoute).toHaveLength(1);
  const requested = recordScripts(page);

  await signIn(page);
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  expect(requested.filter((file) => reviewFiles.includes(file))).toEqual([]);
  // Issue 27's budget: what sign-in and the patients list made the browser download, gzip-sized,
  // and the build's own account of it (the entry and its static imports).
  const downloaded = [...new Set(requested)].filter((file) => file.startsWith('/assets/'));
  const downloadedGzip = downloaded.reduce((sum, file) => sum + gzipBytesOf(file.slice(1)), 0);
  expect(downloadedGzip).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  expect(totalGzip(firstLoad(readManifest()))).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  // The playback toolbar, the toaster and the confirmation dialog are not part of it.
  expect(downloaded.filter((file) => /\/(right-toolbar|toast-list|confirm-dialog)-/.test(file))).toEqual([]);

  // A record is opened from the records page: it fetches the review's code once the browser is
  // idle, before any click (issue 27, first open to Play), so the click does not wait for it.
  await page.getByTestId('patient-row').filter({ hasText: 'DEM-001' }).click();
  await expect(page).toHaveURL(`${originOf('demo')}/patients/DEM-001/records`);
  await expect(page.getByTestId('record-card').first()).toBeVisible();
  await expect.poll(() => requested.filter((file) => reviewRoute.includes(file))).toEqual(reviewRoute);

  await page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link').click();
  await expect(page.getByRole('complementary', { name: 'Playback toolbar' })).toBeVisible();
  expect(requested).toEqual(expect.arrayContaining(reviewRoute));
  // The playback toolbar's code arrives with the review.
  await expect(page.getByRole('complementary', { name: 'Playback toolbar' }).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  expect(requested.some((file) => /\/right-toolbar-/.test(file))).toBe(true);
});

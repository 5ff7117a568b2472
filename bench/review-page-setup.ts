/**
 * The review page the playback benches measure (issue 27): signed in, DEM-001's record of `frames`
 * B-mode frames open, every frame downloaded and the server idle, so that what a bench then times
 * is playback alone, not downloads or detection running beside it.
 * `beforeOpen`: runs on the signed-in page before the review loads (e.g. an init script that
 * counts React commits must be there before React starts).
 */
import type { Browser, Page } from '@playwright/test';
import { signedInPage, waitForServerIdle, type BenchServer } from './browser-bench.ts';

export async function openDownloadedReview(browser: Browser, server: BenchServer, frames: number, beforeOpen?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await signedInPage(browser, server.origin);
  await beforeOpen?.(page);
  await page.goto(`${server.origin}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: new RegExp(`B-mode:\\s*${frames.toLocaleString('en-US')} frames`) }).getByRole('link');
  await page.goto(`${server.origin}${await link.getAttribute('href')}`);
  await page
    .getByTestId('frames-status')
    .filter({ hasText: new RegExp(`All ${frames.toLocaleString('en-US')} B-mode and \\d+ angio frames downloaded`) })
    .waitFor({ timeout: 600_000 });
  await waitForServerIdle(server);
  return page;
}

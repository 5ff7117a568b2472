import { expect, test, type Route } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

// The contours API is held back by page.route, which does not see what a service worker fetches.
test.use({ serviceWorkers: 'block' });

/**
 * Issue 23: while a record's borders are still being detected, the server publishes provisional
 * figures (the frames detected so far, coarse to fine). The review shows them at once, and says in
 * words, on the block and on the plot, that they are provisional, so a clinician cannot take the
 * provisional MLA for the final one; once every frame is in, the final MLA replaces it unlabelled.
 * The server's answers are held at "processing" here, so the provisional state lasts as long as the
 * test needs it (the real detection publishes the same bodies: tests/server/contours-provisional.test.ts).
 */
test('a provisional MLA is labelled provisional until the final contours replace it', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  const href = (await link.getAttribute('href'))!;

  // Frames 1-16 and 65-80 detected; the smallest lumen among them at slice 70.
  const slices = [...Array.from({ length: 16 }, (_, k) => k + 1), ...Array.from({ length: 16 }, (_, k) => k + 65)].map((slice) => ({
    slice,
    areaMm2: slice === 70 ? 3.21 : 6.5,
    minDiameterMm: slice === 70 ? 1.9 : 2.8,
    maxDiameterMm: slice === 70 ? 2.2 : 3.0,
  }));
  const provisional = { status: 'provisional', version: 'any', frameCount: 300, detectedFrames: slices.length, slices, mla: { slice: 70, areaMm2: 3.21 }, references: { proximal: { slice: 80, areaMm2: 6.5 }, distal: { slice: 16, areaMm2: 6.5 } }, stenosisPercent: 50.62 };
  let holding = true;
  const hold = async (route: Route) => {
    if (!holding) return route.continue();
    if (new URL(route.request().url()).pathname.endsWith('/contours/provisional')) return route.fulfill({ json: provisional });
    return route.fulfill({ status: 202, json: { status: 'processing', done: 32, total: 300, provisionalFrames: slices.length } });
  };
  await page.route(/\/api\/demo\/records\/[^/]+\/contours(\/provisional)?(\?.*)?$/, hold);
  await page.goto(`${originOf('demo')}${href}?noImage=true`);

  const mla = page.getByTestId('result-mla');
  await expect(mla).toHaveAttribute('data-provisional', 'true');
  await expect(mla).toHaveAttribute('data-slice', '70');
  await expect(mla).toContainText(/MLA \(provisional\)\s*3\.21 mm²/);
  await expect(page.getByTestId('results-provisional')).toHaveText('Provisional: from 32 of 300 frames, refining…');
  await expect(page.getByTestId('provisional-plot')).toContainText(/provisional/i);
  // The provisional MLA's line on the plot (a zero-width SVG line, so counted rather than "visible").
  await expect(page.getByTestId('provisional-mla-line')).toHaveCount(1);
  // Provisional figures cannot leave the review: no exports until the final contours.
  await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'PDF report' })).toHaveCount(0);

  // The real server's contours once they are all in (detected for the 300 frames): the label goes.
  holding = false;
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 150_000 });
  await expect(mla).not.toHaveAttribute('data-provisional', 'true');
  await expect(mla).toContainText(/^MLA\s*\d+\.\d\d mm²/);
  await expect(page.getByTestId('results-provisional')).toHaveCount(0);
  await expect(page.getByTestId('provisional-plot')).toHaveCount(0);
});

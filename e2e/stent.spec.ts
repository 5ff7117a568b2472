/**
 * Issue 28, stent analysis: from the review, one click under the results block reads the stent from
 * the loaded frames. The demo record is a native vessel: it says so, rather than inventing a stent.
 */
import { expect, test } from '@playwright/test';
import { openLoadedReview } from './open-review.ts';

test('the stent analysis is one click from the review and finds no stent in a native vessel', async ({ page }) => {
  test.setTimeout(240_000);
  await openLoadedReview(page);
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });
  const button = page.getByRole('button', { name: 'Stent analysis' });
  await expect(button).toBeVisible();
  await button.click();
  await expect(page.getByTestId('stent-results')).toHaveText('No stent detected', { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Read the stent again' })).toBeEnabled();
  // No stent: no stent marker on the plot and no stent border on the frame, rather than invented ones.
  await expect(page.getByTestId('stent-msa-marker')).toHaveCount(0);
  await expect(page.getByTestId('stent-distal-edge-marker')).toHaveCount(0);
  await expect(page.getByTestId('stent-border')).toHaveCount(0);
});

import { expect, test } from '@playwright/test';
import { signIn } from './sign-in.ts';
import { shortRecordHref } from './open-review.ts';

/**
 * The playback toolbar's code loads apart from the review's. When it comes late (a busy machine, a
 * slow link), the review must not narrow as it arrives: a click on the pullback plot a moment before
 * would land on another slice (seen in CI: 57 px, slice 110 became 116).
 */
test('the review keeps its width while the playback toolbar loads, and when it arrives', async ({ page }) => {
  await signIn(page);
  const href = await shortRecordHref(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/right-toolbar-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${href}?noImage=true`);
  await expect(page.getByTestId('annotations-status')).toBeVisible();
  await expect(page.getByTestId('right-toolbar-placeholder')).toBeVisible();
  await expect(page.getByTestId('right-toolbar')).toHaveCount(0);
  const main = page.getByRole('main');
  const before = (await main.boundingBox())!.width;

  release();
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await expect(page.getByTestId('right-toolbar-placeholder')).toHaveCount(0);
  expect((await main.boundingBox())!.width).toBe(before);
});

import { expect, test } from '@playwright/test';
import { canvasStats } from './canvas-pixels.ts';
import { originOf } from '../playwright.config.ts';
import { clinician, signIn } from './sign-in.ts';

// A record no other spec opens (acme's ACM-002 has one 700-frame pullback), on a server started
// with a fresh data directory and without demo pre-generation: its frames do not exist yet.
const PATIENT = 'ACM-002';

test('a record opened for the first time shows its B-mode, angio and L-mode images and enables Play while its frames are still being made', async ({ page }) => {
  await signIn(page, clinician('acme'));
  await page.goto(`${originOf('acme')}/patients/${PATIENT}/records`);
  await page.getByTestId('record-card').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/review$/);

  // The whole 700-frame pullback takes the server about ten seconds to make; the first images come long before.
  for (const panel of ['bmode', 'angio']) {
    const canvas = page.getByTestId(`panel-canvas-${panel}`);
    await expect(canvas).toHaveAttribute('data-drawn-slice', '1', { timeout: 30_000 });
    await expect.poll(() => canvasStats(canvas).then((stats) => stats.std), { message: `${panel} shows an image`, timeout: 30_000 }).toBeGreaterThan(20);
  }
  await expect(page.getByRole('button', { name: 'Play', exact: true })).not.toHaveAttribute('aria-disabled', 'true', { timeout: 30_000 });
  // The L-mode is built in the page from the frames already there: columns appear as they arrive, long before the last frame exists.
  const lmode = page.getByTestId('panel-canvas-lmode');
  await expect(lmode).toHaveAttribute('data-drawn-slice', '1', { timeout: 30_000 });
  await expect.poll(() => canvasStats(lmode).then((stats) => stats.std), { message: 'lmode shows the frames that have arrived', timeout: 30_000 }).toBeGreaterThan(20);
});

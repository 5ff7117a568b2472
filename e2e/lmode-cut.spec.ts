import { expect, test, type Page } from '@playwright/test';
import { grayLevels, grayStats, meanDifference } from './canvas-pixels.ts';
import { openLoadedReview } from './open-review.ts';

/** The drawn cut line's direction on screen, in degrees [0, 360) (the B-mode keeps its aspect ratio, so it is the image's). */
async function drawnLineAngle(page: Page): Promise<number> {
  const line = page.getByTestId('lmode-cut-line').locator('line');
  const [x1, y1, x2, y2] = await Promise.all(['x1', 'y1', 'x2', 'y2'].map(async (name) => Number(await line.getAttribute(name))));
  const degrees = (Math.atan2(y2! - y1!, x2! - x1!) * 180) / Math.PI;
  return (degrees + 360) % 360;
}

test('turning the cut line with the keyboard and by dragging recomputes the L-mode view', async ({ page }) => {
  await openLoadedReview(page);
  const lmode = page.getByTestId('panel-canvas-lmode');
  const handle = page.getByRole('slider', { name: 'L-mode cut angle' });
  await expect(handle).toHaveAttribute('aria-valuenow', '90');
  // Built in the page from the frames: a real image, not a black or uniform canvas.
  await expect.poll(async () => grayStats(await grayLevels(lmode)).std, { timeout: 10_000 }).toBeGreaterThan(20);
  const at90 = await grayLevels(lmode);
  expect(await drawnLineAngle(page)).toBeCloseTo(90, 0);

  await handle.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '131');
  await expect(handle).toHaveAttribute('aria-valuetext', '131°');
  // The arrow keys turned the line, not the slice.
  await expect(page.getByTestId('slice-indicator')).toContainText('Slice 1 / 300');
  await expect(page.getByTestId('lmode-cut-line')).toHaveAttribute('data-angle', '131');
  expect(await drawnLineAngle(page)).toBeCloseTo(131, 0);
  await expect.poll(async () => meanDifference(await grayLevels(lmode), at90)).toBeGreaterThan(3);
  const at131 = await grayLevels(lmode);

  // Drag the handle to the right of the B-mode image's centre: the line turns to 0°.
  const bmode = (await page.getByTestId('panel-canvas-bmode').boundingBox())!;
  const start = (await handle.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(bmode.x + bmode.width / 2 + 60, bmode.y + bmode.height / 2 + 20, { steps: 5 });
  await page.mouse.move(bmode.x + bmode.width / 2 + 100, bmode.y + bmode.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', /^(0|1|359)$/);
  const dragged = await drawnLineAngle(page);
  expect(Math.min(dragged, 360 - dragged)).toBeLessThan(1.5);
  await expect.poll(async () => meanDifference(await grayLevels(lmode), at131)).toBeGreaterThan(3);

  // Wrap-around: one step left from 0° is 359°.
  await handle.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', /^(349|350|351)$/);
});

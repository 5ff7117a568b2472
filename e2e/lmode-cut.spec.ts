import { expect, test, type Locator, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

/** Opens the 300-frame demo record and waits until every frame is in the page. */
async function openLoadedReview(page: Page): Promise<void> {
  await signIn(page);
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}`);
  await expect(page.getByTestId('frames-status')).toHaveText(/300 B-mode and 40 angio frames (loaded|downloaded)/, { timeout: 60_000 });
}

/** The gray levels a canvas shows (its red channel), read from a screenshot of it. */
async function grayLevels(page: Page, canvas: Locator): Promise<number[]> {
  const png = await canvas.screenshot();
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const context = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    return Array.from({ length: data.length / 4 }, (_, i) => data[i * 4]!);
  }, png.toString('base64'));
}

function meanDifference(a: number[], b: number[]): number {
  if (a.length !== b.length) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function spread(values: number[]): number {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
}

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
  await expect.poll(async () => spread(await grayLevels(page, lmode)), { timeout: 10_000 }).toBeGreaterThan(20);
  const at90 = await grayLevels(page, lmode);
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
  await expect.poll(async () => meanDifference(await grayLevels(page, lmode), at90)).toBeGreaterThan(3);
  const at131 = await grayLevels(page, lmode);

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
  await expect.poll(async () => meanDifference(await grayLevels(page, lmode), at131)).toBeGreaterThan(3);

  // Wrap-around: one step left from 0° is 359°.
  await handle.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', /^(349|350|351)$/);
});

/**
 * Issue 28, the stent border corrected by hand as the lumen and vessel are: on a post-PCI demo run,
 * once the stent is read, the contour tool shows the MSA slice's stent border with control points;
 * a drag makes it the slice's correction (the MSA reads the drawn border and the results name the
 * corrected slice), Ctrl+Z undoes it and Ctrl+Shift+Z redoes it, Save keeps it in the annotations
 * (back after a reload), and the CSV names the corrected slice.
 */
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

/** All of the post-PCI run's frames are in the page. */
const FRAMES_LOADED = /600 B-mode and \d+ angio frames (loaded|downloaded)/;

/** Opens DEM-002's only run, 'LAD post-PCI' (600 frames showing the stent implanted before it), and waits for every frame. */
async function openPostPciRecord(page: Page): Promise<void> {
  await page.goto(`${originOf('demo')}/patients/DEM-002/records`);
  const card = page.getByTestId('record-card').filter({ hasText: 'post-PCI' });
  await page.goto(`${originOf('demo')}${await card.getByRole('link').first().getAttribute('href')}`);
  await expect(page.getByTestId('frames-status')).toHaveText(FRAMES_LOADED, { timeout: 120_000 });
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });
}

/** Reads the stent from the loaded frames and goes to its MSA slice; answers the MSA (mm²) and its slice. */
async function readStentAtMsa(page: Page): Promise<{ msa: number; slice: number }> {
  await page.getByRole('button', { name: /^(Stent analysis|Read the stent again)$/ }).click();
  const msa = page.getByTestId('stent-msa');
  await expect(page.getByTestId('stent-msa-value')).toHaveText(/^\d+\.\d\d mm²$/, { timeout: 120_000 });
  const slice = Number(await msa.getAttribute('data-slice'));
  await msa.click();
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 600`);
  return { msa: Number.parseFloat((await page.getByTestId('stent-msa-value').textContent())!), slice };
}

const msaValue = async (page: Page) => Number.parseFloat((await page.getByTestId('stent-msa-value').textContent())!);

/** Drags the right-most of `points` by dx screen pixels, past the drag threshold in steps. */
async function dragRightmost(page: Page, points: Locator, dx: number): Promise<void> {
  const centres = await points.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('cx'))));
  const index = centres.reduce((best, x, i) => (x > centres[best]! ? i : best), 0);
  const box = (await points.nth(index).boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

test('the stent border is corrected by hand on the frame: the MSA reads it, undo and redo, saved with the annotations, named in the results and the CSV', async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page);
  await openPostPciRecord(page);
  const { msa: fitted, slice } = await readStentAtMsa(page);
  await expect(page.getByTestId('stent-msa')).not.toContainText('corrected by hand');

  // The contour tool shows the stent border beside the lumen and vessel, with control points to drag.
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  const stentPoints = page.getByTestId('stent-point');
  await expect(stentPoints).toHaveCount(16);
  const card = page.getByTestId('contour-card');
  await expect(card.getByTestId('stent-source')).toHaveText('fitted');

  // Pull the right-most point 25 px inwards: the slice's stent border is now the drawn one, smaller.
  await dragRightmost(page, stentPoints, -25);
  await expect(card.getByTestId('stent-source')).toHaveText('corrected');
  await expect(page.getByTestId('stent-msa')).toContainText(`stent border corrected by hand: slice ${slice}`);
  await expect.poll(() => msaValue(page)).toBeLessThan(fitted);
  const corrected = await msaValue(page);
  await expect(page.getByTestId('stent-msa')).toHaveAttribute('title', new RegExp(`Stent border corrected by hand on slice ${slice}`));

  // Undo brings the fitted border and its MSA back; redo the correction.
  await page.keyboard.press('Control+z');
  await expect(card.getByTestId('stent-source')).toHaveText('fitted');
  await expect(page.getByTestId('stent-msa')).not.toContainText('corrected by hand');
  await expect.poll(() => msaValue(page)).toBe(fitted);
  await page.keyboard.press('Control+Shift+z');
  await expect(card.getByTestId('stent-source')).toHaveText('corrected');
  await expect.poll(() => msaValue(page)).toBe(corrected);

  // The CSV's stent section names the corrected slice.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync(await (await download).path(), 'utf8');
  expect(csv).toContain(`Stent border corrected by hand,"${slice}"`);

  // Saved with the annotations: after a reload and a new reading, the slice keeps the drawn border and the MSA its figure.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('frames-status')).toHaveText(FRAMES_LOADED, { timeout: 120_000 });
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });
  const reread = await readStentAtMsa(page);
  expect(reread).toEqual({ msa: corrected, slice });
  await expect(page.getByTestId('stent-msa')).toContainText(`stent border corrected by hand: slice ${slice}`);
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(page.getByTestId('contour-card').getByTestId('stent-source')).toHaveText('corrected');

  // The shared demo record is left as it was found (e2e/stent.spec.ts reads its stent as detected):
  // Re-detect puts the fitted border back, and the MSA its figure.
  await page.getByRole('button', { name: 'Re-detect stent' }).click();
  await expect(page.getByTestId('contour-card').getByTestId('stent-source')).toHaveText('fitted');
  await expect.poll(() => msaValue(page)).toBe(fitted);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved').last()).toBeVisible();
});

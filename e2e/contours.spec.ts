import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

async function openShortRecord(page: Page): Promise<void> {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}?noImage=true`);
  // The server detects the lumen on every frame first (a few seconds for 300 frames).
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 90_000 });
}

/** Clicks the plot at a fraction of its width and answers the slice the review went to. */
async function clickPlot(page: Page, fraction: number): Promise<number> {
  const plot = page.getByTestId('pullback-plot');
  const box = (await plot.boundingBox())!;
  // The plot area starts 44 px in and ends 12 px before the right edge (pullback-plot.tsx).
  await plot.click({ position: { x: 44 + fraction * (box.width - 56), y: box.height / 2 } });
  // The cursor moves in the animation frame that draws the new slice.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return Number(await page.getByTestId('plot-cursor').getAttribute('data-slice'));
}

const area = async (page: Page) => Number(await page.getByTestId('contour-area').textContent());

test('contour tool: drag a point, the area follows, the correction is saved; the plot jumps to a slice; the CSV has every slice', async ({ page }) => {
  await signIn(page);
  await openShortRecord(page);
  await expect(page.getByTestId('mla-summary')).toContainText(/MLA \d+\.\d\d mm² at slice \d+/);

  const slice = await clickPlot(page, 0.5);
  expect(slice).toBeGreaterThan(130);
  expect(slice).toBeLessThan(170);
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 300`);

  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  const layer = page.getByTestId('contour-layer');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  const before = await area(page);
  expect(before).toBeGreaterThan(0);

  // Drag the right-most control point 40 px outwards: the lumen grows.
  const points = page.getByTestId('contour-point');
  const centres = await points.evaluateAll((nodes) => nodes.map((n) => ({ x: Number(n.getAttribute('cx')), y: Number(n.getAttribute('cy')) })));
  const index = centres.reduce((best, p, i) => (p.x > centres[best]!.x ? i : best), 0);
  const handle = (await points.nth(index).boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 40, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(layer).toHaveAttribute('data-source', 'manual');
  const after = await area(page);
  expect(after).toBeGreaterThan(before);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();

  // The correction comes back after a reload, with its area.
  await page.reload();
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 30_000 });
  expect(await clickPlot(page, 0.5)).toBe(slice);
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(layer).toHaveAttribute('data-source', 'manual');
  expect(await area(page)).toBe(after);

  // The CSV: a header and one row per slice; the corrected slice says so, with the area shown.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync(await (await download).path(), 'utf8').trim().split(/\r?\n/);
  expect(csv[0]).toBe('slice,position_mm,lumen_area_mm2,min_diameter_mm,max_diameter_mm,eccentricity,source,flag');
  expect(csv).toHaveLength(301);
  const row = csv.find((line) => line.startsWith(`${slice},`))!.split(',');
  expect(row[6]).toBe('manual');
  expect(Number(row[2])).toBeCloseTo(after, 2);
  expect(csv.filter((line) => line.endsWith(',MLA'))).toHaveLength(1);

  // Re-detect drops the correction.
  await page.getByRole('button', { name: 'Re-detect' }).click();
  await expect(layer).toHaveAttribute('data-source', 'auto');
  expect(await area(page)).toBe(before);
});

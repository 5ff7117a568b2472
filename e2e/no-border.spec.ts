import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

/** Slices the detector is made not to read: the server's body is rewritten to send them without a border (issue 23). */
const UNREADABLE = { first: 100, last: 120 };
const isUnreadable = (slice: number) => slice >= UNREADABLE.first && slice <= UNREADABLE.last;

/**
 * The generator's frames are all readable, so the contours the server sends are rewritten on the
 * way in, the slices in UNREADABLE given as the server gives a frame it cannot read.
 */
async function withUnreadableSlices(page: Page): Promise<void> {
  await page.route('**/api/demo/records/*/contours*', async (route) => {
    // Node (where route.fetch runs) does not resolve tenant host names: the loopback address, with the tenant's Host.
    const url = new URL(route.request().url());
    const host = url.host;
    url.hostname = '127.0.0.1';
    const response = await route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
    if (response.status() !== 200) return route.fulfill({ response });
    const body = (await response.json()) as { contours: { slice: number; confidence: number }[]; lowConfidenceSlices: number[] };
    body.contours = body.contours.map((contour) => (isUnreadable(contour.slice) ? { slice: contour.slice, noBorder: true, confidence: 0.05 } : contour));
    body.lowConfidenceSlices = [...new Set([...body.lowConfidenceSlices, ...body.contours.filter((c) => isUnreadable(c.slice)).map((c) => c.slice)])].sort((a, b) => a - b);
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

test('frames the detector could not read: a gap in the plot, "No border" in the cross-section, a border drawn by hand counts, empty CSV cells', async ({ page }) => {
  // Detection of both borders on the 300 frames comes first.
  test.setTimeout(180_000);
  await withUnreadableSlices(page);
  await signIn(page);
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}?noImage=true`);
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });

  // The lumen-area curve breaks over the unreadable run (a second move starts after it), which is shaded and counted.
  const runs = ((await page.getByTestId('lumen-area-curve').getAttribute('d')) ?? '').split('M').filter(Boolean);
  expect(runs).toHaveLength(2);
  expect(runs[0]!.split('L')).toHaveLength(UNREADABLE.first - 1);
  await expect(page.getByTestId('no-border-marks')).toHaveAttribute('data-count', '21');
  await expect(page.getByTestId('no-border-count')).toHaveText('21 slices without a border');
  await expect(page.getByTestId('slices-to-check')).toContainText('21 with no border');
  const mlaSlice = Number(await page.getByTestId('mla-flag').getAttribute('data-slice'));
  expect(isUnreadable(mlaSlice)).toBe(false);

  // Go to slice 110 on the plot, then the contour tool: no border drawn, the card says why.
  const plot = page.getByTestId('pullback-plot');
  const box = (await plot.boundingBox())!;
  const left = Number(await plot.getAttribute('data-plot-left'));
  const width = Number(await plot.getAttribute('data-plot-width'));
  await plot.click({ position: { x: left + (109 / 299) * width, y: box.height / 2 } });
  await expect(page.getByTestId('slice-indicator')).toContainText('Slice 110 / 300');
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(page.getByTestId('no-border')).toHaveText('No border — the detector could not read this frame');
  await expect(page.getByTestId('lumen-contour')).toHaveCount(0);
  await expect(page.getByTestId('vessel-contour')).toHaveCount(0);
  await expect(page.getByTestId('contour-area')).toHaveCount(0);

  // The clinician draws a lumen by hand: it is shown, measured and counted as a manual border.
  await page.getByRole('button', { name: 'Draw lumen' }).click();
  await expect(page.getByTestId('lumen-contour')).toBeVisible();
  await expect(page.getByTestId('contour-layer')).toHaveAttribute('data-source', 'manual');
  expect(Number(await page.getByTestId('contour-area').textContent())).toBeGreaterThan(0);

  // The CSV: empty cells (not 0) on a slice without a border, the drawn lumen's area on slice 110.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync(await (await download).path(), 'utf8').trim().split(/\r?\n/);
  const column = (name: string) => csv[0]!.split(',').indexOf(name);
  const row = (slice: number) => csv.find((line) => line.startsWith(`${slice},`))!.split(',');
  expect(row(105)[column('lumen_area_mm2')]).toBe('');
  expect(row(105)[column('vessel_area_mm2')]).toBe('');
  expect(row(105)[column('plaque_burden_percent')]).toBe('');
  expect(row(105)[column('flag')]).toContain('no border');
  expect(Number(row(110)[column('lumen_area_mm2')])).toBeGreaterThan(0);
  expect(row(110)[column('lumen_source')]).toBe('manual');
});

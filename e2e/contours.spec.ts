import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';

/** The lumen's and the vessel's colours (domain/constants.ts: CONTOUR_COLOR, VESSEL_CONTOUR_COLOR). */
const LUMEN_COLOR = '#9cc5c6';
const VESSEL_COLOR = '#f4a259';

async function openShortRecord(page: Page): Promise<void> {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}?noImage=true`);
  // The server detects both borders on every frame first (several seconds for 300 frames).
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });
}

/** Clicks the plot at a fraction of its plot area's width and answers the slice the review went to. */
async function clickPlot(page: Page, fraction: number): Promise<number> {
  const plot = page.getByTestId('pullback-plot');
  const box = (await plot.boundingBox())!;
  // The plot area's left edge and width, as the plot itself laid them out (pullback-plot.tsx).
  const left = Number(await plot.getAttribute('data-plot-left'));
  const width = Number(await plot.getAttribute('data-plot-width'));
  await plot.click({ position: { x: left + fraction * width, y: box.height / 2 } });
  return shownSlice(page);
}

/** The slice the plot's cursor stands at, once the animation frame that draws a new slice has run. */
async function shownSlice(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return Number(await page.getByTestId('plot-cursor').getAttribute('data-slice'));
}

const numberIn = async (locator: Locator) => Number(await locator.textContent());

/** Centres of a set of control-point circles, in the order they are drawn. */
const centresOf = (points: Locator) => points.evaluateAll((nodes) => nodes.map((n) => ({ x: Number(n.getAttribute('cx')), y: Number(n.getAttribute('cy')) })));

/** Drags control point `index` of `points` by (dx, dy) screen pixels, past the drag threshold in steps. */
async function dragPoint(page: Page, points: Locator, index: number, dx: number, dy: number): Promise<void> {
  const handle = (await points.nth(index).boundingBox())!;
  const [x, y] = [handle.x + handle.width / 2, handle.y + handle.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

test('contour tool: both borders drawn, lumen and vessel drags are saved corrections; the plot has plaque burden and jumps to a slice; the CSV has every slice', async ({ page }) => {
  // Detection of both borders on the 300 frames comes first.
  test.setTimeout(180_000);
  await signIn(page);
  await openShortRecord(page);
  await expect(page.getByTestId('result-mla')).toContainText(/MLA\s*\d+\.\d\d mm².*slice \d+/);
  await expect(page.getByTestId('mla-plaque-burden')).toContainText(/Plaque burden at the MLA \d+ %/);

  // The plaque burden is a second curve, in the vessel's colour, with its own axis and a legend entry.
  const burden = page.getByTestId('plaque-burden-curve');
  await expect(burden).toHaveAttribute('stroke', VESSEL_COLOR);
  expect(((await burden.getAttribute('d')) ?? '').match(/[ML]/g)?.length).toBeGreaterThan(250);
  await expect(page.getByTestId('lumen-area-curve')).toHaveAttribute('stroke', LUMEN_COLOR);
  await expect(page.getByTestId('plot-legend')).toContainText('Plaque burden (%, right)');
  await expect(page.getByTestId('max-plaque-burden')).toContainText(/Max plaque burden \d+ % at slice \d+/);

  // The low-confidence slices: as many marked on the plot as the drawer counts; N goes to the first one.
  const toCheck = Number(await page.getByTestId('slices-to-check').getAttribute('data-count'));
  await expect(page.getByTestId('low-confidence-marks')).toHaveAttribute('data-count', String(toCheck));
  if (toCheck > 0) {
    await expect(page.getByTestId('slices-to-check')).toContainText(`${toCheck} slice${toCheck === 1 ? '' : 's'} to check`);
    // The marks are bands of consecutive slices: the slices to check after slice 1 are read from them.
    const bands = await page
      .getByTestId('low-confidence-marks')
      .locator('rect')
      .evaluateAll((rects) => rects.map((r) => [Number(r.getAttribute('data-first')), Number(r.getAttribute('data-last'))] as const));
    const after1 = bands.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, k) => first + k)).find((s) => s > 1);
    await page.keyboard.press('Home');
    await page.keyboard.press('n');
    expect(await shownSlice(page)).toBe(after1 ?? 1);
  } else {
    await expect(page.getByTestId('slices-to-check')).toHaveText('No low-confidence slice');
  }

  const slice = await clickPlot(page, 0.5);
  expect(slice).toBeGreaterThan(130);
  expect(slice).toBeLessThan(170);
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 300`);

  // The contour tool draws both borders, each in its colour with its control points.
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  const layer = page.getByTestId('contour-layer');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  await expect(layer).toHaveAttribute('data-vessel-source', 'auto');
  await expect(page.getByTestId('lumen-contour')).toHaveAttribute('stroke', LUMEN_COLOR);
  await expect(page.getByTestId('vessel-contour')).toHaveAttribute('stroke', VESSEL_COLOR);
  const lumenPoints = page.getByTestId('contour-point');
  const vesselPoints = page.getByTestId('vessel-point');
  await expect(vesselPoints).toHaveCount(16);
  const card = page.getByTestId('contour-card');
  // The figures are in the frame readout (issue 26), where the borders came from in the card.
  await expect(page.getByTestId('frame-readout').getByTestId('plaque-burden')).toHaveText(/^\d+$/);
  await expect(card.getByTestId('lumen-source')).toHaveText('automatic');
  await expect(card.getByTestId('contour-confidence')).toContainText(/Confidence \d\.\d\d/);
  const before = await numberIn(page.getByTestId('contour-area'));
  const vesselBefore = await numberIn(page.getByTestId('vessel-area'));
  expect(before).toBeGreaterThan(0);
  expect(vesselBefore).toBeGreaterThan(before);

  // Drag the right-most lumen point 40 px outwards: the lumen grows, the vessel stays.
  const lumenCentres = await centresOf(lumenPoints);
  await dragPoint(page, lumenPoints, lumenCentres.reduce((best, p, i) => (p.x > lumenCentres[best]!.x ? i : best), 0), 40, 0);
  await expect(layer).toHaveAttribute('data-source', 'manual');
  await expect(layer).toHaveAttribute('data-vessel-source', 'auto');
  const after = await numberIn(page.getByTestId('contour-area'));
  expect(after).toBeGreaterThan(before);
  expect(await numberIn(page.getByTestId('vessel-area'))).toBe(vesselBefore);

  // Drag the left-most vessel point 30 px outwards (away from the lumen just moved): a vessel correction.
  const vesselCentres = await centresOf(vesselPoints);
  await dragPoint(page, vesselPoints, vesselCentres.reduce((best, p, i) => (p.x < vesselCentres[best]!.x ? i : best), 0), -30, 0);
  await expect(layer).toHaveAttribute('data-vessel-source', 'manual');
  const vesselAfter = await numberIn(page.getByTestId('vessel-area'));
  expect(vesselAfter).toBeGreaterThan(vesselBefore);
  expect(await numberIn(page.getByTestId('contour-area'))).toBe(after);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();

  // Both corrections come back after a reload, with their areas.
  await page.reload();
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 60_000 });
  expect(await clickPlot(page, 0.5)).toBe(slice);
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(layer).toHaveAttribute('data-source', 'manual');
  await expect(layer).toHaveAttribute('data-vessel-source', 'manual');
  expect(await numberIn(page.getByTestId('contour-area'))).toBe(after);
  expect(await numberIn(page.getByTestId('vessel-area'))).toBe(vesselAfter);

  // The CSV: a header and one row per slice (then the measurements); the corrected slice names both sources, with the areas shown.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csvText = fs.readFileSync(await (await download).path(), 'utf8');
  // UTF-8 behind a byte order mark, so spreadsheet programs read names and units as written.
  expect(csvText.startsWith('\uFEFF')).toBe(true);
  // Two tables, an empty line between: one row per slice, then the clinician's own measurements.
  const [sliceTable, measurementTable] = csvText.slice(1).split('\r\n\r\n');
  expect(measurementTable!.split('\r\n')[0]).toBe('measurement,slice,position_mm,kind,value,unit,note');
  const csv = sliceTable!.trim().split(/\r?\n/);
  expect(csv[0]).toBe(
    'slice,position_mm,lumen_area_mm2,min_diameter_mm,max_diameter_mm,eccentricity,vessel_area_mm2,plaque_area_mm2,plaque_burden_percent,confidence,lumen_source,vessel_source,flag',
  );
  expect(csv).toHaveLength(301);
  const column = (name: string) => csv[0]!.split(',').indexOf(name);
  const row = csv.find((line) => line.startsWith(`${slice},`))!.split(',');
  expect(row[column('lumen_source')]).toBe('manual');
  expect(row[column('vessel_source')]).toBe('manual');
  expect(Number(row[column('lumen_area_mm2')])).toBeCloseTo(after, 2);
  expect(Number(row[column('vessel_area_mm2')])).toBeCloseTo(vesselAfter, 2);
  const flags = (line: string) => line.split(',')[column('flag')]!.split('; ');
  expect(csv.slice(1).filter((line) => flags(line).includes('MLA'))).toHaveLength(1);
  expect(csv.slice(1).filter((line) => flags(line).includes('max plaque burden'))).toHaveLength(1);
  expect(csv.slice(1).filter((line) => flags(line).includes('low confidence'))).toHaveLength(toCheck);

  // The PDF report: its Unicode font is a static asset fetched (under the CSP) when a report is made.
  const pdfDownload = page.waitForEvent('download');
  const fontFetched = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('.ttf'));
  await page.getByRole('button', { name: 'PDF report' }).click();
  expect((await fontFetched).status()).toBe(200);
  const pdf = fs.readFileSync(await (await pdfDownload).path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // Re-detect drops each correction on its own.
  await page.getByRole('button', { name: 'Re-detect lumen' }).click();
  await expect(layer).toHaveAttribute('data-source', 'auto');
  await expect(layer).toHaveAttribute('data-vessel-source', 'manual');
  expect(await numberIn(page.getByTestId('contour-area'))).toBe(before);
  await page.getByRole('button', { name: 'Re-detect vessel' }).click();
  await expect(layer).toHaveAttribute('data-vessel-source', 'auto');
  expect(await numberIn(page.getByTestId('vessel-area'))).toBe(vesselBefore);
});

test('the panels keep their size when the borders arrive: nothing moves under the pointer', async ({ page }) => {
  // The wait for the borders below (up to 120 s under load) must fit in the test's own time.
  test.setTimeout(180_000);
  await signIn(page);
  // A record no other spec opens, so its borders are still being detected when the review opens.
  await page.goto(`${originOf('demo')}/patients/DEM-007/records`);
  await page.getByTestId('record-card').first().getByRole('link').click();
  await expect(page.getByTestId('pullback-analysis-pending')).toBeVisible();
  const overlay = page.getByTestId('annotation-overlay');
  const before = (await overlay.boundingBox())!;
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });
  const after = (await overlay.boundingBox())!;
  expect(Math.abs(after.height - before.height)).toBeLessThanOrEqual(1);
  expect(after.y).toBe(before.y);
});

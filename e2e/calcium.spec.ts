/**
 * Issue 28, calcium: on the review of a demo pullback (its calcium arc has an acoustic shadow), the
 * L-mode strip shows the calcium band with its legend, and the analysis's header the calcium score,
 * whose details (one click) give its four components and how it is defined; the largest arc is a
 * second click from its slice, where the slice's own arc is read out; the CSV carries it all.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { shortRecordHref } from './open-review.ts';
import { signIn } from './sign-in.ts';
import { pixelsOfColors } from './canvas-pixels.ts';
import { calciumArcColor } from '../src/web/review/calcium/calcium-colors.ts';

test('calcium: a band on the L-mode strip, the score with its components, and the largest arc one click away', async ({ page }) => {
  // The server detects the borders (and the calcium) of the 300 frames on the first open.
  test.setTimeout(240_000);
  await signIn(page);
  await page.goto(await shortRecordHref(page));
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });

  // The score sits in the analysis's header row (no height taken from the panels); one click opens its details.
  const scoreButton = page.getByTestId('calcium-score');
  await expect(page.getByTestId('calcium-score-value')).toHaveText(/^[0-4] \/ 4$/);
  await expect(scoreButton).toHaveAttribute('title', /IVUS calcium score \(Zhang et al\., Circ Cardiovasc Interv 2021\)/);
  await scoreButton.click();
  const results = page.getByTestId('calcium-results');
  await expect(results).toBeVisible();
  await expect(page.getByTestId('calcium-long-arc')).toHaveText(/^> 270° over > 5 mm: (0|1 point) \(\d+\.\d mm\)$/);
  await expect(page.getByTestId('calcium-circumferential')).toHaveText(/^360° calcium: (0|1 point)$/);
  await expect(page.getByTestId('calcium-nodule')).toHaveText(/^Calcified nodule: (0|1 point)$/);
  await expect(page.getByTestId('calcium-small-vessel')).toHaveText(/^Vessel Ø < 3.5 mm: (0|1 point) \(\d\.\d\d mm\)$/);
  await expect(page.getByTestId('calcium-longest')).toHaveText(/^Longest calcium: \d+\.\d mm$/);
  // How it was computed: the source definition, in the details.
  await expect(results).toContainText('IVUS calcium score (Zhang et al., Circ Cardiovasc Interv 2021)');
  await expect(page.getByTestId('calcium-legend')).toContainText('> 270°');

  // The band on the strip: bars on the slices with calcium, its legend as the band's title.
  const band = page.getByTestId('calcium-band');
  await expect(band).toHaveCount(1);
  expect(Number(await band.getAttribute('data-calcium-slices'))).toBeGreaterThan(0);
  await expect(band.locator('title')).toHaveText(/Calcium arc per slice: bar height = arc \(full band = 360°\)/);
  await expect(band.getByTestId('calcium-band-bars').first()).toHaveAttribute('d', /^M/);

  // One click from the largest arc to its slice, where the slice's arc is read out.
  const maxArc = page.getByTestId('calcium-max-arc');
  const arcText = (await maxArc.textContent()) ?? '';
  const maxDeg = Number(/max arc (\d+)°/.exec(arcText)?.[1]);
  expect(maxDeg).toBeGreaterThan(0);
  await maxArc.click();
  const slice = Number(await maxArc.getAttribute('data-slice'));
  await expect(page.getByTestId('slice-indicator')).toHaveText(new RegExp(`^Slice ${slice} /`));
  await expect(page.getByTestId('calcium-this-slice')).toHaveText(new RegExp(`^This slice: ${maxDeg}° \\(\\d+°–\\d+°\\)`));
  // There the arc is drawn on the frame in its band's colour, in the B-mode panel's WebGL scene with
  // the image (issue 27), and hidden with the borders (the details closed first: they cover the switch).
  await scoreButton.click();
  await expect(results).toBeHidden();
  const bmodeCanvas = page.locator('[data-panel="bmode"] canvas');
  const arcPixels = async () => (await pixelsOfColors(bmodeCanvas, [calciumArcColor(maxDeg)], 40)).length;
  await expect(page.getByTestId('calcium-arc')).toHaveAttribute('data-stroke', calciumArcColor(maxDeg));
  await expect.poll(arcPixels, { message: 'calcium arc pixels on the frame' }).toBeGreaterThan(40);
  await page.getByTestId('borders-toggle').click();
  await expect.poll(arcPixels, { message: 'calcium arc pixels with the borders off' }).toBe(0);
  await page.getByTestId('borders-toggle').click();
  await expect.poll(arcPixels, { message: 'calcium arc pixels with the borders on again' }).toBeGreaterThan(40);

  // The CSV export carries the score and the calcified slices, the largest arc's among them.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const tables = fs.readFileSync(await (await download).path(), 'utf8').slice(1).split('\r\n\r\n');
  const scoreTable = tables.find((table) => table.startsWith('calcium_score,points,detail'))!.split('\r\n');
  expect(scoreTable[1]).toMatch(/^total,[0-4],"IVUS calcium score/);
  const sliceTable = tables.find((table) => table.startsWith('slice,position_mm,calcium_arc_deg'))!.trim().split('\r\n');
  const row = sliceTable.find((line) => line.startsWith(`${slice},`))!.split(',');
  expect(Math.abs(Number(row[sliceTable[0]!.split(',').indexOf('calcium_arc_deg')]) - maxDeg)).toBeLessThanOrEqual(0.5);
});

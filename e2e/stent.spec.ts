/**
 * Issue 28, stent analysis: from the review, one click under the results block reads the stent from
 * the loaded frames. A pre-PCI demo record is a native vessel: it says so, rather than inventing a
 * stent; a post-PCI one shows its stent, whose references the clinician may move, kept when saved.
 */
import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { openLoadedReview } from './open-review.ts';
import { signIn } from './sign-in.ts';

test('the stent analysis is one click from the review and finds no stent in a native vessel', async ({ page }) => {
  test.setTimeout(240_000);
  await openLoadedReview(page);
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });
  // The borders come first and the server's stent (none here) a moment later (issue 23): "Reading the stent…" until then.
  const button = page.getByRole('button', { name: 'Stent analysis' });
  await expect(button).toBeVisible({ timeout: 60_000 });
  await button.click();
  await expect(page.getByTestId('stent-results')).toHaveText('No stent detected', { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Read the stent again' })).toBeEnabled();
  // No stent: no stent marker on the plot and no stent border on the frame, rather than invented ones.
  await expect(page.getByTestId('stent-msa-marker')).toHaveCount(0);
  await expect(page.getByTestId('stent-distal-edge-marker')).toHaveCount(0);
  await expect(page.getByTestId('stent-border')).toHaveCount(0);
});

/** The review address of DEM-002's record: its only run, 'LAD post-PCI', 600 frames with a deployed stent. */
async function stentedRecordHref(page: Page): Promise<string> {
  await page.goto(`${originOf('demo')}/patients/DEM-002/records`);
  const link = page.getByTestId('record-card').filter({ hasText: 'post-PCI' }).getByRole('link').first();
  return `${originOf('demo')}${await link.getAttribute('href')}`;
}

const percentOf = async (page: Page): Promise<number> => Number(/^(\d+) %$/.exec((await page.getByTestId('stent-expansion-value').textContent()) ?? '')?.[1]);

test('a post-PCI record: the stent is read with its MSA, expansion and markers, its border on the frame, and a reference moved by hand', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page.goto(await stentedRecordHref(page));
  await expect(page.getByTestId('frames-status')).toHaveText(/600 B-mode and \d+ angio frames (loaded|downloaded)/, { timeout: 120_000 });
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });
  // The server read the stent with the borders: it shows with them, with no reading in the page.
  await expect(page.getByTestId('stent-segment')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Read the stent again' })).toBeEnabled();
  await expect(page.getByTestId('stent-msa-value')).toHaveText(/^\d+\.\d\d mm²$/);
  await expect(page.getByTestId('stent-expansion-value')).toHaveText(/^\d+ %$/);
  for (const id of ['stent-distal-edge-marker', 'stent-msa-marker', 'stent-proximal-edge-marker', 'stent-distal-reference-marker', 'stent-proximal-reference-marker']) {
    await expect(page.getByTestId(id)).toHaveCount(1);
  }
  await expect(page.getByTestId('stent-area-curve')).toHaveCount(1);
  // The results column scrolls within the drawer: with the stent's results open the B-mode panel stays in view and usable.
  for (const size of [{ width: 1280, height: 800 }, { width: 1600, height: 900 }]) {
    await page.setViewportSize(size);
    await expect(page.getByTestId('panel-canvas-bmode')).toBeInViewport({ ratio: 0.95 });
    expect((await page.getByTestId('panel-canvas-bmode').boundingBox())!.height).toBeGreaterThan(200);
    await expect(page.getByTestId('stent-expansion')).toBeAttached();
    await page.screenshot({ path: test.info().outputPath(`stent-results-${size.width}x${size.height}.png`) });
  }

  // The MSA marker goes to its frame, where the stent border is drawn.
  const msaSlice = Number(await page.getByTestId('stent-msa-marker').getAttribute('data-slice'));
  await page.getByTestId('stent-msa-marker').locator('rect').click();
  await expect(page.getByTestId('slice-indicator')).toHaveText(new RegExp(`^Slice ${msaSlice} /`));
  await expect(page.getByTestId('stent-border')).toHaveCount(1);

  // The distal reference, focused, moves with the keys (Home: to the pullback's distal end, where the
  // vessel tapers; arrows: one slice, ten with Shift); expansion follows and says so.
  const reference = page.getByTestId('stent-distal-reference-marker');
  const before = Number(await reference.getAttribute('aria-valuenow'));
  const distalExpansion = async (): Promise<string | undefined> => /· (\d+ %) of the distal/.exec((await page.getByTestId('stent-expansion').textContent()) ?? '')?.[1];
  const distalBefore = await distalExpansion();
  await reference.focus();
  await page.keyboard.press('Home');
  await expect(reference).not.toHaveAttribute('aria-valuenow', String(before));
  const atEnd = Number(await reference.getAttribute('aria-valuenow'));
  expect(atEnd).toBeLessThan(before);
  await page.keyboard.press('ArrowRight');
  await expect(reference).not.toHaveAttribute('aria-valuenow', String(atEnd));
  const moved = Number(await reference.getAttribute('aria-valuenow'));
  expect(moved).toBeGreaterThan(atEnd);
  await expect(page.getByTestId('stent-expansion')).toContainText(`distal reference moved by hand to slice ${moved}`);
  // Expansion against the distal reference is read from the moved one: MSA ÷ its lumen area.
  expect(await distalExpansion()).not.toBe(distalBefore);
  const movedArea = Number(new RegExp(`moved by hand to slice ${moved} · (\\d+\\.\\d+) mm²`).exec((await page.getByTestId('stent-expansion').textContent()) ?? '')?.[1]);
  const msa = Number(/^(\d+\.\d+)/.exec((await page.getByTestId('stent-msa-value').textContent()) ?? '')?.[1]);
  expect(Math.abs(Number(/\d+/.exec((await distalExpansion()) ?? '')?.[0]) - (100 * msa) / movedArea)).toBeLessThanOrEqual(1);
  await expect(reference.getByTestId('plot-marker-label')).toHaveText('Stent D ref moved');

  // Dragged along the plot, the proximal reference moves as well.
  const proximal = page.getByTestId('stent-proximal-reference-marker');
  const proximalBefore = Number(await proximal.getAttribute('aria-valuenow'));
  const [low, high] = [Number(await proximal.getAttribute('aria-valuemin')), Number(await proximal.getAttribute('aria-valuemax'))];
  // To the middle of its side, or its near end if it is in the middle already.
  const target = Math.abs(Math.round((low + high) / 2) - proximalBefore) > 5 ? Math.round((low + high) / 2) : low;
  const plot = page.getByTestId('pullback-plot');
  const plotBox = (await plot.boundingBox())!;
  const [plotLeft, plotWidth] = [Number(await plot.getAttribute('data-plot-left')), Number(await plot.getAttribute('data-plot-width'))];
  const xOf = (slice: number) => plotBox.x + plotLeft + ((slice - 1) / 599) * plotWidth;
  const box = (await proximal.locator('line').first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(xOf(target), box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(proximal).not.toHaveAttribute('aria-valuenow', String(proximalBefore));
  const proximalMoved = Number(await proximal.getAttribute('aria-valuenow'));
  expect(Math.abs(proximalMoved - target)).toBeLessThanOrEqual(3);
  await expect(page.getByTestId('stent-expansion')).toContainText(`proximal reference moved by hand to slice ${proximalMoved}`);
  expect(await percentOf(page)).toBeGreaterThan(0);
  // Put back, the distal reference is where the analysis takes it, and no longer named as moved.
  await page.getByTestId('stent-reset-distal-reference').click();
  await expect(reference).toHaveAttribute('aria-valuenow', String(before));
  await expect(page.getByTestId('stent-expansion')).not.toContainText('distal reference moved by hand');

  // Saved with the annotations: after a reload the proximal reference is still where the clinician left it.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('stent-segment')).toBeVisible({ timeout: 180_000 });
  await expect(proximal).toHaveAttribute('aria-valuenow', String(proximalMoved));
  await expect(page.getByTestId('stent-expansion')).toContainText(`proximal reference moved by hand to slice ${proximalMoved}`);
  await expect(reference).toHaveAttribute('aria-valuenow', String(before));
  // Put back and saved, the record is as the analysis leaves it again (the next run starts from there).
  await page.getByTestId('stent-reset-proximal-reference').click();
  await expect(proximal).toHaveAttribute('aria-valuenow', String(proximalBefore));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Annotations saved').last()).toBeVisible();
});

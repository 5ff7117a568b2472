/**
 * Issue 26, "a results block": the figures a stent is sized by, at a glance and in mm, each a button
 * to its frame; a plot tall enough to read, resizable, whose labels never overlap and whose markers
 * land on their frame, on a 1366×768 laptop and a 2560×1440 reading-room monitor, in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { OTHER_ULTRASOUND_LABEL } from '../src/domain/records.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { shortRecordHref } from './open-review.ts';
import { signIn } from './sign-in.ts';
import { importThroughApi } from './reading-room.ts';

/** The slice the review shows, read from the header's readout ("Slice 123 / 300 · …"). */
async function shownSlice(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const text = (await page.getByTestId('slice-indicator').textContent()) ?? '';
  return Number(/^Slice (\d+) \//.exec(text)?.[1]);
}

const sliceOf = async (locator: Locator) => Number(await locator.getAttribute('data-slice'));

/** The smallest computed font size of any text in the element, in px. */
const smallestFontPx = (locator: Locator) =>
  locator.evaluate((root) => {
    let smallest = Infinity;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || !node.parentElement) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(node.parentElement).fontSize));
    }
    return smallest;
  });

/** Serious or critical axe violations in the results block. */
async function seriousViolations(page: Page): Promise<string[]> {
  // A theme switch fades colours in: axe must judge the colours the clinician reads, not a fade's middle.
  await page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition)));
  const axe = await new AxeBuilder({ page }).include('[data-testid="results-block"]').analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What must hold in the current theme: the figures with units and mm, legible, and axe-clean. */
async function checkFigures(page: Page): Promise<void> {
  const block = page.getByTestId('results-block');
  const mm = String.raw`at \d+\.\d mm( \(assumed\))? · slice \d+`;
  await expect(page.getByTestId('result-mla')).toHaveText(new RegExp(String.raw`^MLA\s*\d+\.\d\d mm²\s*MLD \d+\.\d\d mm\s*${mm}$`));
  for (const side of ['distal', 'proximal']) {
    await expect(page.getByTestId(`result-${side}-reference`)).toHaveText(new RegExp(String.raw`reference\s*\d+\.\d\d mm²\s*mean Ø \d+\.\d\d mm · min Ø \d+\.\d\d mm\s*${mm}$`));
  }
  await expect(page.getByTestId('result-stenosis-value')).toHaveText(/^-?\d+ %$/);
  await expect(page.getByTestId('result-lesion-length-value')).toHaveText(/^\d+\.\d mm( \(assumed\))?$/);
  expect(await smallestFontPx(block)).toBeGreaterThanOrEqual(14);
  expect(await smallestFontPx(page.getByTestId('plot-marker-label').first())).toBeGreaterThanOrEqual(14);
  expect(await seriousViolations(page)).toEqual([]);
}

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 2560, height: 1440 },
]) {
  test(`results block at ${viewport.width}×${viewport.height}, light and dark: figures in mm, buttons and markers go to their frames, a tall plot with labels apart`, async ({ page }) => {
    // The server detects the borders of the 300 frames on the first open.
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    await signIn(page);
    await page.goto(await shortRecordHref(page));
    await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 180_000 });
    await expect(page.locator('html')).not.toHaveClass(/sm-theme-dark/);
    await checkFigures(page);

    // Each frame's button goes to its frame, by pointer and by keyboard.
    for (const id of ['result-mla', 'result-distal-reference', 'result-proximal-reference']) {
      const button = page.getByTestId(id);
      await button.click();
      expect(await shownSlice(page)).toBe(await sliceOf(button));
    }
    const mlaSlice = await sliceOf(page.getByTestId('result-mla'));
    await page.getByTestId('result-mla').focus();
    await page.keyboard.press('Enter');
    expect(await shownSlice(page)).toBe(mlaSlice);
    // From there the arrow keys step on along the pullback.
    await page.keyboard.press('ArrowLeft');
    expect(await shownSlice(page)).toBe(mlaSlice - 1);

    // The plot's markers land on their frames: a click on the label, or on the line, goes to exactly that slice.
    await page.getByTestId('result-distal-reference').click();
    await page.getByTestId('mla-flag').getByTestId('plot-marker-label').click();
    expect(await shownSlice(page)).toBe(mlaSlice);
    await page.getByTestId('result-proximal-reference').click();
    const line = (await page.getByTestId('mla-flag').locator('line').first().boundingBox())!;
    await page.mouse.click(line.x + line.width / 2, line.y + line.height / 2);
    expect(await shownSlice(page)).toBe(mlaSlice);

    // The labels never overlap.
    const labels = await page.getByTestId('plot-marker-label').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })));
    expect(labels.length).toBe(3);
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top, JSON.stringify([a, b])).toBe(true);
    }

    // The L-mode strip above marks the MLA at the plot's x (once the frames have made its image).
    await expect(page.getByTestId('strip-mla')).toHaveAttribute('data-slice', String(mlaSlice), { timeout: 60_000 });
    const stripX = (await page.getByTestId('strip-mla').locator('line').boundingBox())!;
    expect(Math.abs(stripX.x + stripX.width / 2 - (line.x + line.width / 2))).toBeLessThanOrEqual(1);

    // The plot: a fifth of the monitor at least; taller by keyboard on its handle, and remembered.
    const plot = page.getByTestId('pullback-plot');
    const before = (await plot.boundingBox())!.height;
    if (viewport.height === 1440) expect(before).toBeGreaterThanOrEqual(viewport.height / 5);
    const handle = page.getByRole('separator', { name: /Resize the pullback plot/ });
    await handle.focus();
    await handle.press('ArrowUp');
    await handle.press('ArrowUp');
    await expect.poll(async () => (await plot.boundingBox())!.height).toBe(before + 32);
    expect(await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.startsWith('ivus.plotHeight.'))?.[1])).toBe(String(before + 32));
    // Resizing keeps the strip and the plot on one x axis.
    const stripAfter = (await page.getByTestId('strip-mla').locator('line').boundingBox())!;
    const lineAfter = (await page.getByTestId('mla-flag').locator('line').first().boundingBox())!;
    expect(Math.abs(stripAfter.x + stripAfter.width / 2 - (lineAfter.x + lineAfter.width / 2))).toBeLessThanOrEqual(1);

    // Dark theme, switched in the page: still legible and axe-clean.
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/sm-theme-dark/);
    await checkFigures(page);
  });
}

test('ultrasound that is not IVUS has no results block', async ({ page }) => {
  const patientId = `E2E-RB-${Date.now()}`;
  const loop = makeDicom({ kind: 'us', pullbackRate: null, manufacturer: 'GE Healthcare', model: 'Voluson E10', rows: 120, columns: 160, frames: 12, patientId, patientName: 'Fetal^Loop' });
  await signIn(page);
  // Imported through the API on the uploader's word that it is other ultrasound.
  const recordId = await importThroughApi(page, loop.bytes, 'loop.dcm', { confirmOtherUltrasound: true });
  await page.goto(`/patients/${patientId}/records/${recordId}/review`);
  await expect(page.getByTestId('imaging-kind')).toHaveText(OTHER_ULTRASOUND_LABEL);
  await expect(page.getByTestId('slice-indicator')).toHaveText(/^Slice \d+ \/ 12/);
  await expect(page.getByTestId('results-block')).toHaveCount(0);
  await expect(page.getByTestId('pullback-plot')).toHaveCount(0);
});

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { openLoadedReview } from './open-review.ts';
import { signIn } from './sign-in.ts';
import { importThroughApi } from './reading-room.ts';
import { BORDER_COLORS, pixelsOfColors } from './canvas-pixels.ts';

/**
 * Issue 26, "borders and figures always at hand": on the B-mode frame, whatever the tool, the
 * borders (with a switch, O), a scale bar, and the frame's figures in type legible at arm's length,
 * never over a handle; on a reading-room monitor and a laptop, in both themes.
 */

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxesOf(locator: Locator): Promise<Box[]> {
  const boxes = await Promise.all((await locator.all()).map((element) => element.boundingBox()));
  return boxes.filter((box): box is Box => box !== null);
}

/** The readout's five figures: numbers, a lumen no wider one way than the other allows. */
async function expectFigures(page: Page): Promise<void> {
  const readout = page.getByTestId('frame-readout');
  const number = async (testId: string) => Number(await readout.getByTestId(testId).textContent());
  expect(await number('contour-area')).toBeGreaterThan(0);
  const min = await number('min-diameter');
  const max = await number('max-diameter');
  expect(min).toBeGreaterThan(0);
  expect(max).toBeGreaterThanOrEqual(min);
  expect(await number('vessel-area')).toBeGreaterThan(await number('contour-area'));
  const burden = await number('plaque-burden');
  expect(burden).toBeGreaterThan(0);
  expect(burden).toBeLessThan(100);
  await expect(readout).toContainText('mm²');
}

/** Every text in the readout is at least 14 px. */
async function smallestFontPx(locator: Locator): Promise<number> {
  return locator.evaluate((root) => {
    let smallest = Infinity;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      smallest = Math.min(smallest, Number.parseFloat(getComputedStyle(node.parentElement!).fontSize));
    }
    return smallest;
  });
}

async function setTheme(page: Page, dark: boolean): Promise<void> {
  const isDark = async () => ((await page.locator('html').getAttribute('class')) ?? '').includes('sm-theme-dark');
  if ((await isDark()) !== dark) await page.getByRole('button', { name: 'Dark theme' }).click();
  if (dark) await expect(page.locator('html')).toHaveClass(/sm-theme-dark/);
  else await expect(page.locator('html')).not.toHaveClass(/sm-theme-dark/);
}

/** Serious or critical accessibility problems in the readout, the scale bar and the contour card. */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  let builder = new AxeBuilder({ page });
  for (const testId of ['frame-readout', 'scale-bar', 'contour-card']) {
    if ((await page.getByTestId(testId).count()) > 0) builder = builder.include(`[data-testid="${testId}"]`);
  }
  const axe = await builder.analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function checkReview(page: Page, dark: boolean, screenshot: string): Promise<void> {
  await setTheme(page, dark);
  const bmode = page.locator('[data-panel="bmode"]');
  const readout = page.getByTestId('frame-readout');

  // No tool: the borders (read-only: no handles), the figures and the scale bar.
  await expect(readout).toBeVisible();
  await expectFigures(page);
  expect(await smallestFontPx(readout)).toBeGreaterThanOrEqual(14);
  await expect(bmode.getByTestId('read-only-borders')).toBeVisible();
  await expect(bmode.getByTestId('lumen-contour')).toBeVisible();
  await expect(bmode.getByTestId('vessel-contour')).toBeVisible();
  await expect(bmode.getByTestId('contour-point')).toHaveCount(0);
  const scaleBar = page.getByTestId('scale-bar');
  await expect(scaleBar).toBeVisible();
  expect([0.5, 1, 2, 5]).toContain(Number(await scaleBar.getAttribute('data-length-mm')));
  await expect(scaleBar).toHaveAccessibleName(/^Scale bar: \d+(\.\d+)? mm$/);
  await page.screenshot({ path: test.info().outputPath(`no-tool-${screenshot}`) });
  // The borders are drawn in the panel's WebGL scene (issue 27), each in its colour; the readout is
  // clear of both: no pixel of either line lies under it.
  const canvas = bmode.locator('canvas');
  const bordersDrawn = async () => (await pixelsOfColors(canvas, [BORDER_COLORS.lumen, BORDER_COLORS.vessel])).length;
  await expect.poll(async () => (await pixelsOfColors(canvas, [BORDER_COLORS.lumen])).length, { message: 'lumen pixels on the frame' }).toBeGreaterThan(100);
  await expect.poll(async () => (await pixelsOfColors(canvas, [BORDER_COLORS.vessel])).length, { message: 'vessel pixels on the frame' }).toBeGreaterThan(100);
  const readoutBox = (await readout.boundingBox())!;
  const under = (await pixelsOfColors(canvas, [BORDER_COLORS.lumen, BORDER_COLORS.vessel])).filter((p) => intersects(readoutBox, { ...p, width: 0, height: 0 }));
  expect(under, 'points of the borders under the readout').toEqual([]);

  // The switch hides the borders and shows them again, by key and by button.
  await page.keyboard.press('o');
  await expect(page.getByTestId('borders-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(bmode.getByTestId('lumen-contour')).toHaveCount(0);
  await expect(bmode.getByTestId('vessel-contour')).toHaveCount(0);
  await expect.poll(bordersDrawn, { message: 'border pixels with the borders off' }).toBe(0);
  await expectFigures(page);
  await page.getByTestId('borders-toggle').click();
  await expect.poll(bordersDrawn, { message: 'border pixels with the borders on again' }).toBeGreaterThan(200);
  await expect(page.getByTestId('borders-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(bmode.getByTestId('lumen-contour')).toBeVisible();

  // The ruler: the borders and the figures stay.
  await page.getByRole('button', { name: 'Ruler', exact: true }).click();
  await expect(bmode.getByTestId('lumen-contour')).toBeVisible();
  await expectFigures(page);
  await page.getByRole('button', { name: 'Ruler', exact: true }).click();

  // The contour tool: the handles, and neither the readout nor the card over any of them.
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(bmode.getByTestId('contour-point').first()).toBeVisible();
  await expectFigures(page);
  const handles = await boxesOf(bmode.locator('[data-testid="contour-point"], [data-testid="vessel-point"]'));
  expect(handles.length).toBeGreaterThan(6);
  for (const testId of ['frame-readout', 'contour-card']) {
    const box = (await page.getByTestId(testId).boundingBox())!;
    const covered = handles.filter((handle) => intersects(box, handle));
    expect(covered, `${testId} covers ${covered.length} handles`).toHaveLength(0);
  }
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(screenshot) });
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(bmode.getByTestId('contour-point')).toHaveCount(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/** Opens the 300-frame demo record and waits for its borders. */
async function openWithBorders(page: Page): Promise<void> {
  await openLoadedReview(page);
  await expect(page.getByTestId('frame-readout').getByTestId('contour-area')).toBeVisible({ timeout: 120_000 });
}

test('figures, borders and scale bar at hand on a 2560×1440 reading-room monitor, light and dark', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 2560, height: 1440 });
  await openWithBorders(page);
  await checkReview(page, false, 'readout-2560-light.png');
  await checkReview(page, true, 'readout-2560-dark.png');
});

test('figures, borders and scale bar at hand on a 1366×768 laptop, dark and light; the scale bar follows the zoom', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openWithBorders(page);
  await checkReview(page, true, 'readout-1366-dark.png');
  await checkReview(page, false, 'readout-1366-light.png');

  // Zooming in on the frame: the bar's length in mm drops or its length on screen grows.
  const scaleBar = page.getByTestId('scale-bar');
  const before = { mm: Number(await scaleBar.getAttribute('data-length-mm')), px: Number(await scaleBar.getAttribute('data-length-px')) };
  const panel = (await page.locator('[data-panel="bmode"]').boundingBox())!;
  await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
  // Ctrl+wheel zooms about the pointer (the wheel alone moves the slice).
  await page.keyboard.down('Control');
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -240);
  await page.keyboard.up('Control');
  await expect
    .poll(async () => {
      const mm = Number(await scaleBar.getAttribute('data-length-mm'));
      const px = Number(await scaleBar.getAttribute('data-length-px'));
      return px / mm > before.px / before.mm;
    })
    .toBe(true);
});

test('a loop that is not IVUS gets no borders, no figures and no scale bar', async ({ page }) => {
  const patientId = `E2E-RO-${Date.now()}`;
  const loop = makeDicom({ kind: 'us', pullbackRate: null, manufacturer: 'GE Healthcare', model: 'Voluson E10', rows: 120, columns: 160, frames: 8, patientId, patientName: 'Echo^Loop' });
  await signIn(page);
  // Imported through the API on the uploader's word that it is other ultrasound.
  const recordId = await importThroughApi(page, loop.bytes, 'loop.dcm', { confirmOtherUltrasound: true });

  await page.goto(`/patients/${patientId}/records/${recordId}/review`);
  await expect(page.getByTestId('frames-status')).toHaveText(/8 B-mode and 0 angio frames (loaded|downloaded)/, { timeout: 60_000 });
  await expect(page.locator('[data-panel="bmode"]')).toBeVisible();
  await expect(page.getByTestId('annotation-overlay')).toBeAttached();
  await expect(page.getByTestId('frame-readout')).toHaveCount(0);
  await expect(page.getByTestId('scale-bar')).toHaveCount(0);
  await expect(page.getByTestId('borders-toggle')).toHaveCount(0);
  await expect(page.getByTestId('lumen-contour')).toHaveCount(0);
});

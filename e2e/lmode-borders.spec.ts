import { expect, test, type Locator, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { BORDER_COLORS, pixelsOfColors } from './canvas-pixels.ts';

/** The lumen's and the vessel's colours (domain/constants.ts: CONTOUR_COLOR, VESSEL_CONTOUR_COLOR), as RGB. */
const LUMEN_RGB = [0x9c, 0xc5, 0xc6] as const;
const VESSEL_RGB = [0xf4, 0xa2, 0x59] as const;

/** Opens the 3,600-frame demo record without its images (the borders need only the record's frame size and the detected contours). */
async function openLongRecord(page: Page): Promise<void> {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*3,600 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}?noImage=true`);
  // On a first visit the server detects both borders on every frame first.
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 300_000 });
}

/** The rows of the pixels of a 2D canvas that have (nearly) the colour `rgb`: all of them, or with `column` those in that pixel column and its two neighbours (a 1.5 px line is faint in some columns). */
async function pixelsOf(canvas: Locator, rgb: readonly number[], column?: number): Promise<number[]> {
  return canvas.evaluate(
    (element, [colour, x]) => {
      const node = element as HTMLCanvasElement;
      const { data, width, height } = node.getContext('2d')!.getImageData(0, 0, node.width, node.height);
      const rows: number[] = [];
      for (let y = 0; y < height; y++) {
        for (let i = x === null ? 0 : x - 1; i < (x === null ? width : x + 2); i++) {
          const at = (y * width + i) * 4;
          if (data[at + 3]! > 100 && Math.abs(data[at]! - colour[0]!) < 24 && Math.abs(data[at + 1]! - colour[1]!) < 24 && Math.abs(data[at + 2]! - colour[2]!) < 24) rows.push(y);
        }
      }
      return rows;
    },
    [rgb, column ?? null] as const,
  );
}

const numberIn = async (locator: Locator) => Number(await locator.textContent());

test('the L-mode views draw the lumen and vessel borders along the cut; a border dragged on the strip is a key frame that changes the analysis, and undo takes it back', async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page);
  await openLongRecord(page);

  // Both L-mode views draw both borders of the 3,600 frames, two lines each, across their width.
  const strip = page.getByTestId('lmode-strip');
  const stripBorders = page.getByTestId('lmode-strip-borders-canvas');
  await expect(stripBorders).toHaveAttribute('data-frames', '3600');
  const plotWidth = Number(await strip.getAttribute('data-plot-width'));
  const plotLeft = Number(await strip.getAttribute('data-plot-left'));
  expect((await pixelsOf(stripBorders, LUMEN_RGB)).length).toBeGreaterThan(plotWidth);
  expect((await pixelsOf(stripBorders, VESSEL_RGB)).length).toBeGreaterThan(plotWidth);
  // The L-mode panel draws them in its WebGL scene with its image (issue 27): found in its canvas's pixels.
  const panelBorders = page.getByTestId('lmode-panel-borders-canvas');
  await expect(panelBorders).toHaveAttribute('data-frames', '3600');
  const panelCanvas = page.locator('[data-panel="lmode"] canvas');
  const panelWidth = (await panelCanvas.boundingBox())!.width;
  await expect.poll(async () => (await pixelsOfColors(panelCanvas, [BORDER_COLORS.lumen])).length, { message: 'lumen pixels on the L-mode panel' }).toBeGreaterThan(panelWidth);
  await expect.poll(async () => (await pixelsOfColors(panelCanvas, [BORDER_COLORS.vessel])).length, { message: 'vessel pixels on the L-mode panel' }).toBeGreaterThan(panelWidth);
  // The strip has the plot's markers and mm ticks.
  await expect(page.getByTestId('strip-mla')).toHaveAttribute('data-slice', (await page.getByTestId('mla-flag').getAttribute('data-slice'))!);
  expect(await page.getByTestId('strip-mm-tick').count()).toBeGreaterThan(3);

  // A click on the strip (above the lines) goes to the slice under it, as the plot would.
  const box = (await strip.boundingBox())!;
  const x = Math.round(plotLeft + 0.4 * plotWidth);
  await page.mouse.click(box.x + x, box.y + 1);
  // The strip's cursor line moves in the next animation frame.
  const stripSlice = async () => Number(await page.getByTestId('strip-cursor').getAttribute('data-slice'));
  await expect.poll(stripSlice).toBeGreaterThan(1000);
  const slice = await stripSlice();
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 3600`);

  // With the contour tool, drag the lumen line below the catheter (the far side of the cut) 12 px outwards.
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(page.getByTestId('lmode-strip-borders')).toHaveAttribute('data-editable', 'true');
  const layer = page.getByTestId('contour-layer');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  const before = await numberIn(page.getByTestId('contour-area'));
  // The lines below the strip's middle (the catheter) are the borders on the cut angle's side.
  const middle = (await stripBorders.evaluate((canvas) => (canvas as HTMLCanvasElement).height)) / 2;
  const rowBelow = async (rgb: readonly number[]) => {
    const rows = (await pixelsOf(stripBorders, rgb, x)).filter((row) => row > middle).sort((a, b) => a - b);
    expect(rows.length).toBeGreaterThan(0);
    return rows[Math.floor(rows.length / 2)]!;
  };
  const lumenBelow = await rowBelow(LUMEN_RGB);
  const vesselBelow = await rowBelow(VESSEL_RGB);
  expect(vesselBelow).toBeGreaterThan(lumenBelow + 2);
  const to = Math.min(lumenBelow + 12, (lumenBelow + vesselBelow) / 2);
  await page.mouse.move(box.x + x, box.y + lumenBelow);
  await page.mouse.down();
  await page.mouse.move(box.x + x, box.y + to, { steps: 4 });
  await page.mouse.up();

  // The frame under the pointer now has a hand-corrected lumen, larger, and the slice did not move.
  await expect(layer).toHaveAttribute('data-source', 'manual');
  await expect.poll(() => numberIn(page.getByTestId('contour-area'))).toBeGreaterThan(before);
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 3600`);
  // The lines are drawn again from the corrected analysis: the lumen line at that frame moved down.
  await expect.poll(() => rowBelow(LUMEN_RGB)).toBeGreaterThan(lumenBelow + 2);

  // Undo removes the key frame: the detected border and its area come back.
  await page.keyboard.press('Control+z');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  await expect.poll(() => numberIn(page.getByTestId('contour-area'))).toBe(before);
});

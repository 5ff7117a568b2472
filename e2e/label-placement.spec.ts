import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { bmodePoint, drawRuler, openAnnotationReview } from './annotation-drawing.ts';
import { expectAccessible, useTheme, type Theme } from './reading-room.ts';
import { BORDER_COLORS, pixelsOfColors } from './canvas-pixels.ts';

/**
 * Issue 26, item 7: an annotation's card never covers a handle of any annotation on the slice, a
 * lumen or vessel border, a contour control point or a box on the frame (readout, scale bar, cut
 * handle), on a laptop and on a reading-room monitor, and a drag across a card never selects its text.
 */
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxesOf(page: Page, selector: string): Promise<Box[]> {
  return page.locator(selector).evaluateAll((nodes) =>
    nodes.map((node) => {
      const { x, y, width, height } = node.getBoundingClientRect();
      return { x, y, width, height };
    }),
  );
}

/**
 * Goes to a slice of the 300-frame record that no other spec annotates (they draw on the first and
 * the last), so the cards counted are this test's alone.
 */
async function toOwnSlice(page: Page, slice: number): Promise<void> {
  await page.keyboard.press('End');
  for (let i = 300; i > slice; i--) await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('slice-indicator')).toContainText(`Slice ${slice} / 300`);
}

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 2560, height: 1440 },
]) {
  test(`at ${viewport.width}x${viewport.height} a card does not cover another ruler's handle, and a drag across it selects no text`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
    const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
    await openAnnotationReview(page, `${originOf('demo')}${await link.getAttribute('href')}`);
    await toOwnSlice(page, viewport.width === 1366 ? 296 : 295);

    // Ruler A: upright, its upper end where ruler B's card would go if cards always sat right of and above their anchor.
    const bEnd = await bmodePoint(page, 300, 300);
    const aTop = { x: bEnd.x + 35, y: bEnd.y - 3 };
    await page.getByRole('button', { name: 'Ruler', exact: true }).click();
    await page.mouse.click(aTop.x, aTop.y);
    // Short enough to stay inside the laptop's B-mode panel (about 270 px tall under the results).
    await page.mouse.click(aTop.x, aTop.y + 60);
    await page.getByRole('button', { name: 'Ruler', exact: true }).click();
    // Ruler B: across, ending just left of A's upper end; its card is placed beside that end.
    await drawRuler(page, [150, 300], [300, 300], { toolOff: true });
    const cards = page.getByTestId('label-card');
    await expect(cards).toHaveCount(2);
    const handles = page.getByTestId('annotation-overlay').locator('circle[data-handle]');
    await expect(handles).toHaveCount(4);

    // Placement follows the measured cards: read once the cards stopped moving.
    await expect
      .poll(async () => {
        const cardBoxes = await boxesOf(page, '[data-testid="label-card"]');
        const handleBoxes = await boxesOf(page, '[data-testid="annotation-overlay"] circle[data-handle]');
        return cardBoxes.flatMap((card) => handleBoxes.filter((handle) => overlaps(card, handle))).length;
      })
      .toBe(0);
    // Every card stays inside the B-mode panel.
    const panel = (await page.getByTestId('annotation-overlay').boundingBox())!;
    for (const card of await boxesOf(page, '[data-testid="label-card"]')) {
      expect(card.x).toBeGreaterThanOrEqual(panel.x);
      expect(card.y).toBeGreaterThanOrEqual(panel.y);
      expect(card.x + card.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
      expect(card.y + card.height).toBeLessThanOrEqual(panel.y + panel.height + 0.5);
    }

    // A drag from the start of a card's measurement across the card and beyond selects no text.
    const measurement = (await cards.first().getByTestId('card-measurement').boundingBox())!;
    const card = (await cards.first().boundingBox())!;
    await page.mouse.move(measurement.x + 1, measurement.y + measurement.height / 2);
    await page.mouse.down();
    await page.mouse.move(card.x + card.width + 40, card.y + card.height / 2, { steps: 8 });
    await page.mouse.move(card.x - 40, card.y + card.height + 30, { steps: 8 });
    await page.mouse.up();
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
  });
}

/** Points every 2 px along the SVG paths, in page coordinates. */
async function pointsAlong(page: Page, selector: string): Promise<{ x: number; y: number }[]> {
  return page.locator(selector).evaluateAll((paths) =>
    // The contour tool's editable borders (SVG); outside it the borders are canvas pixels (borderPixels).
    paths.flatMap((element) => {
      if (!(element instanceof SVGPathElement)) return [];
      const path = element;
      const matrix = path.getScreenCTM()!;
      const points: { x: number; y: number }[] = [];
      for (let at = 0; at < path.getTotalLength(); at += 2) {
        const p = path.getPointAtLength(at).matrixTransform(matrix);
        points.push({ x: p.x, y: p.y });
      }
      return points;
    }),
  );
}

/** Outside the contour tool the read-only borders are drawn in the B-mode panel's WebGL scene (issue 27): found by their colours. */
const borderPixels = (page: Page, colors: readonly string[]) => pixelsOfColors(page.locator('[data-panel="bmode"] canvas'), colors);

const BORDERS = '[data-panel="bmode"] [data-testid="lumen-contour"], [data-panel="bmode"] [data-testid="vessel-contour"]';
const CONTROL_POINTS = '[data-panel="bmode"] [data-testid="contour-point"], [data-panel="bmode"] [data-testid="vessel-point"]';
const FRAME_BOXES = '[data-testid="frame-readout"], [data-testid="contour-card"], [data-testid="scale-bar"], [data-testid="lmode-cut-handle"]';

/** What the cards cover: border points, control points and boxes on the frame (none, once they are placed). */
async function coveredByCards(page: Page): Promise<string[]> {
  const cards = await boxesOf(page, '[data-testid="label-card"]');
  const borderPoints = [...(await pointsAlong(page, BORDERS)), ...(await borderPixels(page, [BORDER_COLORS.lumen, BORDER_COLORS.vessel]))];
  const controlPoints = await boxesOf(page, CONTROL_POINTS);
  const frameBoxes = await boxesOf(page, FRAME_BOXES);
  return cards.flatMap((card, i) => [
    ...borderPoints.filter((p) => overlaps(card, { ...p, width: 0, height: 0 })).map((p) => `card ${i} over the border at ${p.x.toFixed(0)},${p.y.toFixed(0)}`),
    ...controlPoints.filter((h) => overlaps(card, h)).map((h) => `card ${i} over a control point at ${h.x.toFixed(0)},${h.y.toFixed(0)}`),
    ...frameBoxes.filter((b) => overlaps(card, b)).map((b) => `card ${i} over a box at ${b.x.toFixed(0)},${b.y.toFixed(0)}`),
  ]);
}

async function checkCardsClearOfTheFrame(page: Page, theme: Theme): Promise<void> {
  await useTheme(page, theme);
  // No tool: the borders as lines; the card beside the ruler's end lies off them.
  await expect(page.locator(BORDERS).first()).toBeVisible();
  await expect.poll(() => coveredByCards(page)).toEqual([]);
  await expectAccessible(page, 'annotated review', theme);
  // The contour tool: the control points too.
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(page.locator(CONTROL_POINTS).first()).toBeVisible();
  await expect(page.getByTestId('label-card')).toHaveCount(1);
  await expect.poll(() => coveredByCards(page)).toEqual([]);
  await expectAccessible(page, 'annotated review, contour tool', theme);
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  await expect(page.locator(CONTROL_POINTS)).toHaveCount(0);
}

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 2560, height: 1440 },
]) {
  test(`at ${viewport.width}x${viewport.height} a ruler's card whose usual place lies on the lumen border moves off the borders and the control points, light and dark`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await signIn(page);
    await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
    const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
    await openAnnotationReview(page, `${originOf('demo')}${await link.getAttribute('href')}`);
    await toOwnSlice(page, viewport.width === 1366 ? 294 : 293);
    await expect(page.getByTestId('frame-readout').getByTestId('contour-area')).toBeVisible({ timeout: 120_000 });
    await expect(page.locator(BORDERS).first()).toBeVisible();

    // A ruler ending just left of the lumen border's rightmost point: its card's usual place
    // (right of the end, a little above) lies across the border.
    await expect.poll(async () => (await borderPixels(page, [BORDER_COLORS.lumen])).length, { message: 'lumen pixels on the frame' }).toBeGreaterThan(100);
    const lumen = await borderPixels(page, [BORDER_COLORS.lumen]);
    const rightmost = lumen.reduce((a, b) => (b.x > a.x ? b : a));
    const end = { x: rightmost.x - 30, y: rightmost.y + 4 };
    await page.getByRole('button', { name: 'Ruler', exact: true }).click();
    await page.mouse.click(end.x - 60, end.y);
    await page.mouse.move(end.x - 30, end.y);
    await page.mouse.click(end.x, end.y);
    await page.getByRole('button', { name: 'Ruler', exact: true }).click();
    const card = page.getByTestId('label-card');
    await expect(card).toHaveCount(1);
    const size = (await card.boundingBox())!;
    const usualPlace = { x: end.x + 10, y: end.y - 12, width: size.width, height: size.height };
    expect(lumen.some((p) => overlaps(usualPlace, { ...p, width: 0, height: 0 })), 'the usual place lies on the lumen border').toBe(true);

    await checkCardsClearOfTheFrame(page, 'light');
    await checkCardsClearOfTheFrame(page, 'dark');

    // The L-mode cut turned towards the top-left, the readout's usual corner (on the laptop its
    // handle then lies where the readout sat): the readout and the card keep off the handle.
    const cutHandle = page.getByTestId('lmode-cut-handle');
    const from = (await cutHandle.boundingBox())!;
    const image = await bmodePoint(page, 256, 256);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(image.x - 100, image.y - 90, { steps: 5 });
    await page.mouse.move(image.x - 100, image.y - 100, { steps: 2 });
    await page.mouse.up();
    await expect(page.getByTestId('lmode-cut-line')).toHaveAttribute('data-angle', '225');
    await expect.poll(async () => overlaps((await page.getByTestId('frame-readout').boundingBox())!, (await cutHandle.boundingBox())!)).toBe(false);
    await expect.poll(() => coveredByCards(page)).toEqual([]);
  });
}

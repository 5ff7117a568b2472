import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { bmodePoint, drawRuler, openAnnotationReview } from './annotation-drawing.ts';

/**
 * Issue 26, item 7: an annotation's card never covers a handle of any annotation on the slice, on
 * a laptop and on a reading-room monitor, and a drag across a card never selects its text.
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

    // Ruler A: upright, its upper end where ruler B's card would go if cards always sat right of and above their anchor.
    const bEnd = await bmodePoint(page, 300, 300);
    const aTop = { x: bEnd.x + 35, y: bEnd.y - 3 };
    await page.getByRole('button', { name: 'Ruler', exact: true }).click();
    await page.mouse.click(aTop.x, aTop.y);
    await page.mouse.click(aTop.x, aTop.y + 120);
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

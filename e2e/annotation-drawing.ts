import { expect, type Page } from '@playwright/test';

/**
 * Waits until the saved annotations are in and their cards can be drawn, so that counting the cards
 * counts the saved ones. "Not Loading" also held before the review had mounted its status; and the
 * cards are drawn only once the B-mode panel knows where its image lies (its WebGL start-up, which
 * may end after the annotations' answer): both had let a spec count 0 saved cards where there was 1.
 */
export async function waitForSavedAnnotations(page: Page): Promise<void> {
  await expect(page.getByTestId('annotations-status')).toHaveText(/^(Annotations v\d+|No saved annotations)/);
  await expect(page.getByTestId('label-cards')).toBeAttached();
}

/** Opens a review without images (annotations work over black panels) and waits for its annotations. */
export async function openAnnotationReview(page: Page, href: string): Promise<void> {
  await page.goto(`${href}?noImage=true`);
  await waitForSavedAnnotations(page);
}

/** Screen position of image pixel (x, y) of the 512 x 512 B-mode image, fitted and centred in its panel. */
export async function bmodePoint(page: Page, x: number, y: number): Promise<{ x: number; y: number; scale: number }> {
  const box = (await page.getByTestId('annotation-overlay').boundingBox())!;
  const scale = Math.min(box.width / 512, box.height / 512);
  return {
    x: box.x + (box.width - 512 * scale) / 2 + x * scale,
    y: box.y + (box.height - 512 * scale) / 2 + y * scale,
    scale,
  };
}

/** Draws a ruler between two image pixels with the Ruler tool; `toolOff` turns the tool off again afterwards. */
export async function drawRuler(page: Page, from: [number, number], to: [number, number], { toolOff = false } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Ruler', exact: true }).click();
  const a = await bmodePoint(page, ...from);
  const b = await bmodePoint(page, ...to);
  await page.mouse.click(a.x, a.y);
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2);
  await page.mouse.click(b.x, b.y);
  if (toolOff) await page.getByRole('button', { name: 'Ruler', exact: true }).click();
}

/** Goes to a slice of the review by keys, as a user would: Home, then ten slices a Shift+Right and one a Right. */
export async function goToSlice(page: Page, slice: number): Promise<void> {
  await page.keyboard.press('Home');
  for (let i = 0; i < Math.floor((slice - 1) / 10); i++) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < (slice - 1) % 10; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('slice-indicator')).toHaveText(new RegExp(`^Slice ${slice} /`));
}

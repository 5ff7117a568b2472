import { expect, test, type Page } from '@playwright/test';
import { signIn } from './sign-in.ts';
import { openReviewInNewTab, shortRecordHref } from './open-review.ts';
import { drawRuler, goToSlice, openAnnotationReview as openReview, waitForSavedAnnotations } from './annotation-drawing.ts';

/**
 * No silent loss of unsaved work: an edit made a moment before the page goes (a reload, the tab
 * closed) is offered back, although its draft is written 300 ms after the last change and an
 * IndexedDB write begun as the page goes may never finish. These tests wait for nothing stored.
 */

const cards = (page: Page) => page.getByTestId('label-card');
const prompt = (page: Page) => page.getByRole('region', { name: 'Unsaved annotations' });

/**
 * A slice no other spec annotates: the record is shared with the specs that run before this one, and
 * a ruler drawn over one of their saved rulers or cards would select it instead of being drawn.
 */
const OWN_SLICE = 43;

const toOwnSlice = (page: Page) => goToSlice(page, OWN_SLICE);

/** Signs in, opens the 300-frame record without images at its own slice, and answers how many cards that slice has saved. */
async function openRecord(page: Page): Promise<{ href: string; saved: number }> {
  await signIn(page);
  const href = await shortRecordHref(page);
  await openReview(page, href);
  await toOwnSlice(page);
  return { href, saved: await cards(page).count() };
}

/** The draft offer holds the edit: Restore brings back the slice's saved cards plus the new ruler. */
async function expectOfferedBack(page: Page, saved: number): Promise<void> {
  await waitForSavedAnnotations(page);
  await toOwnSlice(page);
  await expect(cards(page)).toHaveCount(saved);
  await expect(prompt(page)).toBeVisible();
  await prompt(page).getByRole('button', { name: 'Restore' }).click();
  await expect(cards(page)).toHaveCount(saved + 1);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveAttribute('data-attention', '');
}

for (const pauseMs of [0, 50]) {
  test(`an edit reloaded ${pauseMs} ms after it is made is offered back`, async ({ page }) => {
    const { saved } = await openRecord(page);
    page.on('dialog', (dialog) => void dialog.accept()); // the browser's "leave site?" at the reload
    await drawRuler(page, [110, 200], [390, 320]);
    await expect(cards(page)).toHaveCount(saved + 1);
    if (pauseMs > 0) await page.waitForTimeout(pauseMs);
    await page.reload();
    await expectOfferedBack(page, saved);
  });
}

test('an edit whose tab is closed at once is offered back in a new tab', async ({ page, context }) => {
  const { href, saved } = await openRecord(page);
  await drawRuler(page, [110, 200], [390, 320]);
  await expect(cards(page)).toHaveCount(saved + 1);
  await page.close();

  // The same browser profile: a new tab signs in again (the session is per tab) and opens the record.
  const next = await context.newPage();
  await openReviewInNewTab(next, href);
  await expectOfferedBack(next, saved);
});

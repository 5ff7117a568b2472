import { waitForStoredDraft } from './stored-drafts.ts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { drawRuler, waitForSavedAnnotations } from './annotation-drawing.ts';

/**
 * Issue 26, no lost work: leaving the review with unsaved edits asks Save / Discard / Stay, and
 * the draft offer sits beside the image, never over it.
 */

const RECORDS = `${originOf('demo')}/patients/DEM-001/records`;
const cards = (page: Page) => page.getByTestId('label-card');
const leaveDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Save your annotation changes?' });

/** DEM-001's third record: the other specs annotate its 300- and 3,600-frame records, not this one. */
function recordCard(page: Page): Locator {
  return page.getByTestId('record-card').filter({ hasNotText: /B-mode:\s*(300|3,600) frames/ });
}

/**
 * Opens the record from its card, in the app (no page load, so the browser's Back stays in it),
 * without its images (annotations work over black panels, and the shared machine is spared the
 * download), and waits for its annotations.
 */
async function openFromCard(page: Page): Promise<void> {
  const href = await recordCard(page).getByRole('link').getAttribute('href');
  await page.evaluate((to) => window.history.pushState(null, '', to), `${href}?noImage=true`);
  await expect(page).toHaveURL(/\/review\?noImage=true$/);
  await waitForSavedAnnotations(page);
}

test('leaving with unsaved edits asks Save / Discard / Stay; nothing asks when all is saved', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto(RECORDS);
  await expect(recordCard(page)).toHaveCount(1);
  await expect(recordCard(page).getByTestId('annotation-status')).toHaveText('Not annotated');
  await openFromCard(page);
  await drawRuler(page, [150, 250], [350, 250], { toolOff: true });
  await expect(cards(page)).toHaveCount(1);

  // The app's Back asks, with Stay focused; Stay keeps the clinician here with the ruler.
  await page.getByRole('button', { name: 'Navigate back' }).click();
  await expect(leaveDialog(page)).toBeVisible();
  await expect(leaveDialog(page).getByRole('button', { name: 'Stay' })).toBeFocused();
  await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
  await expect(leaveDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/review\?noImage=true$/);
  await expect(cards(page)).toHaveCount(1);

  // The browser's Back asks the same question; Escape stays.
  await page.evaluate(() => window.history.back());
  await expect(leaveDialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(leaveDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/review\?noImage=true$/);
  await expect(cards(page)).toHaveCount(1);

  // Sign out asks too.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
  await expect(leaveDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/review\?noImage=true$/);

  // Back again, Discard: the records, where the record is still not annotated and has no draft.
  await page.getByRole('button', { name: 'Navigate back' }).click();
  await leaveDialog(page).getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/patients\/DEM-001\/records$/);
  await expect(recordCard(page).getByTestId('annotation-status')).toHaveText('Not annotated');
  await expect(recordCard(page).getByTestId('record-draft')).toHaveCount(0);

  // Draw again; Alt+Left (the app's Back) asks; Save stores it and then goes to the records.
  await openFromCard(page);
  await expect(cards(page)).toHaveCount(0);
  await drawRuler(page, [150, 250], [350, 250], { toolOff: true });
  await expect(cards(page)).toHaveCount(1);
  await page.keyboard.press('Alt+ArrowLeft');
  await leaveDialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/patients\/DEM-001\/records$/);
  await expect(recordCard(page).getByTestId('annotation-status')).toHaveText(/^Saved by /);
  await expect(recordCard(page).getByTestId('record-draft')).toHaveCount(0);

  // All saved: leaving asks nothing.
  await openFromCard(page);
  await expect(cards(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(leaveDialog(page)).toHaveCount(0);
});

test('the draft offer is a bar beside the image, never over it', async ({ page }) => {
  await signIn(page);
  await page.goto(RECORDS);
  await openFromCard(page);
  const saved = await cards(page).count();
  await drawRuler(page, [100, 400], [400, 400], { toolOff: true });
  await expect(cards(page)).toHaveCount(saved + 1);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveAttribute('data-attention', '');
  // Kept as a draft while working (the draft with the new ruler, not an earlier one); the reload's
  // "leave site?" question is the browser's: leave.
  await waitForStoredDraft(page, saved + 1);
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);

  const offer = page.getByRole('region', { name: 'Unsaved annotations' });
  await expect(offer).toBeVisible();
  const bmode = page.getByTestId('panel-canvas-bmode');
  await expect(bmode).toBeVisible();
  const a = (await offer.boundingBox())!;
  const b = (await bmode.boundingBox())!;
  const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlaps, `offer ${JSON.stringify(a)} over the B-mode canvas ${JSON.stringify(b)}`).toBe(false);
  // The panels make room for the bar: the whole image stays on screen, nothing is pushed below it.
  expect(b.y + b.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  // Nothing covers the offer's buttons either: Discard answers it, and the bar goes.
  await offer.getByRole('button', { name: 'Discard' }).click();
  await expect(offer).toHaveCount(0);
});

import { expect, test, type Page } from '@playwright/test';
import { administrator, clinician, signIn, submitProviderSignIn } from './sign-in.ts';
import { shortRecordHref } from './open-review.ts';
import { drawRuler, openAnnotationReview as openReview, waitForSavedAnnotations } from './annotation-drawing.ts';

/**
 * Issue 16, no lost work: unsaved annotations are kept in the browser as they are made, and
 * offered back after a reload or a forced sign-out, to their author only.
 */

/** The drafts the app keeps in IndexedDB (none while its database does not exist: opening it here would create it empty). */
async function storedDrafts(page: Page): Promise<number> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts')) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('ivus-review-drafts');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const count = db.transaction('drafts').objectStore('drafts').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
  });
}

/** What the prompt says the draft was based on. */
async function basedOn(page: Page): Promise<string> {
  const version = Number(await page.getByTestId('annotations-status').getAttribute('data-version'));
  return version > 0 ? `(based on version ${version})` : '(started before any version was saved)';
}

const cards = (page: Page) => page.getByTestId('label-card');
const prompt = (page: Page) => page.getByRole('region', { name: 'Unsaved annotations' });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save' });

test('unsaved annotations are kept as they are made and offered back after a reload', async ({ page }) => {
  // Reloading with unsaved changes asks the browser's "leave site?" question: leave.
  page.on('dialog', (dialog) => void dialog.accept());
  await signIn(page);
  const href = await shortRecordHref(page);
  await openReview(page, href);
  await expect(prompt(page)).toHaveCount(0);
  const base = await basedOn(page);
  // Other specs may have saved annotations on this slice of the shared record.
  const saved = await cards(page).count();
  await drawRuler(page, [120, 300], [380, 300], { toolOff: true });
  await expect(cards(page)).toHaveCount(saved + 1);
  const measurements = await cards(page).getByTestId('card-measurement').allTextContents();
  await expect(saveButton(page)).toHaveAttribute('data-attention', '');
  // Written while working, not only when the page goes away (a crash gives no warning).
  await expect.poll(() => storedDrafts(page)).toBe(1);

  await page.reload();
  await waitForSavedAnnotations(page);
  await expect(prompt(page)).toContainText(new RegExp(`You have unsaved annotations from .+ on this record ${base.replace(/[()]/g, '\\$&')}\\.`));
  await expect(cards(page)).toHaveCount(saved);
  await expect(saveButton(page)).not.toHaveAttribute('data-attention', '');
  await prompt(page).getByRole('button', { name: 'Restore' }).click();
  await expect(prompt(page)).toHaveCount(0);
  await expect(cards(page)).toHaveCount(saved + 1);
  await expect(cards(page).getByTestId('card-measurement')).toHaveText(measurements);
  await expect(saveButton(page)).toHaveAttribute('data-attention', '');

  // Saved: the draft is gone, and nothing is offered any more.
  await saveButton(page).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  await expect.poll(() => storedDrafts(page)).toBe(0);
  await page.reload();
  await expect(page.getByTestId('annotations-status')).toHaveText(/Annotations v\d+/);
  await expect(cards(page)).toHaveCount(saved + 1);
  await expect(prompt(page)).toHaveCount(0);
});

test('a forced sign-out keeps the draft for its author, who is offered it after signing in again', async ({ page }) => {
  await signIn(page);
  const href = await shortRecordHref(page);
  await openReview(page, href);
  const base = await basedOn(page);
  // Earlier tests may have saved annotations on this slice.
  const saved = await cards(page).count();
  await drawRuler(page, [100, 100], [100, 400], { toolOff: true });
  await expect(cards(page)).toHaveCount(saved + 1);

  // The session ends meanwhile: the next API call (this Save, at once) is refused.
  await page.route(
    '**/api/demo/**',
    (route) => route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'unauthorized', message: 'The session has expired.' }) }),
    { times: 1 },
  );
  await saveButton(page).click();
  await expect(page).toHaveURL(/\/idp\/interaction\//);

  // Someone else signs in on this browser: the draft is not theirs to see.
  await submitProviderSignIn(page, administrator().email, administrator().password);
  await expect(page).toHaveURL(/\/patients$/);
  await openReview(page, href);
  await expect(page.getByTestId('annotations-status')).toHaveText(/No saved annotations|Annotations v\d+/);
  await page.waitForTimeout(500);
  await expect(prompt(page)).toHaveCount(0);
  expect(await storedDrafts(page)).toBe(1);
  await page.getByRole('button', { name: 'Sign out' }).click();

  // Its author signs in again and opens the record: the work is offered back.
  await submitProviderSignIn(page, clinician().email, clinician().password);
  await expect(page).toHaveURL(/\/patients$/);
  await openReview(page, href);
  await expect(prompt(page)).toContainText(base);
  await prompt(page).getByRole('button', { name: 'Restore' }).click();
  await expect(cards(page)).toHaveCount(saved + 1);
  await expect(saveButton(page)).toHaveAttribute('data-attention', '');

  // The restored draft is kept until saved: offered once more after a reload, where Discard deletes it.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await prompt(page).getByRole('button', { name: 'Discard' }).click();
  await expect(prompt(page)).toHaveCount(0);
  await expect(cards(page)).toHaveCount(saved);
  await expect(saveButton(page)).not.toHaveAttribute('data-attention', '');
  await expect.poll(() => storedDrafts(page)).toBe(0);
});

import { expect, test, type Page } from '@playwright/test';
import { signIn } from './sign-in.ts';
import { openReviewInNewTab, shortRecordHref } from './open-review.ts';
import { drawRuler, goToSlice, openAnnotationReview, waitForSavedAnnotations } from './annotation-drawing.ts';

/**
 * Two tabs of one browser with the same record open (two pages of one context): each is told of the
 * other's unsaved annotations, and neither tab's edits replace the other's in the kept draft. Both
 * are offered, one after the other, when the record is opened again.
 */

const cards = (page: Page) => page.getByTestId('label-card');
const offer = (page: Page) => page.getByRole('region', { name: 'Unsaved annotations' });
const notice = (page: Page) => page.getByRole('region', { name: 'Open in another tab' });

/** A slice no other spec annotates (the record is shared with the specs that run before this one). */
const OWN_SLICE = 63;

const toOwnSlice = (page: Page) => goToSlice(page, OWN_SLICE);

test('two tabs of one record are told of each other’s unsaved annotations, and both are offered back', async ({ page: first, context }) => {
  await signIn(first);
  const href = await shortRecordHref(first);
  await openAnnotationReview(first, href);
  await toOwnSlice(first);
  const saved = await cards(first).count();
  await drawRuler(first, [110, 200], [390, 320]);
  await expect(cards(first)).toHaveCount(saved + 1);
  await expect(notice(first)).toHaveCount(0);

  // The second tab finds the first tab's draft (its ruler) offered, and is told where it comes from.
  const second = await context.newPage();
  await openReviewInNewTab(second, href);
  await waitForSavedAnnotations(second);
  await toOwnSlice(second);
  await expect(notice(second)).toContainText('This record is open in another tab with unsaved annotations.');
  await offer(second).getByRole('button', { name: 'Restore' }).click();
  await expect(cards(second)).toHaveCount(saved + 1);
  await drawRuler(second, [120, 380], [400, 430]);
  await expect(cards(second)).toHaveCount(saved + 2);
  await expect(notice(first)).toContainText('This record is open in another tab with unsaved annotations.');

  // The second tab is closed with its two rulers unsaved: the first is no longer told of it.
  await second.close();
  await expect(notice(first)).toHaveCount(0);

  // The first tab reloads: its own draft is offered first, then the second tab's, kept beside it.
  first.on('dialog', (dialog) => void dialog.accept()); // the browser's "leave site?" at the reload
  await first.reload();
  await waitForSavedAnnotations(first);
  await toOwnSlice(first);
  await expect(offer(first)).toBeVisible();
  await offer(first).getByRole('button', { name: 'Discard' }).click();
  await expect(offer(first)).toBeVisible();
  await offer(first).getByRole('button', { name: 'Restore' }).click();
  await expect(cards(first)).toHaveCount(saved + 2);
  await expect(offer(first)).toHaveCount(0);
});

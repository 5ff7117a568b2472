import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type BrowserType, type LaunchOptions, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { openReviewInNewTab, shortRecordHref } from './open-review.ts';
import { drawRuler, goToSlice, openAnnotationReview, waitForSavedAnnotations } from './annotation-drawing.ts';
import { keptDrafts, waitForStoredRuler } from './stored-drafts.ts';

/**
 * A renderer that crashes (no pagehide, no visibilitychange, nothing runs any more) loses no work
 * that its draft had written: a new tab of the same browser profile is offered it. And a crash
 * before the first draft write (300 ms after the edit) offers nothing: neither an earlier draft
 * that was saved since, nor an empty one.
 */

const cards = (page: Page) => page.getByTestId('label-card');
const offer = (page: Page) => page.getByRole('region', { name: 'Unsaved annotations' });

/**
 * A slice no other spec annotates (the record is shared with the specs that run before this one).
 * The second test saves a ruler, which stays on the server: it works on a slice of its own after it
 * (one per repetition, `--repeat-each`), since a ruler drawn over a saved one would select it instead.
 */
const OWN_SLICE = 83;
const savingSlice = () => OWN_SLICE + 2 + test.info().repeatEachIndex;
const FIRST: [[number, number], [number, number]] = [
  [110, 200],
  [390, 320],
];
const SECOND: [[number, number], [number, number]] = [
  [120, 380],
  [400, 430],
];

/** A browser profile on disk of its own (so no other spec's drafts), with the project's launch options. */
async function profile(chromium: BrowserType, launchOptions: LaunchOptions): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'draft-crash-'));
  const context = await chromium.launchPersistentContext(dir, { ...launchOptions, baseURL: originOf('demo'), viewport: { width: 1600, height: 900 } });
  return { context, close: () => context.close().then(() => rm(dir, { recursive: true, force: true })) };
}

/** Crashes the page's renderer through the DevTools protocol, as a renderer crash or an out-of-memory kill would. */
async function crash(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  void session.send('Page.crash').catch(() => undefined); // answered by no one: the renderer is gone
  await crashed;
}

/** A new tab of the same profile signs in (the session is per tab) and opens the record at the slice. */
async function reopen(context: BrowserContext, href: string, slice = OWN_SLICE): Promise<Page> {
  const next = await context.newPage();
  await openReviewInNewTab(next, href);
  await waitForSavedAnnotations(next);
  await goToSlice(next, slice);
  return next;
}

test('a crashed tab’s draft is offered in a new tab, and restoring it shows the annotation', async ({ playwright, launchOptions }) => {
  const { context, close } = await profile(playwright.chromium, launchOptions);
  try {
    const page = await context.newPage();
    await signIn(page);
    const href = await shortRecordHref(page);
    await openAnnotationReview(page, href);
    await goToSlice(page, OWN_SLICE);
    const saved = await cards(page).count();
    await drawRuler(page, ...FIRST);
    await expect(cards(page)).toHaveCount(saved + 1);
    const measurements = await cards(page).getByTestId('card-measurement').allTextContents();
    await waitForStoredRuler(page, OWN_SLICE, ...FIRST);
    await crash(context, page);

    const next = await reopen(context, href);
    await expect(cards(next)).toHaveCount(saved);
    await expect(offer(next)).toBeVisible();
    await offer(next).getByRole('button', { name: 'Restore' }).click();
    await expect(cards(next)).toHaveCount(saved + 1);
    await expect(cards(next).getByTestId('card-measurement')).toHaveText(measurements);
    await expect(next.getByRole('button', { name: 'Save' })).toHaveAttribute('data-attention', '');
  } finally {
    await close();
  }
});

test('a tab crashed right after an edit offers nothing stale: not the draft saved before, nor an empty one', async ({ playwright, launchOptions }) => {
  const { context, close } = await profile(playwright.chromium, launchOptions);
  try {
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page);
    const href = await shortRecordHref(page);
    await openAnnotationReview(page, href);
    await goToSlice(page, savingSlice());
    // A first ruler is kept as a draft, then saved: its draft is deleted.
    await drawRuler(page, ...FIRST);
    await waitForStoredRuler(page, savingSlice(), ...FIRST);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Annotations saved')).toBeVisible();
    await expect.poll(() => keptDrafts(page)).toEqual({ indexedDb: 0, webStorage: 0 });
    const saved = await cards(page).count();

    // A second ruler, and the renderer crashes at once: its draft is 300 ms away (on a loaded
    // machine the crash may come after it; then that draft, with the second ruler, is what is offered).
    await drawRuler(page, ...SECOND);
    await crash(context, page);

    const next = await reopen(context, href, savingSlice());
    const kept = await keptDrafts(next);
    await expect(cards(next)).toHaveCount(saved);
    if (kept.indexedDb === 0) {
      expect(kept.webStorage).toBe(0);
      await next.waitForTimeout(1000); // long enough for an offer to show, were one made
      await expect(offer(next)).toHaveCount(0);
      await expect(next.getByRole('button', { name: 'Save' })).not.toHaveAttribute('data-attention', '');
    } else {
      // Never the saved draft again, nor an empty one: the offer restores the second ruler.
      await offer(next).getByRole('button', { name: 'Restore' }).click();
      await expect(cards(next)).toHaveCount(saved + 1);
    }
  } finally {
    await close();
  }
});

import type { Page } from '@playwright/test';

/**
 * Waits until the review has stored a draft in IndexedDB. A draft is written a moment after the
 * edit: a reload before that finds none, so waiting for its database alone is not enough.
 */
export async function waitForStoredDraft(page: Page): Promise<void> {
  await page.waitForFunction(
    async () =>
      (await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts') &&
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('ivus-review-drafts');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const count = open.result.transaction('drafts').objectStore('drafts').count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result > 0);
          };
          count.onerror = () => resolve(false);
        };
      }),
  );
}

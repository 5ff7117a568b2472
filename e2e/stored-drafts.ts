import type { Page } from '@playwright/test';

/**
 * Waits until the review has stored a draft in IndexedDB that holds at least `annotations`
 * annotations (rulers, areas, texts and angles together). A draft is written a moment after each
 * edit, so one may already be stored from an earlier moment of the same drawing (the ruler's first
 * click) while the draft with the finished edit is still 300 ms away; a reload then finds the
 * earlier one. Waiting for the database, or for any draft, is therefore not enough.
 */
export async function waitForStoredDraft(page: Page, annotations = 1): Promise<void> {
  await page.waitForFunction(
    async (least) =>
      (await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts') &&
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('ivus-review-drafts');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const all = open.result.transaction('drafts').objectStore('drafts').getAll();
          all.onsuccess = () => {
            open.result.close();
            type Stored = { manifest?: { ruler?: unknown[]; area?: unknown[]; text?: unknown[]; angle?: unknown[] } };
            const held = (draft: Stored) => ['ruler', 'area', 'text', 'angle'].reduce((sum, kind) => sum + (draft.manifest?.[kind as 'ruler']?.length ?? 0), 0);
            resolve((all.result as Stored[]).some((draft) => held(draft) >= least));
          };
          all.onerror = () => resolve(false);
        };
      }),
    annotations,
  );
}

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

/**
 * Waits until IndexedDB holds a draft with a ruler from `from` to `to` (image pixels, within 3) on
 * `slice`: the finished ruler, not an earlier moment of its drawing. A draft holds the record's
 * saved annotations too, and other specs save rulers at the same points on other slices of the
 * shared record: without the slice, the draft of the ruler's first click would already match.
 */
export async function waitForStoredRuler(page: Page, slice: number, from: [number, number], to: [number, number]): Promise<void> {
  await page.waitForFunction(
    async ({ slice, from, to }) =>
      (await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts') &&
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('ivus-review-drafts');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const all = open.result.transaction('drafts').objectStore('drafts').getAll();
          all.onsuccess = () => {
            open.result.close();
            type Ruler = { slice: number; startX: number; startY: number; endX: number; endY: number };
            const near = (r: Ruler) => r.slice === slice && [r.startX - from[0], r.startY - from[1], r.endX - to[0], r.endY - to[1]].every((d) => Math.abs(d) <= 3);
            resolve((all.result as { manifest?: { ruler?: Ruler[] } }[]).some((draft) => draft.manifest?.ruler?.some(near)));
          };
          all.onerror = () => resolve(false);
        };
      }),
    { slice, from, to },
  );
}

/** The drafts this browser profile keeps, in IndexedDB and in Web Storage (page copies, edits kept aside); none while IndexedDB's database does not exist. */
export async function keptDrafts(page: Page): Promise<{ indexedDb: number; webStorage: number }> {
  return page.evaluate(async () => {
    const webStorage = Object.keys(localStorage).filter((key) => key.startsWith('ivus-review-draft')).length;
    if (!(await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts')) return { indexedDb: 0, webStorage };
    const indexedDb = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('ivus-review-drafts');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('drafts').objectStore('drafts').count();
        count.onsuccess = () => {
          open.result.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
    return { indexedDb, webStorage };
  });
}

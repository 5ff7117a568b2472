import { expect, type Page } from '@playwright/test';

type StoredRuler = { slice: number; startX: number; startY: number; endX: number; endY: number };
type StoredDraft = { manifest?: { ruler?: StoredRuler[]; area?: unknown[]; text?: unknown[]; angle?: unknown[] } };

/** Every draft in the review's IndexedDB database, read as it is; none while the database does not exist. */
function storedDrafts(page: Page): Promise<StoredDraft[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'ivus-review-drafts')) return [];
    return new Promise<StoredDraft[]>((resolve, reject) => {
      const open = indexedDB.open('ivus-review-drafts');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('drafts').objectStore('drafts').getAll();
        all.onsuccess = () => {
          open.result.close();
          resolve(all.result as StoredDraft[]);
        };
        all.onerror = () => reject(all.error);
      };
    });
  });
}

/**
 * Polls the stored drafts until one satisfies `holds` (the page may be reloading meanwhile). Not
 * page.waitForFunction: it takes an async predicate's Promise as truthy at the first poll, so such a
 * wait waits for nothing (the crashed-tab spec then crashed the tab before its draft was written).
 */
async function waitForDraft(page: Page, holds: (draft: StoredDraft) => boolean): Promise<void> {
  await expect.poll(async () => (await storedDrafts(page)).some(holds), { timeout: 30_000 }).toBe(true);
}

/**
 * Waits until the review has stored a draft in IndexedDB that holds at least `annotations`
 * annotations (rulers, areas, texts and angles together). A draft is written a moment after each
 * edit, so one may already be stored from an earlier moment of the same drawing (the ruler's first
 * click) while the draft with the finished edit is still 300 ms away; a reload then finds the
 * earlier one. Waiting for the database, or for any draft, is therefore not enough.
 */
export async function waitForStoredDraft(page: Page, annotations = 1): Promise<void> {
  const held = ({ manifest }: StoredDraft) => (manifest?.ruler?.length ?? 0) + (manifest?.area?.length ?? 0) + (manifest?.text?.length ?? 0) + (manifest?.angle?.length ?? 0);
  await waitForDraft(page, (draft) => held(draft) >= annotations);
}

/**
 * Waits until IndexedDB holds a draft with a ruler from `from` to `to` (image pixels, within 3) on
 * `slice`: the finished ruler, not an earlier moment of its drawing. A draft holds the record's
 * saved annotations too, and other specs save rulers at the same points on other slices of the
 * shared record: without the slice, the draft of the ruler's first click would already match.
 */
export async function waitForStoredRuler(page: Page, slice: number, from: [number, number], to: [number, number]): Promise<void> {
  const near = (r: StoredRuler) => r.slice === slice && [r.startX - from[0], r.startY - from[1], r.endX - to[0], r.endY - to[1]].every((d) => Math.abs(d) <= 3);
  await waitForDraft(page, (draft) => draft.manifest?.ruler?.some(near) ?? false);
}

/** The drafts this browser profile keeps, in IndexedDB and in Web Storage (page copies, edits kept aside). */
export async function keptDrafts(page: Page): Promise<{ indexedDb: number; webStorage: number }> {
  const webStorage = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('ivus-review-draft')).length);
  return { indexedDb: (await storedDrafts(page)).length, webStorage };
}

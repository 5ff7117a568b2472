import { draftKey, readableDraft, storedDraft, type AnnotationDraft, type DraftOwner } from './draft-record.ts';

/**
 * The draft copy written to Web Storage as the page goes (pagehide, or hidden). An IndexedDB write
 * begun then may never finish before a reload or a closed tab ends the page, and the last 300 ms of
 * edits would be lost without a word; localStorage is written synchronously and outlives the tab.
 * The copy is moved into IndexedDB at the next read of the draft (draft-store.ts) and removed as
 * soon as IndexedDB holds it, so patient data lingers here no longer than there.
 *
 * Storage refused (disabled, quota, private mode) leaves IndexedDB alone to do the work: every
 * call here answers quietly instead of throwing.
 */

export const PAGE_COPY_PREFIX = 'ivus-review-draft:';
/** Where edits made while a kept draft is still unanswered wait (draft-store.ts keepAside). */
export const ASIDE_COPY_PREFIX = 'ivus-review-draft-aside:';

export interface DraftPageCopy {
  /** Writes the owner's draft now; false when Web Storage refused it. */
  write(owner: DraftOwner, draft: AnnotationDraft): boolean;
  /** The owner's copy of the record, or null; one that is another's, invalid or older than `oldest` is removed. */
  read(owner: DraftOwner, recordId: string, oldest: number): AnnotationDraft | null;
  /** Removes the owner's copy of the record, or only one written no later than `upTo`. */
  remove(owner: DraftOwner, recordId: string, upTo?: number): void;
  /** Removes every user's copies older than `oldest` (and unreadable ones); answers how many. */
  prune(oldest: number): number;
}

export interface DraftPageCopyOptions {
  /** The Web Storage to use; null or a throw when the browser refuses it. */
  storage?: () => Storage | null;
  /** Told once, the first time storage refuses something. */
  onRefused?: (error: unknown) => void;
  /** The keys' prefix: one per kind of copy. */
  prefix?: string;
}

function browserLocalStorage(): Storage | null {
  // Reading `localStorage` itself throws where the browser blocks site data.
  return typeof localStorage === 'undefined' ? null : localStorage;
}

export function createDraftPageCopy({ storage = browserLocalStorage, onRefused = () => undefined, prefix = PAGE_COPY_PREFIX }: DraftPageCopyOptions = {}): DraftPageCopy {
  function using<T>(fallback: T, operation: (store: Storage) => T): T {
    try {
      const store = storage();
      return store ? operation(store) : fallback;
    } catch (error) {
      onRefused(error);
      return fallback;
    }
  }

  function parsed(store: Storage, key: string): unknown {
    try {
      return JSON.parse(store.getItem(key) ?? 'null') as unknown;
    } catch {
      return null;
    }
  }

  return {
    write(owner, draft) {
      return using(false, (store) => {
        store.setItem(prefix + draftKey(owner, draft.recordId), JSON.stringify(storedDraft(owner, draft)));
        return true;
      });
    },

    read(owner, recordId, oldest) {
      return using(null, (store) => {
        const key = prefix + draftKey(owner, recordId);
        if (store.getItem(key) === null) return null;
        const draft = readableDraft(parsed(store, key), owner, recordId, oldest);
        if (!draft) store.removeItem(key);
        return draft;
      });
    },

    remove(owner, recordId, upTo = Infinity) {
      using(undefined, (store) => {
        const key = prefix + draftKey(owner, recordId);
        const value = parsed(store, key) as { updatedAt?: unknown } | null;
        const updatedAt = typeof value?.updatedAt === 'number' ? value.updatedAt : -Infinity;
        if (store.getItem(key) !== null && updatedAt <= upTo) store.removeItem(key);
      });
    },

    prune(oldest) {
      return using(0, (store) => {
        const keys: string[] = [];
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i);
          if (key?.startsWith(prefix)) keys.push(key);
        }
        let removed = 0;
        for (const key of keys) {
          const value = parsed(store, key) as { updatedAt?: unknown } | null;
          if (typeof value?.updatedAt === 'number' && value.updatedAt >= oldest) continue;
          store.removeItem(key);
          removed += 1;
        }
        return removed;
      });
    },
  };
}

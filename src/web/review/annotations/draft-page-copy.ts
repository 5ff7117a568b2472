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
}

function browserLocalStorage(): Storage | null {
  // Reading `localStorage` itself throws where the browser blocks site data.
  return typeof localStorage === 'undefined' ? null : localStorage;
}

/** Web Storage reached safely: every refusal is told once (onRefused) and answered with the fallback. */
export interface WebStorageAccess {
  using<T>(fallback: T, operation: (store: Storage) => T): T;
  /** The parsed value under the key, or null (none, or not JSON). */
  parsed(store: Storage, key: string): unknown;
  /** The keys that start with the prefix, listed before any is removed. */
  keysFrom(store: Storage, prefix: string): string[];
  /** Removes the copies under the prefix older than `oldest` (and unreadable ones); answers how many. */
  prune(store: Storage, prefix: string, oldest: number): number;
}

export function webStorageAccess({ storage = browserLocalStorage, onRefused = () => undefined }: DraftPageCopyOptions = {}): WebStorageAccess {
  const access: WebStorageAccess = {
    using(fallback, operation) {
      try {
        const store = storage();
        return store ? operation(store) : fallback;
      } catch (error) {
        onRefused(error);
        return fallback;
      }
    },
    parsed(store, key) {
      try {
        return JSON.parse(store.getItem(key) ?? 'null') as unknown;
      } catch {
        return null;
      }
    },
    keysFrom(store, prefix) {
      const keys: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key?.startsWith(prefix)) keys.push(key);
      }
      return keys;
    },
    prune(store, prefix, oldest) {
      let removed = 0;
      for (const key of access.keysFrom(store, prefix)) {
        if (updatedAtOf(access.parsed(store, key)) >= oldest) continue;
        store.removeItem(key);
        removed += 1;
      }
      return removed;
    },
  };
  return access;
}

/** When a stored copy was written; -Infinity when it does not say (unreadable). */
export function updatedAtOf(value: unknown): number {
  const updatedAt = (value as { updatedAt?: unknown } | null)?.updatedAt;
  return typeof updatedAt === 'number' ? updatedAt : -Infinity;
}

export function createDraftPageCopy(options: DraftPageCopyOptions = {}): DraftPageCopy {
  const prefix = PAGE_COPY_PREFIX;
  const { using, parsed, prune } = webStorageAccess(options);

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
        if (store.getItem(key) !== null && updatedAtOf(parsed(store, key)) <= upTo) store.removeItem(key);
      });
    },

    prune(oldest) {
      return using(0, (store) => prune(store, prefix, oldest));
    },
  };
}

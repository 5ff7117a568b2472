import { webStorageAccess, updatedAtOf, type DraftPageCopyOptions } from './draft-page-copy.ts';
import { draftKey, readableDraft, storedDraft, type AnnotationDraft, type DraftOwner } from './draft-record.ts';

/**
 * Edits kept beside a draft they must not replace (draft-store.ts keepAside): made while a kept
 * draft was still being looked up or offered, or while another tab holds the record's draft. Each
 * page (a tab, a load) keeps its own entry in Web Storage, so no page's edits replace another's:
 * three tabs, or two loads that each left an offer unanswered, leave three or two entries, and each
 * is offered in turn, oldest first. A page writes and deletes only its own entry; the entry that is
 * offered is moved into IndexedDB first, and only that one is removed.
 *
 * Keys: ASIDE_COPY_PREFIX + the owner key (user and record, draft-record.ts) + ':' + the page id.
 */

export const ASIDE_COPY_PREFIX = 'ivus-review-draft-aside:';

/**
 * The most entries kept per user and record. Each is a page that went with unsaved edits while
 * another draft of the record was unanswered, so normal use stays far below it; beyond it the
 * oldest entry is dropped, so that one user's forgotten tabs cannot fill the browser's storage.
 */
export const MAX_ASIDES_PER_RECORD = 8;

/** A Web Storage copy waiting to move into IndexedDB; `remove` deletes it unless its page has written newer edits since. */
export interface WaitingCopy {
  draft: AnnotationDraft;
  remove(): void;
}

export interface DraftAsides {
  /** Writes this page's entry for the record (replacing only its own); false when Web Storage refused it. */
  keep(owner: DraftOwner, draft: AnnotationDraft): boolean;
  /** Removes this page's entry for the record; the other pages' are left. */
  drop(owner: DraftOwner, recordId: string): void;
  /** The owner's oldest entry for the record, of any page, or null; unreadable and too old ones are removed. */
  oldest(owner: DraftOwner, recordId: string, oldest: number): WaitingCopy | null;
  /** Removes every user's entries older than `oldest` (and unreadable ones); answers how many. */
  prune(oldest: number): number;
}

export interface DraftAsidesOptions extends DraftPageCopyOptions {
  /** This page's id: random, made once per page (the store is made once per page). */
  page?: string;
  /** Told when an entry of another page is dropped beyond MAX_ASIDES_PER_RECORD. */
  onDropped?: (dropped: AnnotationDraft) => void;
}

const randomPageId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function droppedWarning(dropped: AnnotationDraft): void {
  const when = new Date(dropped.updatedAt).toISOString();
  console.warn(`More than ${MAX_ASIDES_PER_RECORD} pages left unsaved annotations of record ${dropped.recordId} beside its draft: the oldest (last edited ${when}) is dropped`);
}

export function createDraftAsides({ page = randomPageId(), onDropped = droppedWarning, ...options }: DraftAsidesOptions = {}): DraftAsides {
  const { using, parsed, keysFrom, prune } = webStorageAccess(options);
  const recordPrefix = (owner: DraftOwner, recordId: string) => ASIDE_COPY_PREFIX + draftKey(owner, recordId);
  const ownKey = (owner: DraftOwner, recordId: string) => `${recordPrefix(owner, recordId)}:${page}`;

  /** The record's entries, oldest first; the one slot of earlier builds (no page id) is one of them. */
  function entryKeys(store: Storage, owner: DraftOwner, recordId: string): string[] {
    const base = recordPrefix(owner, recordId);
    const keys = keysFrom(store, base).filter((key) => key === base || key.startsWith(`${base}:`));
    const times = new Map(keys.map((key) => [key, updatedAtOf(parsed(store, key))]));
    return keys.sort((a, b) => (times.get(a) ?? 0) - (times.get(b) ?? 0) || a.localeCompare(b));
  }

  /** Makes room for one more entry: the oldest of the other pages' go once the record has the most. */
  function makeRoom(store: Storage, owner: DraftOwner, recordId: string): void {
    const own = ownKey(owner, recordId);
    const others = entryKeys(store, owner, recordId).filter((key) => key !== own);
    for (const key of others.slice(0, Math.max(0, others.length - (MAX_ASIDES_PER_RECORD - 1)))) {
      const dropped = readableDraft(parsed(store, key), owner, recordId, -Infinity);
      store.removeItem(key);
      if (dropped) onDropped(dropped);
    }
  }

  return {
    keep(owner, draft) {
      return using(false, (store) => {
        makeRoom(store, owner, draft.recordId);
        store.setItem(ownKey(owner, draft.recordId), JSON.stringify(storedDraft(owner, draft)));
        return true;
      });
    },

    drop(owner, recordId) {
      using(undefined, (store) => store.removeItem(ownKey(owner, recordId)));
    },

    oldest(owner, recordId, oldest) {
      return using(null, (store) => {
        for (const key of entryKeys(store, owner, recordId)) {
          const draft = readableDraft(parsed(store, key), owner, recordId, oldest);
          if (!draft) {
            store.removeItem(key);
            continue;
          }
          const remove = () =>
            using(undefined, (current) => {
              if (current.getItem(key) !== null && updatedAtOf(parsed(current, key)) <= draft.updatedAt) current.removeItem(key);
            });
          return { draft, remove };
        }
        return null;
      });
    },

    prune(oldest) {
      return using(0, (store) => prune(store, ASIDE_COPY_PREFIX, oldest));
    },
  };
}

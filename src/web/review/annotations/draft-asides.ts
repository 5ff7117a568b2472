import { webStorageAccess, updatedAtOf, type DraftPageCopyOptions } from './draft-page-copy.ts';
import { draftKey, readableDraft, storedDraft, type AnnotationDraft, type DraftOwner } from './draft-record.ts';

/**
 * Edits kept beside a draft they must not replace (draft-store.ts keepAside): made while a kept
 * draft was still being looked up or offered, while another tab holds the record's draft, or as
 * the page went before its tab had claimed the draft (another tab may have meanwhile). Each
 * visit of the record (a tab, a load, or the same page opening it again) keeps its own entry in Web
 * Storage, so no visit's edits replace another's: three tabs, or two visits that each left an offer
 * unanswered, leave three or two entries, and each is offered in turn, oldest first. A visit writes
 * and deletes only its own entry; the entry that is offered is moved into IndexedDB first, and only
 * that one is removed.
 *
 * Keys: ASIDE_COPY_PREFIX + the owner key (user and record, draft-record.ts) + ':' + the visit's entry id.
 */

export const ASIDE_COPY_PREFIX = 'ivus-review-draft-aside:';

/**
 * The most entries kept per user and record. Each is a visit that left with unsaved edits while
 * another draft of the record was unanswered, so normal use stays far below it; beyond it the
 * oldest entry is dropped, so that one user's forgotten tabs cannot fill the browser's storage.
 */
export const MAX_ASIDES_PER_RECORD = 8;

/** A Web Storage copy waiting to move into IndexedDB; `remove` deletes it unless its visit has written newer edits since. */
export interface WaitingCopy {
  draft: AnnotationDraft;
  remove(): void;
}

export interface DraftAsides {
  /** Writes the visit's entry (`entry`, newAsideEntryId) for the record, replacing only it; false when Web Storage refused it. */
  keep(owner: DraftOwner, draft: AnnotationDraft, entry: string): boolean;
  /** Removes the visit's entry for the record; the others are left. */
  drop(owner: DraftOwner, recordId: string, entry: string): void;
  /** The owner's oldest entry for the record, of any visit, or null; unreadable and too old ones are removed. */
  oldest(owner: DraftOwner, recordId: string, oldest: number): WaitingCopy | null;
  /** Removes every user's entries older than `oldest` (and unreadable ones); answers how many. */
  prune(oldest: number): number;
}

export interface DraftAsidesOptions extends DraftPageCopyOptions {
  /** Told when another visit's entry is dropped beyond MAX_ASIDES_PER_RECORD. */
  onDropped?: (dropped: AnnotationDraft) => void;
}

/**
 * A visit's own entry id: random, made once per visit of a record (draft-sync.ts), not per page, so
 * a page that opens the record again (in-app navigation, no reload) never replaces the first visit's
 * entry before it is offered.
 */
export const newAsideEntryId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function droppedWarning(dropped: AnnotationDraft): void {
  const when = new Date(dropped.updatedAt).toISOString();
  console.warn(`More than ${MAX_ASIDES_PER_RECORD} visits left unsaved annotations of record ${dropped.recordId} beside its draft: the oldest (last edited ${when}) is dropped`);
}

export function createDraftAsides({ onDropped = droppedWarning, ...options }: DraftAsidesOptions = {}): DraftAsides {
  const { using, parsed, keysFrom, prune } = webStorageAccess(options);
  const recordPrefix = (owner: DraftOwner, recordId: string) => ASIDE_COPY_PREFIX + draftKey(owner, recordId);
  const ownKey = (owner: DraftOwner, recordId: string, entry: string) => `${recordPrefix(owner, recordId)}:${entry}`;

  /** The record's entries, oldest first; the one slot of earlier builds (no entry id) is one of them. */
  function entryKeys(store: Storage, owner: DraftOwner, recordId: string): string[] {
    const base = recordPrefix(owner, recordId);
    const keys = keysFrom(store, base).filter((key) => key === base || key.startsWith(`${base}:`));
    const times = new Map(keys.map((key) => [key, updatedAtOf(parsed(store, key))]));
    return keys.sort((a, b) => (times.get(a) ?? 0) - (times.get(b) ?? 0) || a.localeCompare(b));
  }

  /** Makes room for one more entry: the oldest of the other visits' go once the record has the most. */
  function makeRoom(store: Storage, owner: DraftOwner, recordId: string, entry: string): void {
    const own = ownKey(owner, recordId, entry);
    const others = entryKeys(store, owner, recordId).filter((key) => key !== own);
    for (const key of others.slice(0, Math.max(0, others.length - (MAX_ASIDES_PER_RECORD - 1)))) {
      const dropped = readableDraft(parsed(store, key), owner, recordId, -Infinity);
      store.removeItem(key);
      if (dropped) onDropped(dropped);
    }
  }

  return {
    keep(owner, draft, entry) {
      return using(false, (store) => {
        makeRoom(store, owner, draft.recordId, entry);
        store.setItem(ownKey(owner, draft.recordId, entry), JSON.stringify(storedDraft(owner, draft)));
        return true;
      });
    },

    drop(owner, recordId, entry) {
      using(undefined, (store) => store.removeItem(ownKey(owner, recordId, entry)));
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

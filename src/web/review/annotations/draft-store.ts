import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { sameJson } from '../../../domain/same-json.ts';
import { decodeJwtClaims } from '../../auth/session-user.ts';
import { createDraftAsides, type WaitingCopy, type DraftAsides } from './draft-asides.ts';
import { createDraftPageCopy, type DraftPageCopy } from './draft-page-copy.ts';
import { DRAFT_MAX_AGE_MS, readableDraft, storedDraft, draftKey, type AnnotationDraft, type DraftOwner, type StoredDraft } from './draft-record.ts';

export { DRAFT_MAX_AGE_MS, type AnnotationDraft, type DraftOwner } from './draft-record.ts';

/**
 * Unsaved annotation edits kept in this browser's IndexedDB, one draft per user and record, so a
 * forced sign-out (expired session, an API 401), a crash or a reload loses no work. The draft is
 * offered back when the record is opened again (see draft-sync.ts); saving deletes it. As the page
 * goes, a copy is also written synchronously to Web Storage (draft-page-copy.ts), which IndexedDB
 * cannot promise; reading a draft takes the newer of the two.
 *
 * Drafts outlive sign-out on purpose: a session that ended by itself is exactly the case they are
 * for. They are keyed by the ID token's issuer and subject, so another person signing in on the
 * same browser never sees them, and they are dropped after DRAFT_MAX_AGE_MS.
 */

interface DraftsDb extends DBSchema {
  drafts: { key: string; value: StoredDraft; indexes: { updatedAt: number } };
}

export const DRAFTS_DB_NAME = 'ivus-review-drafts';
const DB_VERSION = 1;

export interface DraftStore {
  saveDraft(owner: DraftOwner, draft: AnnotationDraft): Promise<void>;
  /**
   * Writes the draft only if the record has none, in one IndexedDB transaction: of several tabs taking
   * over a deleted draft at once (draft-tabs.ts), exactly one writes it, since IndexedDB runs
   * overlapping read-write transactions one after another, across tabs too. Answers whether this
   * one did; true without IndexedDB (or when it failed), where no draft is shared to be taken, so
   * that the tab goes on as before (its edits reach Web Storage as the page goes).
   */
  claimDraft(owner: DraftOwner, draft: AnnotationDraft): Promise<boolean>;
  /**
   * Restoring an offered draft takes it, as claimDraft takes a free one: in one IndexedDB transaction
   * `claimed` is written only while the record's draft is still `offered` (same time, base and
   * manifest), or none is left. `claimed` must differ from `offered` (draft-sync.ts writes it a
   * millisecond later), so that of several tabs restoring the same offer at once exactly one does.
   * Answers whether this one did; true without IndexedDB, as claimDraft.
   */
  claimOffered(owner: DraftOwner, offered: AnnotationDraft, claimed: AnnotationDraft): Promise<boolean>;
  /**
   * The page is going: keeps the draft in Web Storage at once (a reload or a closed tab may end the
   * page before an IndexedDB write finishes), then saves it as saveDraft does.
   */
  saveDraftAtPageEnd(owner: DraftOwner, draft: AnnotationDraft): Promise<void>;
  /**
   * Edits that must not replace the record's draft (it is unanswered, another tab's, or not yet
   * claimed by this one as the page goes) are kept synchronously beside it, in the visit's own entry `entry`
   * (draft-asides.ts), never over another's. They become the record's draft, and are offered, once no
   * other draft is left (loadDraft), oldest first; false when Web Storage refused them.
   */
  keepAside(owner: DraftOwner, draft: AnnotationDraft, entry: string): boolean;
  /** Removes the visit's edits kept aside (it saved or discarded them, or now holds the draft itself); others stay. */
  dropAside(owner: DraftOwner, recordId: string, entry: string): void;
  /**
   * The owner's draft of the record, or null (none, too old, or unreadable: the last two are deleted).
   * A newer copy left in Web Storage as the page went is moved into IndexedDB and answered; with no
   * draft at all, the oldest edits kept aside (keepAside, by any visit) are, and only that entry leaves Web Storage.
   */
  loadDraft(owner: DraftOwner, recordId: string): Promise<AnnotationDraft | null>;
  deleteDraft(owner: DraftOwner, recordId: string): Promise<void>;
  /** Deletes every user's drafts older than the maximum age, in both places; answers how many. */
  pruneDrafts(): Promise<number>;
  /** Resolves once every write asked for so far is done (sign-out waits for it before leaving the page). */
  settled(): Promise<void>;
}

export interface DraftStoreOptions {
  name?: string;
  now?: () => number;
  maxAgeMs?: number;
  /** Where the copy made as the page goes is kept (localStorage by default). */
  pageCopy?: DraftPageCopy;
  /** Where edits made beside an unanswered draft are kept, one entry per visit (localStorage by default). */
  asides?: DraftAsides;
}

/** The owner of drafts made with this ID token; null when it lacks an issuer or subject (then nothing is kept). */
export function draftOwnerFromIdToken(idToken: string | null | undefined): DraftOwner | null {
  const claims = decodeJwtClaims(idToken);
  const issuer = claims?.iss;
  const subject = claims?.sub;
  if (typeof issuer !== 'string' || issuer === '' || typeof subject !== 'string' || subject === '') return null;
  return { issuer, subject };
}

export function createDraftStore({ name = DRAFTS_DB_NAME, now = Date.now, maxAgeMs = DRAFT_MAX_AGE_MS, pageCopy, asides: asideCopies }: DraftStoreOptions = {}): DraftStore {
  let opening: Promise<IDBPDatabase<DraftsDb> | null> | null = null;
  // Every operation runs in the order it was asked for: a delete after a save must not be overtaken
  // by it, and sign-out can wait for the tail of this chain.
  let queue: Promise<unknown> = Promise.resolve();
  let warned = false;

  function warn(message: string, error: unknown): void {
    // A browser without IndexedDB (or with storage refused) keeps working, only without drafts.
    if (warned) return;
    warned = true;
    console.warn(message, error);
  }

  const onRefused = (error: unknown) => warn('Unsaved annotation drafts cannot be kept in Web Storage', error);
  const copies = pageCopy ?? createDraftPageCopy({ onRefused });
  const asides = asideCopies ?? createDraftAsides({ onRefused });

  function database(): Promise<IDBPDatabase<DraftsDb> | null> {
    opening ??= (async () => {
      if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available');
      const db = await openDB<DraftsDb>(name, DB_VERSION, {
        upgrade(created) {
          const store = created.createObjectStore('drafts', { keyPath: 'key' });
          store.createIndex('updatedAt', 'updatedAt');
        },
        // Another tab wants a newer schema: step aside, and open afresh next time.
        blocking() {
          db.close();
          opening = null;
        },
        terminated() {
          opening = null;
        },
      });
      return db;
    })().catch((error: unknown) => {
      warn('Unsaved annotation drafts cannot be kept in this browser', error);
      return null;
    });
    return opening;
  }

  /** Runs the operation in turn; without IndexedDB, or when it fails, answers the fallback's value. */
  function enqueue<T>(fallback: () => T, operation: (db: IDBPDatabase<DraftsDb>) => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      const db = await database();
      if (!db) return fallback();
      try {
        return await operation(db);
      } catch (error) {
        warn('An unsaved annotation draft could not be read or written', error);
        return fallback();
      }
    });
    queue = run;
    return run;
  }

  async function prune(db: IDBPDatabase<DraftsDb>): Promise<number> {
    const tx = db.transaction('drafts', 'readwrite');
    let removed = 0;
    let cursor = await tx.store.index('updatedAt').openCursor(IDBKeyRange.upperBound(now() - maxAgeMs, true));
    while (cursor) {
      await cursor.delete();
      removed += 1;
      cursor = await cursor.continue();
    }
    await tx.done;
    return removed;
  }

  function save(owner: DraftOwner, draft: AnnotationDraft): Promise<void> {
    const stored = storedDraft(owner, draft);
    return enqueue(
      () => undefined,
      async (db) => {
        await db.put('drafts', stored);
        // IndexedDB holds it now: a copy made as the page went, of this moment or before, is not needed.
        copies.remove(owner, draft.recordId, draft.updatedAt);
      },
    );
  }

  async function load(db: IDBPDatabase<DraftsDb>, owner: DraftOwner, recordId: string): Promise<AnnotationDraft | null> {
    const key = draftKey(owner, recordId);
    const stored = await db.get('drafts', key);
    const draft = stored ? readableDraft(stored, owner, recordId, now() - maxAgeMs) : null;
    if (stored && !draft) await db.delete('drafts', key);
    const copy = copies.read(owner, recordId, now() - maxAgeMs);
    if (!copy || (draft && draft.updatedAt >= copy.updatedAt)) {
      if (copy) copies.remove(owner, recordId);
      return draft ?? (await promote(db, owner, asides.oldest(owner, recordId, now() - maxAgeMs), null));
    }
    // The copy made as the page went is newer: the IndexedDB write it stood in for never finished.
    return promote(db, owner, { draft: copy, remove: () => copies.remove(owner, recordId, copy.updatedAt) }, draft?.updatedAt ?? null);
  }

  /**
   * Moves a Web Storage copy into IndexedDB, where it is the record’s draft from now on, then removes
   * it from Web Storage; answers it. Only over the draft just read (`over`, its time, or null for
   * none): a tab that wrote the draft meanwhile (claimDraft) is not replaced; that draft is read again.
   */
  async function promote(db: IDBPDatabase<DraftsDb>, owner: DraftOwner, entry: WaitingCopy | null, over: number | null): Promise<AnnotationDraft | null> {
    if (!entry) return null;
    if (!(await putOver(db, storedDraft(owner, entry.draft), over))) return load(db, owner, entry.draft.recordId);
    entry.remove();
    return entry.draft;
  }

  /** Puts the draft in one transaction, only while the record's draft is still the one written at `over` (null: none); answers whether it did. */
  function putOver(db: IDBPDatabase<DraftsDb>, stored: StoredDraft, over: number | null): Promise<boolean> {
    return putIf(db, stored, (current) => (over === null ? current === undefined : current?.updatedAt === over));
  }

  /** Puts the draft in one read-write transaction (IndexedDB runs them one after another, across tabs too) if `still` holds of the record's draft then. */
  async function putIf(db: IDBPDatabase<DraftsDb>, stored: StoredDraft, still: (current: StoredDraft | undefined) => boolean): Promise<boolean> {
    const tx = db.transaction('drafts', 'readwrite');
    const current = await tx.store.get(stored.key);
    const put = still(current);
    if (put) await tx.store.put(stored);
    await tx.done;
    return put;
  }

  /** Without IndexedDB, the oldest edits kept aside become the page copy, which Save and Discard delete. */
  function asideAsCopy(owner: DraftOwner, recordId: string): AnnotationDraft | null {
    const aside = asides.oldest(owner, recordId, now() - maxAgeMs);
    if (!aside || !copies.write(owner, aside.draft)) return aside?.draft ?? null;
    aside.remove();
    return aside.draft;
  }

  return {
    saveDraft: save,
    claimDraft(owner, draft) {
      return enqueue(
        () => true,
        (db) => putOver(db, storedDraft(owner, draft), null),
      );
    },

    claimOffered(owner, offered, claimed) {
      const isOffered = (current: StoredDraft | undefined) =>
        current === undefined || (current.updatedAt === offered.updatedAt && current.baseVersion === offered.baseVersion && sameJson(current.manifest, offered.manifest));
      return enqueue(
        () => true,
        (db) => putIf(db, storedDraft(owner, claimed), isOffered),
      );
    },

    saveDraftAtPageEnd(owner, draft) {
      copies.write(owner, draft);
      return save(owner, draft);
    },

    keepAside(owner, draft, entry) {
      return asides.keep(owner, draft, entry);
    },

    dropAside(owner, recordId, entry) {
      asides.drop(owner, recordId, entry);
    },

    loadDraft(owner, recordId) {
      // Without IndexedDB the copy is all there is: offered, and kept until saved or discarded.
      return enqueue(
        () => copies.read(owner, recordId, now() - maxAgeMs) ?? asideAsCopy(owner, recordId),
        (db) => load(db, owner, recordId),
      );
    },

    deleteDraft(owner, recordId) {
      // At once, not in turn: a reload right after Save or Discard must find no copy to offer.
      copies.remove(owner, recordId);
      return enqueue(
        () => undefined,
        async (db) => {
          await db.delete('drafts', draftKey(owner, recordId));
        },
      );
    },

    pruneDrafts() {
      const copiesRemoved = copies.prune(now() - maxAgeMs) + asides.prune(now() - maxAgeMs);
      return enqueue(() => 0, prune).then((removed) => removed + copiesRemoved);
    },

    settled() {
      return queue.then(() => undefined);
    },
  };
}

/** The page's draft store. */
export const draftStore: DraftStore = createDraftStore();

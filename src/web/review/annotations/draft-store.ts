import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { AnnotationManifestSchema, type AnnotationManifest } from '../../../domain/annotations/manifest.ts';
import { decodeJwtClaims } from '../../auth/session-user.ts';

/**
 * Unsaved annotation edits kept in this browser's IndexedDB, one draft per user and record, so a
 * forced sign-out (expired session, an API 401), a crash or a reload loses no work. The draft is
 * offered back when the record is opened again (see draft-sync.ts); saving deletes it.
 *
 * Drafts outlive sign-out on purpose: a session that ended by itself is exactly the case they are
 * for. They are keyed by the ID token's issuer and subject, so another person signing in on the
 * same browser never sees them, and they are dropped after DRAFT_MAX_AGE_MS.
 */

/** Whose drafts: the ID token's `iss` and `sub`, stable across sign-ins (unlike the token itself). */
export interface DraftOwner {
  issuer: string;
  subject: string;
}

export interface AnnotationDraft {
  recordId: string;
  patientId: string;
  /** The saved version the edits were made on (0 = nothing saved yet); a save from it meets the conflict question if the server moved on. */
  baseVersion: number;
  manifest: AnnotationManifest;
  /** When the draft was last written, in ms since the epoch. */
  updatedAt: number;
}

interface StoredDraft extends AnnotationDraft {
  key: string;
  issuer: string;
  subject: string;
}

interface DraftsDb extends DBSchema {
  drafts: { key: string; value: StoredDraft; indexes: { updatedAt: number } };
}

/** A draft not touched for 30 days is most likely forgotten, and patient data should not linger. */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
export const DRAFTS_DB_NAME = 'ivus-review-drafts';
const DB_VERSION = 1;

export interface DraftStore {
  saveDraft(owner: DraftOwner, draft: AnnotationDraft): Promise<void>;
  /** The owner's draft of the record, or null (none, too old, or unreadable: the last two are deleted). */
  loadDraft(owner: DraftOwner, recordId: string): Promise<AnnotationDraft | null>;
  deleteDraft(owner: DraftOwner, recordId: string): Promise<void>;
  /** Deletes every user's drafts older than the maximum age; answers how many. */
  pruneDrafts(): Promise<number>;
  /** Resolves once every write asked for so far is done (sign-out waits for it before leaving the page). */
  settled(): Promise<void>;
}

export interface DraftStoreOptions {
  name?: string;
  now?: () => number;
  maxAgeMs?: number;
}

/** The owner of drafts made with this ID token; null when it lacks an issuer or subject (then nothing is kept). */
export function draftOwnerFromIdToken(idToken: string | null | undefined): DraftOwner | null {
  const claims = decodeJwtClaims(idToken);
  const issuer = claims?.iss;
  const subject = claims?.sub;
  if (typeof issuer !== 'string' || issuer === '' || typeof subject !== 'string' || subject === '') return null;
  return { issuer, subject };
}

/** One string key per user and record; JSON keeps the parts from running into each other. */
function draftKey(owner: DraftOwner, recordId: string): string {
  return JSON.stringify([owner.issuer, owner.subject, recordId]);
}

export function createDraftStore({ name = DRAFTS_DB_NAME, now = Date.now, maxAgeMs = DRAFT_MAX_AGE_MS }: DraftStoreOptions = {}): DraftStore {
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

  function enqueue<T>(fallback: T, operation: (db: IDBPDatabase<DraftsDb>) => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      const db = await database();
      if (!db) return fallback;
      try {
        return await operation(db);
      } catch (error) {
        warn('An unsaved annotation draft could not be read or written', error);
        return fallback;
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

  return {
    saveDraft(owner, draft) {
      const stored: StoredDraft = {
        key: draftKey(owner, draft.recordId),
        issuer: owner.issuer,
        subject: owner.subject,
        recordId: draft.recordId,
        patientId: draft.patientId,
        baseVersion: draft.baseVersion,
        manifest: draft.manifest,
        updatedAt: draft.updatedAt,
      };
      return enqueue(undefined, async (db) => {
        await db.put('drafts', stored);
      });
    },

    loadDraft(owner, recordId) {
      return enqueue<AnnotationDraft | null>(null, async (db) => {
        const key = draftKey(owner, recordId);
        const stored = await db.get('drafts', key);
        if (!stored) return null;
        // Checked again although the key says it: a draft is never handed to anyone but its owner.
        if (stored.issuer !== owner.issuer || stored.subject !== owner.subject || stored.recordId !== recordId) return null;
        // Stored by an older build, or by hand: a draft that is not a valid manifest is not offered.
        const manifest = AnnotationManifestSchema.safeParse(stored.manifest);
        const fresh = typeof stored.updatedAt === 'number' && stored.updatedAt >= now() - maxAgeMs;
        if (!manifest.success || !fresh || !Number.isInteger(stored.baseVersion) || stored.baseVersion < 0) {
          await db.delete('drafts', key);
          return null;
        }
        return {
          recordId: stored.recordId,
          patientId: stored.patientId,
          baseVersion: stored.baseVersion,
          manifest: manifest.data,
          updatedAt: stored.updatedAt,
        };
      });
    },

    deleteDraft(owner, recordId) {
      return enqueue(undefined, async (db) => {
        await db.delete('drafts', draftKey(owner, recordId));
      });
    },

    pruneDrafts() {
      return enqueue(0, prune);
    },

    settled() {
      return queue.then(() => undefined);
    },
  };
}

/** The page's draft store. */
export const draftStore: DraftStore = createDraftStore();

import { AnnotationManifestSchema, type AnnotationManifest } from '../../../domain/annotations/manifest.ts';

/**
 * What a kept draft is, and the one rule for reading it back, shared by the two places that keep
 * drafts: IndexedDB (draft-store.ts) and the Web Storage copy made as the page goes
 * (draft-page-copy.ts). Both are read with the same owner, validity and age checks.
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

export interface StoredDraft extends AnnotationDraft {
  key: string;
  issuer: string;
  subject: string;
}

/** A draft not touched for 30 days is most likely forgotten, and patient data should not linger. */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** One string key per user and record; JSON keeps the parts from running into each other. */
export function draftKey(owner: DraftOwner, recordId: string): string {
  return JSON.stringify([owner.issuer, owner.subject, recordId]);
}

export function storedDraft(owner: DraftOwner, draft: AnnotationDraft): StoredDraft {
  return {
    key: draftKey(owner, draft.recordId),
    issuer: owner.issuer,
    subject: owner.subject,
    recordId: draft.recordId,
    patientId: draft.patientId,
    baseVersion: draft.baseVersion,
    manifest: draft.manifest,
    updatedAt: draft.updatedAt,
  };
}

/**
 * The stored value as the owner's draft of the record, or null: not the owner's (checked again
 * although the key says it, a draft is never handed to anyone else), not a valid manifest (an older
 * build, a hand edit), or older than `oldest`. The caller deletes what answers null.
 */
export function readableDraft(stored: unknown, owner: DraftOwner, recordId: string, oldest: number): AnnotationDraft | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const value = stored as Partial<Record<keyof StoredDraft, unknown>>;
  if (value.issuer !== owner.issuer || value.subject !== owner.subject || value.recordId !== recordId) return null;
  const manifest = AnnotationManifestSchema.safeParse(value.manifest);
  const { baseVersion, updatedAt, patientId } = value;
  if (!manifest.success || typeof patientId !== 'string' || typeof updatedAt !== 'number' || updatedAt < oldest) return null;
  if (typeof baseVersion !== 'number' || !Number.isInteger(baseVersion) || baseVersion < 0) return null;
  return { recordId, patientId, baseVersion, manifest: manifest.data, updatedAt };
}

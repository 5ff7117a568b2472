import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import {
  DRAFT_MAX_AGE_MS,
  createDraftStore,
  draftOwnerFromIdToken,
  type AnnotationDraft,
} from '../../../../src/web/review/annotations/draft-store.ts';
import { fakeIdToken } from '../../fake-token.ts';

const ISSUER = 'http://demo.localhost/idp';
const dana = { issuer: ISSUER, subject: 'dana' };
const eli = { issuer: ISSUER, subject: 'eli' };
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

let databases = 0;
/** A store of its own per test: a fresh database name in the fake IndexedDB. */
function freshStore(now = () => NOW) {
  const name = `drafts-test-${++databases}`;
  return { name, drafts: createDraftStore({ name, now }) };
}

function rulerManifest(x = 10) {
  const empty = emptyManifest();
  return addAnnotation(empty, newRuler(empty, 4, { x: 0, y: 0 }, { x, y: 0 }));
}

function draft(recordId: string, overrides: Partial<AnnotationDraft> = {}): AnnotationDraft {
  return { recordId, patientId: 'P-7', baseVersion: 2, manifest: rulerManifest(), updatedAt: NOW - 1000, ...overrides };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('draft owner', () => {
  it('is the ID token’s issuer and subject', () => {
    expect(draftOwnerFromIdToken(fakeIdToken({ iss: ISSUER, sub: 'dana', email: 'd@demo.test' }))).toEqual(dana);
  });

  it('is nobody without an issuer or a subject, or without a readable token', () => {
    expect(draftOwnerFromIdToken(fakeIdToken({ sub: 'dana' }))).toBeNull();
    expect(draftOwnerFromIdToken(fakeIdToken({ iss: ISSUER, sub: '' }))).toBeNull();
    expect(draftOwnerFromIdToken('not-a-token')).toBeNull();
    expect(draftOwnerFromIdToken(null)).toBeNull();
  });
});

describe('draft store', () => {
  it('keeps one draft per user and record', async () => {
    const { drafts } = freshStore();
    await drafts.saveDraft(dana, draft('r1', { manifest: rulerManifest(10) }));
    await drafts.saveDraft(dana, draft('r2', { manifest: rulerManifest(20) }));
    await drafts.saveDraft(eli, draft('r1', { manifest: rulerManifest(30), baseVersion: 5 }));

    expect((await drafts.loadDraft(dana, 'r1'))?.manifest.ruler[0]?.endX).toBe(10);
    expect((await drafts.loadDraft(dana, 'r2'))?.manifest.ruler[0]?.endX).toBe(20);
    expect(await drafts.loadDraft(eli, 'r1')).toMatchObject({ recordId: 'r1', patientId: 'P-7', baseVersion: 5 });
    expect(await drafts.loadDraft(eli, 'r2')).toBeNull();

    // A later write of the same user and record replaces the draft.
    await drafts.saveDraft(dana, draft('r1', { manifest: rulerManifest(11), baseVersion: 3 }));
    expect(await drafts.loadDraft(dana, 'r1')).toMatchObject({ baseVersion: 3, manifest: { ruler: [{ endX: 11 }] } });
  });

  it('never hands a draft to another user, even one of the same subject at another issuer', async () => {
    const { drafts } = freshStore();
    await drafts.saveDraft(dana, draft('r1'));
    expect(await drafts.loadDraft(eli, 'r1')).toBeNull();
    expect(await drafts.loadDraft({ issuer: 'https://other.example/idp', subject: 'dana' }, 'r1')).toBeNull();
    // Key parts cannot run into each other either.
    expect(await drafts.loadDraft({ issuer: ISSUER, subject: 'danar1' }, '')).toBeNull();
    expect(await drafts.loadDraft(dana, 'r1')).not.toBeNull();
  });

  it('deletes a draft (after a save), leaving the others', async () => {
    const { drafts } = freshStore();
    await drafts.saveDraft(dana, draft('r1'));
    await drafts.saveDraft(eli, draft('r1'));
    await drafts.deleteDraft(dana, 'r1');
    expect(await drafts.loadDraft(dana, 'r1')).toBeNull();
    expect(await drafts.loadDraft(eli, 'r1')).not.toBeNull();
  });

  it('drops drafts older than the maximum age, of every user', async () => {
    const { drafts } = freshStore();
    await drafts.saveDraft(dana, draft('old', { updatedAt: NOW - DRAFT_MAX_AGE_MS - DAY }));
    await drafts.saveDraft(eli, draft('old', { updatedAt: NOW - 31 * DAY }));
    await drafts.saveDraft(dana, draft('recent', { updatedAt: NOW - 29 * DAY }));

    expect(await drafts.loadDraft(dana, 'old')).toBeNull();
    expect(await drafts.pruneDrafts()).toBe(1); // Eli's; Dana's old one went when it was asked for.
    expect(await drafts.loadDraft(eli, 'old')).toBeNull();
    expect(await drafts.loadDraft(dana, 'recent')).not.toBeNull();
  });

  it('runs writes in order, and settles once they are all done', async () => {
    const { drafts } = freshStore();
    void drafts.saveDraft(dana, draft('r1', { manifest: rulerManifest(1) }));
    void drafts.saveDraft(dana, draft('r1', { manifest: rulerManifest(2) }));
    void drafts.deleteDraft(dana, 'r1');
    void drafts.saveDraft(dana, draft('r2', { manifest: rulerManifest(3) }));
    await drafts.settled();
    const reader = createDraftStore({ name: `drafts-test-${databases}`, now: () => NOW });
    expect(await reader.loadDraft(dana, 'r1')).toBeNull();
    expect((await reader.loadDraft(dana, 'r2'))?.manifest.ruler[0]?.endX).toBe(3);
  });

  it('does not offer a stored draft that is not a valid manifest, and deletes it', async () => {
    const { name, drafts } = freshStore();
    await drafts.saveDraft(dana, draft('r1'));
    await drafts.settled();
    // As an older build (or a hand edit) might have left it.
    const db = await openDB(name);
    const key = JSON.stringify([ISSUER, 'dana', 'r1']);
    const stored = await db.get('drafts', key);
    await db.put('drafts', { ...stored, manifest: { ruler: 'nonsense' } });
    db.close();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await drafts.loadDraft(dana, 'r1')).toBeNull();
    expect(await drafts.loadDraft(dana, 'r1')).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('works without IndexedDB as a store that keeps nothing', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { drafts } = freshStore();
    await expect(drafts.saveDraft(dana, draft('r1'))).resolves.toBeUndefined();
    await expect(drafts.loadDraft(dana, 'r1')).resolves.toBeNull();
    await expect(drafts.deleteDraft(dana, 'r1')).resolves.toBeUndefined();
    await expect(drafts.settled()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

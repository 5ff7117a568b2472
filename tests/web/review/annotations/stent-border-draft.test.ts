/**
 * Issue 28: an unsaved stent border correction survives a reload as the lumen and vessel ones do:
 * the draft kept in the browser holds it, and the draft is offered back with it.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { setStentCorrection } from '../../../../src/domain/annotations/stent-corrections.ts';
import { createDraftStore } from '../../../../src/web/review/annotations/draft-store.ts';

const owner = { issuer: 'http://demo.localhost/idp', subject: 'dana' };
const ring = Array.from({ length: 16 }, (_, i) => ({ x: 256 + 120 * Math.cos(i / 2.55), y: 256 + 120 * Math.sin(i / 2.55) }));

describe('a draft with a stent border corrected by hand', () => {
  it('is stored and offered back with the correction', async () => {
    const now = Date.UTC(2026, 10, 15, 12, 0, 0);
    const drafts = createDraftStore({ name: 'stent-border-draft-test', now: () => now });
    const manifest = setStentCorrection(emptyManifest(), 7, ring);
    await drafts.saveDraft(owner, { recordId: 'r1', patientId: 'P-7', baseVersion: 1, manifest, updatedAt: now - 1000 });
    await drafts.settled();
    expect((await drafts.loadDraft(owner, 'r1'))?.manifest.stentBorders).toEqual([{ slice: 7, controlPoints: ring, source: 'manual' }]);
  });
});

/**
 * Issue 28: the stent references moved by hand, as the manifest keeps them: a manifest with them
 * parses, a bad one is refused with a message naming the field, one beyond the record is named,
 * and putting both back leaves a manifest as one never moved.
 */
import { describe, expect, it } from 'vitest';
import { checkManifestAgainstImage, emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import { setStentReferenceSlice } from '../../../src/domain/annotations/stent-reference-slices.ts';

const bounds = { sliceCount: 100, width: 512, height: 512 };

describe('stentReferences in the manifest', () => {
  it('sets and puts back each side; both put back leaves no field', () => {
    const distal = setStentReferenceSlice(emptyManifest(), 'distal', 6);
    expect(distal.stentReferences).toEqual({ distal: 6 });
    const both = setStentReferenceSlice(distal, 'proximal', 90);
    expect(both.stentReferences).toEqual({ distal: 6, proximal: 90 });
    expect(setStentReferenceSlice(both, 'proximal', 90)).toBe(both);
    const back = setStentReferenceSlice(setStentReferenceSlice(both, 'distal', null), 'proximal', null);
    expect(back).toEqual(emptyManifest());
    expect('stentReferences' in back).toBe(false);
  });

  it('parses a manifest with them, and refuses a slice that is no slice or a side it does not know', () => {
    expect(parseManifest({ ...emptyManifest(), stentReferences: { distal: 6, proximal: 90 } }).ok).toBe(true);
    expect(parseManifest({ ...emptyManifest(), stentReferences: { distal: 1.5 } })).toEqual({ ok: false, problems: ['stentReferences.distal: distal must be a whole number'] });
    expect(parseManifest({ ...emptyManifest(), stentReferences: { proximal: 0 } })).toEqual({ ok: false, problems: ['stentReferences.proximal: proximal must be 1 or more (slices are 1-based)'] });
    expect(parseManifest({ ...emptyManifest(), stentReferences: { middle: 3 } })).toEqual({ ok: false, problems: ['stentReferences: unknown field "middle"'] });
  });

  it('names a reference beyond the record', () => {
    expect(checkManifestAgainstImage({ ...emptyManifest(), stentReferences: { distal: 6, proximal: 101 } }, bounds)).toEqual(["stentReferences.proximal: slice 101 is beyond the record's 100 slices"]);
  });
});

/**
 * Issue 28: the calcium arcs a clinician sets by hand are stored in the annotation manifest. What a
 * client may send there: one arc per slice, degrees that are degrees, nothing the schema does not
 * know, and no slice beyond the record.
 */
import { describe, expect, it } from 'vitest';
import { checkManifestAgainstImage, emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import { arcBetween, arcEndDeg, withCalciumArc, withoutCalciumArc } from '../../../src/domain/annotations/calcium-arcs.ts';

const withArcs = (calcium: unknown) => ({ ...emptyManifest(), calcium });

describe('hand-set calcium arcs in the manifest', () => {
  it('are optional, and kept when valid', () => {
    expect(parseManifest(emptyManifest()).ok).toBe(true);
    const parsed = parseManifest(withArcs([{ slice: 3, startDeg: 350, arcDeg: 40, nodule: true }, { slice: 4, startDeg: 0, arcDeg: 0 }]));
    expect(parsed).toEqual({ ok: true, manifest: withArcs([{ slice: 3, startDeg: 350, arcDeg: 40, nodule: true }, { slice: 4, startDeg: 0, arcDeg: 0 }]) });
  });

  it.each([
    ['an arc over 360°', [{ slice: 1, startDeg: 0, arcDeg: 361 }], 'calcium[0].arcDeg: arcDeg must be at most 360'],
    ['a negative start', [{ slice: 1, startDeg: -5, arcDeg: 10 }], 'calcium[0].startDeg: startDeg must not be negative'],
    ['a start of 360', [{ slice: 1, startDeg: 360, arcDeg: 10 }], 'calcium[0].startDeg: startDeg must be below 360'],
    ['degrees as a string', [{ slice: 1, startDeg: '10', arcDeg: 10 }], 'calcium[0].startDeg: startDeg must be a number of degrees'],
    ['slice 0', [{ slice: 0, startDeg: 0, arcDeg: 10 }], 'calcium[0].slice: slice must be 1 or more (slices are 1-based)'],
    ['two arcs on one slice', [{ slice: 2, startDeg: 0, arcDeg: 10 }, { slice: 2, startDeg: 90, arcDeg: 10 }], 'calcium[1].slice: slice 2 has two calcium arcs'],
    ['a field the schema does not know', [{ slice: 1, startDeg: 0, arcDeg: 10, weight: 1 }], 'calcium[0]'],
    ['no list', { slice: 1 }, 'calcium: calcium must be a list of arcs'],
  ])('refuse %s', (_name, calcium, problem) => {
    const parsed = parseManifest(withArcs(calcium));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toContain(problem);
  });

  it('refuse a slice beyond the record', () => {
    const manifest = withArcs([{ slice: 12, startDeg: 0, arcDeg: 10 }]) as ReturnType<typeof emptyManifest>;
    expect(checkManifestAgainstImage(manifest, { sliceCount: 10, width: 100, height: 100 })).toEqual(["calcium[0].slice: slice 12 is beyond the record's 10 slices"]);
  });
});

describe('arc arithmetic and edits', () => {
  it('turns the detector\'s way, over the seam too', () => {
    expect(arcBetween(350, 20)).toBe(30);
    expect(arcBetween(20, 350)).toBe(330);
    expect(arcEndDeg({ startDeg: 350, arcDeg: 30 })).toBe(20);
    expect(arcEndDeg({ startDeg: 10, arcDeg: 360 })).toBe(10);
  });

  it('sets one arc per slice, replacing the one there, and removes it', () => {
    const one = withCalciumArc(undefined, { slice: 5, startDeg: 0, arcDeg: 90 });
    const two = withCalciumArc(withCalciumArc(one, { slice: 2, startDeg: 0, arcDeg: 10 }), { slice: 5, startDeg: 30, arcDeg: 0 });
    expect(two).toEqual([{ slice: 2, startDeg: 0, arcDeg: 10 }, { slice: 5, startDeg: 30, arcDeg: 0 }]);
    expect(withoutCalciumArc(two, 5)).toEqual([{ slice: 2, startDeg: 0, arcDeg: 10 }]);
  });
});

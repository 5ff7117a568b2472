/**
 * Issue 28: a stent border corrected by hand is stored in the annotation manifest (`stentBorders`),
 * checked as the lumen and vessel contours are: a manifest the server would store only with sane
 * stent borders, one per slice, on the record's slices and near its image.
 */
import { describe, expect, it } from 'vitest';
import { checkManifestAgainstImage, emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import { findStentCorrection, removeStentCorrection, setStentCorrection } from '../../../src/domain/annotations/stent-corrections.ts';

const ring = (count: number, r = 80) => Array.from({ length: count }, (_, i) => ({ x: 256 + r * Math.cos((2 * Math.PI * i) / count), y: 256 + r * Math.sin((2 * Math.PI * i) / count) }));
const withStent = (stentBorders: unknown) => ({ ...emptyManifest(), stentBorders });

describe('stent borders corrected by hand in the manifest', () => {
  it('are stored, replaced and removed per slice, leaving the other slices and the manifest before them as they were', () => {
    const before = emptyManifest();
    const one = setStentCorrection(before, 12, ring(16));
    expect(before.stentBorders).toBeUndefined();
    const two = setStentCorrection(setStentCorrection(one, 5, ring(8)), 12, ring(12, 90));
    expect(two.stentBorders!.map((c) => [c.slice, c.controlPoints.length])).toEqual([
      [5, 8],
      [12, 12],
    ]);
    expect(findStentCorrection(two, 12)!.source).toBe('manual');
    const removed = removeStentCorrection(two, 12);
    expect(findStentCorrection(removed, 12)).toBeNull();
    expect(findStentCorrection(removed, 5)).not.toBeNull();
    expect(removeStentCorrection(removed, 40)).toBe(removed);
    // What the review saves is a manifest the server accepts.
    expect(parseManifest(JSON.parse(JSON.stringify(two))).ok).toBe(true);
  });

  it('keep every manifest saved without them valid', () => {
    expect(parseManifest(emptyManifest())).toMatchObject({ ok: true });
  });

  it.each([
    ['too few control points', [{ slice: 2, controlPoints: ring(2), source: 'manual' }], /at least 3 control points/],
    ['too many control points', [{ slice: 2, controlPoints: ring(65), source: 'manual' }], /at most 64 control points/],
    ['slice 0', [{ slice: 0, controlPoints: ring(8), source: 'manual' }], /1 or more/],
    ['a fractional slice', [{ slice: 2.5, controlPoints: ring(8), source: 'manual' }], /whole number/],
    ['an automatic source (only corrections are stored)', [{ slice: 2, controlPoints: ring(8), source: 'auto' }], /source must be manual/],
    ['two borders on one slice', [{ slice: 2, controlPoints: ring(8), source: 'manual' }, { slice: 2, controlPoints: ring(9), source: 'manual' }], /slice 2 has two stent borders/],
    ['a field the schema does not know', [{ slice: 2, controlPoints: ring(8), source: 'manual', reachMm: 2 }], /unknown field "reachMm"/],
    ['a point that is not a number', [{ slice: 2, controlPoints: [...ring(7), { x: '1', y: 2 }], source: 'manual' }], /finite number/],
    ['not a list', { slice: 2 }, /expected array|list/i],
  ])('refuse %s with a message naming it', (_name, stentBorders, message) => {
    const parsed = parseManifest(withStent(stentBorders));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toMatch(message);
  });

  it('are checked against the record: a slice beyond it or a point far off its image is a problem', () => {
    const far = [...ring(7), { x: 5000, y: 10 }];
    const manifest = setStentCorrection(setStentCorrection(emptyManifest(), 30, ring(8)), 2, far);
    expect(checkManifestAgainstImage(manifest, { sliceCount: 20, width: 512, height: 512 })).toEqual([
      'stentBorders[0].controlPoints: (5000, 10) is far outside the 512 x 512 image',
      'stentBorders[1].slice: slice 30 is beyond the record\'s 20 slices',
    ]);
  });
});

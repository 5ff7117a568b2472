import { describe, expect, it } from 'vitest';
import { removeManualContour, setKeyFrame, setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { createHistory, record, redo, undo } from '../../../src/domain/annotations/history.ts';
import { emptyManifest, parseManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { DEFAULT_REACH_MM, propagateBorders } from '../../../src/domain/contours/border-propagation.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { enclosesContour } from '../../../src/domain/contours/measurements.ts';
import { circle, circleAreaMm2, detectedPullback, FRAMES_PER_MM, GEOMETRY, meanRadius, PIXEL_SPACING_MM } from './border-fixtures.ts';

/** 400 frames (6.7 mm), lumen detected at 100 px and vessel at 200 px everywhere. */
const even = (unreadable?: (slice: number) => boolean) => detectedPullback({ frames: 400, lumen: () => 100, unreadable });
const lumenRadius = (manifest: AnnotationManifest, slice: number, detected = even()) => meanRadius(correctedAnalysis(detected, manifest, GEOMETRY).slices[slice - 1]!.controlPoints);
const REACH_FRAMES = DEFAULT_REACH_MM * FRAMES_PER_MM;

describe('a key frame propagates to its neighbours', () => {
  const manifest = setKeyFrame(emptyManifest(), 200, circle(130), 'lumen');
  const result = correctedAnalysis(even(), manifest, GEOMETRY);
  const radius = (slice: number) => meanRadius(result.slices[slice - 1]!.controlPoints);

  it('moves the next slices toward the correction, fading back to the detected border within the reach', () => {
    expect(result.slices[199]!.source).toBe('manual');
    expect(radius(201)).toBeGreaterThan(129.9);
    // Half way through the 2 mm reach, half the correction (raised cosine).
    expect(radius(200 + REACH_FRAMES / 2)).toBeCloseTo(115, 0);
    expect(radius(200 - REACH_FRAMES / 2)).toBeCloseTo(115, 0);
    for (let slice = 201; slice < 200 + REACH_FRAMES - 1; slice++) expect(radius(slice + 1)).toBeLessThanOrEqual(radius(slice) + 1e-9);
    // Beyond the reach the detector's border and figures are back, labelled automatic.
    expect(result.slices[200 + REACH_FRAMES - 1]).toMatchObject({ source: 'auto', areaMm2: circleAreaMm2(100) });
    expect(result.slices[200 - REACH_FRAMES - 1]!.source).toBe('auto');
  });

  it('labels every border it carried as propagated and measures it', () => {
    const carried = result.slices.filter((slice) => slice.source === 'propagated');
    expect(carried).toHaveLength(2 * (REACH_FRAMES - 1));
    expect(result.slices[200]!.areaMm2).toBeGreaterThan(circleAreaMm2(129));
    expect(result.manualCount).toBe(1);
    expect(result.propagatedCount).toBe(2 * (REACH_FRAMES - 1));
    // The vessel was not corrected: it stays the detector's.
    expect(result.slices[200]!.vessel?.source).toBe('auto');
  });

  it('moves the MLA with the corrected lumen', () => {
    const narrowed = correctedAnalysis(even(), setKeyFrame(emptyManifest(), 200, circle(60), 'lumen'), GEOMETRY);
    expect(narrowed.analysis.mla?.index).toBe(199);
    expect(narrowed.slices[205]!.areaMm2!).toBeLessThan(circleAreaMm2(65));
  });

  it('stops at the next key frame of the same border', () => {
    // A slice-only correction 30 frames on ends the fade there: no propagation beyond it.
    const both = setManualContour(manifest, 230, circle(100), 'lumen');
    const fenced = correctedAnalysis(even(), both, GEOMETRY);
    expect(fenced.slices[229]!.source).toBe('manual');
    expect(fenced.slices[230]!.source).toBe('auto');
    expect(meanRadius(fenced.slices[228]!.controlPoints)).toBeLessThan(101);
  });
});

describe('two key frames', () => {
  it('interpolate between their corrections when they lie within the bridging distance', () => {
    const manifest = setKeyFrame(setKeyFrame(emptyManifest(), 100, circle(120), 'lumen'), 400 - 100, circle(140), 'lumen');
    expect(lumenRadius(manifest, 200)).toBeCloseTo(130, 0);
    expect(lumenRadius(manifest, 150)).toBeCloseTo(125, 0);
    expect(lumenRadius(manifest, 250)).toBeCloseTo(135, 0);
  });

  it('fade separately when farther apart than the bridging distance', () => {
    const long = detectedPullback({ frames: 1200, lumen: () => 100 });
    const manifest = setKeyFrame(setKeyFrame(emptyManifest(), 100, circle(120), 'lumen'), 1100, circle(120), 'lumen');
    const result = correctedAnalysis(long, manifest, GEOMETRY);
    expect(result.slices[599]!.source).toBe('auto');
    expect(result.slices[150]!.source).toBe('propagated');
  });
});

describe('slices the detector could not read', () => {
  const gap = (slice: number) => slice >= 230 && slice < 240;

  it('stop a single key frame’s propagation: nothing is carried over or beyond them', () => {
    const result = correctedAnalysis(even(gap), setKeyFrame(emptyManifest(), 200, circle(130), 'lumen'), GEOMETRY);
    expect(result.slices[228]!.source).toBe('propagated');
    expect(result.slices[229]).toMatchObject({ source: null, areaMm2: null, noBorder: true });
    expect(result.slices[239]!.source).toBe('auto');
  });

  it('a key frame drawn on a slice without a detected border pulls the readable neighbours toward it', () => {
    const result = correctedAnalysis(even((slice) => slice === 200), setKeyFrame(emptyManifest(), 200, circle(130), 'lumen'), GEOMETRY);
    expect(result.slices[199]).toMatchObject({ source: 'manual', noBorder: true });
    expect(result.slices[200]!.source).toBe('propagated');
    expect(meanRadius(result.slices[200]!.controlPoints)).toBeCloseTo(130, 0);
    expect(meanRadius(result.slices[200 + REACH_FRAMES / 2 - 1]!.controlPoints)).toBeCloseTo(115, 0);
  });

  it('get the interpolated key-frame borders between two bridged key frames, still flagged as no border', () => {
    const manifest = setKeyFrame(setKeyFrame(emptyManifest(), 200, circle(120), 'lumen'), 260, circle(140), 'lumen');
    const result = correctedAnalysis(even(gap), manifest, GEOMETRY);
    const inGap = result.slices[234]!;
    expect(inGap).toMatchObject({ source: 'propagated', noBorder: true, vessel: null });
    expect(meanRadius(inGap.controlPoints)).toBeCloseTo(120 + (20 * 35) / 60, 0);
    expect(result.noBorderSlices).toContain(235);
  });
});

describe('a propagated border never crosses the other one', () => {
  it('keeps a propagated lumen inside the detected vessel, with a wall', () => {
    // The clinician drew the lumen beyond the detected vessel (200 px) on slice 200.
    const result = correctedAnalysis(even(), setKeyFrame(emptyManifest(), 200, circle(215), 'lumen'), GEOMETRY);
    expect(result.slices[199]!.bordersCross).toBe(true);
    for (const slice of [201, 210, 240, 300]) {
      const measured = result.slices[slice - 1]!;
      expect(measured.bordersCross).toBe(false);
      expect(enclosesContour(measured.vessel!.controlPoints, measured.controlPoints)).toBe(true);
      expect(meanRadius(measured.controlPoints)).toBeLessThanOrEqual(200 - 0.1 / PIXEL_SPACING_MM + 1e-6);
    }
  });

  it('pushes a propagated vessel out of the lumen where both were carried', () => {
    const manifest = setKeyFrame(setKeyFrame(emptyManifest(), 200, circle(150), 'lumen'), 200, circle(120), 'vessel');
    const result = correctedAnalysis(even(), manifest, GEOMETRY);
    const next = result.slices[200]!;
    expect(next.vessel?.source).toBe('propagated');
    expect(enclosesContour(next.vessel!.controlPoints, next.controlPoints)).toBe(true);
    expect(meanRadius(next.vessel!.controlPoints) - meanRadius(next.controlPoints)).toBeGreaterThanOrEqual(10 - 1e-6);
  });
});

describe('undo and older manifests', () => {
  it('removing the key frame restores the detected borders everywhere', () => {
    const before = correctedAnalysis(even(), emptyManifest(), GEOMETRY);
    const undone = removeManualContour(setKeyFrame(emptyManifest(), 200, circle(130), 'lumen'), 200, 'lumen');
    expect(correctedAnalysis(even(), undone, GEOMETRY)).toEqual(before);
  });

  it('undo of the second of two key frames brings back the first one’s propagation alone, and redo the interpolation', () => {
    const one = setKeyFrame(emptyManifest(), 100, circle(120), 'lumen');
    const two = setKeyFrame(one, 300, circle(140), 'lumen');
    const history = undo(record(record(createHistory(emptyManifest()), one), two));
    expect(correctedAnalysis(even(), history.present, GEOMETRY)).toEqual(correctedAnalysis(even(), one, GEOMETRY));
    expect(lumenRadius(history.present, 250)).toBeCloseTo(100, 6);
    expect(lumenRadius(redo(history).present, 200)).toBeCloseTo(130, 0);
  });

  it('a correction saved before key frames (no reachMm) stays on its slice', () => {
    const parsed = parseManifest({ ...emptyManifest(), contours: [{ slice: 200, controlPoints: circle(130), source: 'manual' }] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const result = correctedAnalysis(even(), parsed.manifest, GEOMETRY);
    expect(result.slices[199]!.source).toBe('manual');
    expect(result.slices[200]!.source).toBe('auto');
    expect(result.propagatedCount).toBe(0);
  });

  it('refuses key-frame reaches that are not a distance the pullback could have', () => {
    const withReach = (reachMm: unknown) => parseManifest({ ...emptyManifest(), contours: [{ slice: 2, border: 'lumen', controlPoints: circle(50, 4), source: 'manual', reachMm }] });
    expect(withReach(2).ok).toBe(true);
    expect(withReach(-1)).toEqual({ ok: false, problems: ['contours[0].reachMm: reachMm must not be negative'] });
    expect(withReach(21)).toEqual({ ok: false, problems: ['contours[0].reachMm: reachMm must be at most 20 mm'] });
    expect(withReach('2')).toEqual({ ok: false, problems: ['contours[0].reachMm: reachMm must be a number of millimetres'] });
    expect(withReach(null).ok).toBe(false);
  });
});

describe('propagateBorders', () => {
  it('returns one entry per detected slice with the source of each border', () => {
    const borders = propagateBorders(even().contours, setKeyFrame(emptyManifest(), 10, circle(90), 'vessel').contours!, { framesPerMm: FRAMES_PER_MM, pixelSpacingMm: PIXEL_SPACING_MM });
    expect(borders).toHaveLength(400);
    expect(borders[9]).toMatchObject({ slice: 10, lumen: { source: 'auto' }, vessel: { source: 'manual' } });
    expect(borders[10]!.vessel!.source).toBe('propagated');
    // A vessel drawn inside the detected lumen: the carried vessel is kept outside the lumen.
    expect(meanRadius(borders[10]!.vessel!.controlPoints)).toBeGreaterThanOrEqual(110 - 1e-6);
  });
});

import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { circle, circleAreaMm2, detectedPullback, FRAMES_PER_MM, GEOMETRY } from './border-fixtures.ts';

/**
 * Issue 25: "correcting a 3,600-frame pullback where the detector is off over 2 cm takes a few drags,
 * not hundreds of frames". The true lumen is 150 px round all along; the detector reads it 30 px too
 * small (some 36 % of the area) over 2 cm, slices 1201 to 2400.
 */
describe('a 3,600-frame pullback with the detector off over 2 cm', () => {
  const first = 1201;
  const last = first + 20 * FRAMES_PER_MM - 1;
  const off = (slice: number) => slice >= first && slice <= last;
  const detected = detectedPullback({ frames: 3600, lumen: (slice) => (off(slice) ? 120 : 150) });
  const truth = circleAreaMm2(150);

  it('is off by about a third of the lumen area before any correction', () => {
    const result = correctedAnalysis(detected, emptyManifest(), GEOMETRY);
    expect(result.slices[1800]!.areaMm2! / truth).toBeLessThan(0.65);
    expect(result.analysis.mla?.areaMm2).toBeCloseTo(circleAreaMm2(120), 6);
  });

  it('is corrected within 3 % over the whole 2 cm by four key frames', () => {
    // Four drags, 400 frames (6.7 mm) apart: the first and last frames of the run and two between.
    let manifest = emptyManifest();
    for (const slice of [first, 1600, 2000, last]) manifest = setKeyFrame(manifest, slice, circle(150), 'lumen');
    const result = correctedAnalysis(detected, manifest, GEOMETRY);
    for (let slice = first; slice <= last; slice++) {
      const measured = result.slices[slice - 1]!;
      expect(measured.source === 'manual' || measured.source === 'propagated').toBe(true);
      expect(Math.abs(measured.areaMm2! / truth - 1)).toBeLessThan(0.03);
    }
    expect(result.manualCount).toBe(4);
    // Beyond the run the correction fades within its 2 mm reach; farther out the detector's borders are untouched.
    expect(result.slices[first - 2 * FRAMES_PER_MM - 2]).toMatchObject({ source: 'auto', areaMm2: truth });
    expect(result.slices[last + 2 * FRAMES_PER_MM]).toMatchObject({ source: 'auto', areaMm2: truth });
    // The MLA no longer sits in the run the detector got wrong.
    expect(result.analysis.mla!.areaMm2).toBeGreaterThan(0.97 * truth);
  });
});

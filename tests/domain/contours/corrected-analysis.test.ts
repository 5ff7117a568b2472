import { describe, expect, it } from 'vitest';
import { removeManualContour, setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import type { RecordContours } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis, measurementsCsv, slicePositionMm } from '../../../src/domain/contours/corrected-analysis.ts';

/** A circle of `radius` px as 16 control points. */
const circle = (radius: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos((i / 16) * 2 * Math.PI), y: 256 + radius * Math.sin((i / 16) * 2 * Math.PI) }));

/** Five slices whose automatic areas dip at slice 3. */
function detected(): RecordContours {
  const areas = [8, 7, 3, 6, 9];
  return {
    version: 'v1',
    frameCount: 5,
    pixelSpacingMm: 0.01,
    contours: areas.map((areaMm2, i) => ({ slice: i + 1, controlPoints: circle(100), areaMm2, minDiameterMm: 2, maxDiameterMm: 2.5 })),
    mla: { slice: 3, areaMm2: 3 },
    references: { proximal: { slice: 5, areaMm2: 9 }, distal: { slice: 1, areaMm2: 8 } },
    stenosisPercent: 64.7,
  };
}

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

describe('corrected pullback analysis', () => {
  it('uses the automatic contours when nothing is corrected', () => {
    const result = correctedAnalysis(detected(), emptyManifest(), geometry);
    expect(result.manualCount).toBe(0);
    expect(result.analysis.mla).toEqual({ index: 2, areaMm2: 3 });
    expect(result.analysis.references.distal?.index).toBe(0);
    expect(result.analysis.references.proximal?.index).toBe(4);
    expect(result.analysis.stenosisPercent).toBeCloseTo((100 * (8.5 - 3)) / 8.5, 6);
    expect(result.slices[1]!.eccentricity).toBeCloseTo(0.2, 6);
  });

  it('a manual contour wins on its slice and moves the MLA', () => {
    // A circle of radius 50 px at 0.01 mm/px: about 0.785 mm², smaller than every automatic area.
    const manifest = setManualContour(emptyManifest(), 4, circle(50));
    const result = correctedAnalysis(detected(), manifest, geometry);
    expect(result.slices[3]!.source).toBe('manual');
    expect(result.slices[3]!.areaMm2).toBeCloseTo(Math.PI * 0.5 ** 2, 1);
    expect(result.analysis.mla?.index).toBe(3);
    expect(removeManualContour(manifest, 4).contours).toEqual([]);
  });

  it('a manifest with a contour set stays valid, and one without it too', () => {
    expect(parseManifest(setManualContour(emptyManifest(), 2, circle(80))).ok).toBe(true);
    expect(parseManifest(emptyManifest()).ok).toBe(true);
    const bad = { ...emptyManifest(), contours: [{ slice: 2, controlPoints: circle(80).slice(0, 2), source: 'manual' }] };
    expect(parseManifest(bad)).toMatchObject({ ok: false, problems: [expect.stringContaining('at least 3 control points')] });
  });

  it('positions follow frame rate and pullback speed', () => {
    expect(slicePositionMm(1, geometry)).toBe(0);
    expect(slicePositionMm(61, geometry)).toBeCloseTo(1, 9);
  });

  it('the CSV has a header, one row per slice, and flags the MLA and references', () => {
    const lines = measurementsCsv(correctedAnalysis(detected(), emptyManifest(), geometry)).trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('slice,position_mm,lumen_area_mm2,min_diameter_mm,max_diameter_mm,eccentricity,source,flag');
    expect(lines[3]).toBe('3,0.033,3.00,2.00,2.50,0.200,auto,MLA');
    expect(lines[1]!.endsWith(',distal reference')).toBe(true);
    expect(lines[5]!.endsWith(',proximal reference')).toBe(true);
  });
});

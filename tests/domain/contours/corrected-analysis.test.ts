import { describe, expect, it } from 'vitest';
import { removeManualContour, setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import type { RecordContours } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis, CSV_HEADER, manualContour, measurementsCsv, slicePositionMm, withCorrection } from '../../../src/domain/contours/corrected-analysis.ts';

/** A circle of `radius` px as 16 control points. */
const circle = (radius: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos((i / 16) * 2 * Math.PI), y: 256 + radius * Math.sin((i / 16) * 2 * Math.PI) }));

/** Five slices whose automatic lumen areas dip at slice 3, with a vessel of 12 mm² round each; slice 4 is low confidence. */
function detected(): RecordContours {
  const areas = [8, 7, 3, 6, 9];
  return {
    version: 'v1',
    frameCount: 5,
    pixelSpacingMm: 0.01,
    contours: areas.map((areaMm2, i) => ({
      slice: i + 1,
      controlPoints: circle(100),
      areaMm2,
      minDiameterMm: 2,
      maxDiameterMm: 2.5,
      eccentricity: 0.2,
      vessel: { controlPoints: circle(200), areaMm2: 12 },
      plaqueAreaMm2: 12 - areaMm2,
      plaqueBurden: (12 - areaMm2) / 12,
      confidence: i === 3 ? 0.3 : 0.9,
    })),
    mla: { slice: 3, areaMm2: 3 },
    references: { proximal: { slice: 5, areaMm2: 9 }, distal: { slice: 1, areaMm2: 8 } },
    stenosisPercent: 64.7,
    maxPlaqueBurden: { slice: 3, plaqueBurden: 0.75 },
    lowConfidenceSlices: [4],
  };
}

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
/** Area of a circle of `radius` px at 0.01 mm/px, in mm². */
const circleMm2 = (radius: number) => Math.PI * (radius / 100) ** 2;

describe('corrected pullback analysis', () => {
  it('uses the automatic borders when nothing is corrected', () => {
    const result = correctedAnalysis(detected(), emptyManifest(), geometry);
    expect(result.manualCount).toBe(0);
    expect(result.analysis.mla).toEqual({ index: 2, areaMm2: 3 });
    expect(result.analysis.references.distal?.index).toBe(0);
    expect(result.analysis.references.proximal?.index).toBe(4);
    expect(result.analysis.stenosisPercent).toBeCloseTo((100 * (8.5 - 3)) / 8.5, 6);
    expect(result.slices[1]!.eccentricity).toBeCloseTo(0.2, 6);
    expect(result.slices[2]).toMatchObject({ source: 'auto', vessel: { areaMm2: 12, source: 'auto' }, plaqueAreaMm2: 9, plaqueBurden: 0.75, bordersCross: false });
    expect(result.maxPlaqueBurden).toEqual({ index: 2, plaqueBurden: 0.75 });
    expect(result.lowConfidenceSlices).toEqual([4]);
    expect(result.slices[3]!.confidence).toBe(0.3);
  });

  it('a manual lumen contour wins on its slice and moves the MLA', () => {
    // A circle of radius 50 px at 0.01 mm/px: about 0.785 mm², smaller than every automatic area.
    const manifest = setManualContour(emptyManifest(), 4, circle(50));
    const result = correctedAnalysis(detected(), manifest, geometry);
    expect(result.slices[3]!.source).toBe('manual');
    expect(result.slices[3]!.vessel?.source).toBe('auto');
    expect(result.slices[3]!.areaMm2).toBeCloseTo(circleMm2(50), 1);
    expect(result.analysis.mla?.index).toBe(3);
    // The automatic vessel (12 mm²) around the corrected lumen: the largest plaque burden is there now.
    expect(result.slices[3]!.plaqueBurden).toBeCloseTo((12 - result.slices[3]!.areaMm2!) / 12, 9);
    expect(result.maxPlaqueBurden?.index).toBe(3);
    expect(removeManualContour(manifest, 4).contours).toEqual([]);
  });

  it('a manual vessel contour changes the vessel area, plaque and burden of its slice, not its lumen', () => {
    const manifest = setManualContour(emptyManifest(), 2, circle(150), 'vessel');
    expect(manualContour(manifest, 2, 'vessel')?.source).toBe('manual');
    expect(manualContour(manifest, 2)).toBeNull();
    const result = correctedAnalysis(detected(), manifest, geometry);
    const slice = result.slices[1]!;
    expect(slice).toMatchObject({ source: 'auto', areaMm2: 7, bordersCross: false });
    if (!slice.vessel) throw new Error('expected a vessel border');
    expect(slice.vessel.source).toBe('manual');
    expect(slice.vessel.controlPoints).toEqual(circle(150));
    expect(slice.vessel.areaMm2).toBeCloseTo(circleMm2(150), 2);
    expect(slice.plaqueAreaMm2).toBeCloseTo(slice.vessel.areaMm2 - 7, 9);
    expect(slice.plaqueBurden).toBeCloseTo((slice.vessel.areaMm2 - 7) / slice.vessel.areaMm2, 9);
    expect(result.manualCount).toBe(1);
    // The MLA is a lumen figure: a vessel correction leaves it.
    expect(result.analysis.mla).toEqual({ index: 2, areaMm2: 3 });
    // Both borders of one slice corrected count as one corrected slice; removing the vessel keeps the lumen.
    const both = setManualContour(manifest, 2, circle(90), 'lumen');
    expect(correctedAnalysis(detected(), both, geometry).manualCount).toBe(1);
    expect(removeManualContour(both, 2, 'vessel').contours).toEqual([{ slice: 2, border: 'lumen', controlPoints: circle(90), source: 'manual' }]);
  });

  it('a vessel corrected inside the lumen is flagged, with no plaque figure and no part in the maximal burden', () => {
    const manifest = setManualContour(emptyManifest(), 3, circle(80), 'vessel');
    const result = correctedAnalysis(detected(), manifest, geometry);
    expect(result.slices[2]).toMatchObject({ bordersCross: true, plaqueAreaMm2: 0, plaqueBurden: 0 });
    expect(result.maxPlaqueBurden?.index).not.toBe(2);
  });

  it('withCorrection measures a border being dragged as the stored correction would', () => {
    const base = correctedAnalysis(detected(), emptyManifest(), geometry).slices[1]!;
    const stored = correctedAnalysis(detected(), setManualContour(emptyManifest(), 2, circle(150), 'vessel'), geometry).slices[1]!;
    expect(withCorrection(base, 'vessel', circle(150), 0.01)).toEqual(stored);
    const lumen = withCorrection(base, 'lumen', circle(60), 0.01);
    expect(lumen).toMatchObject({ source: 'manual', vessel: base.vessel });
    expect(lumen.areaMm2).toBeCloseTo(circleMm2(60), 2);
  });

  it('a manifest with a contour set of both borders stays valid, one without it or with contours saved before the vessel border too', () => {
    expect(parseManifest(setManualContour(setManualContour(emptyManifest(), 2, circle(80)), 2, circle(160), 'vessel')).ok).toBe(true);
    expect(parseManifest(emptyManifest()).ok).toBe(true);
    const old = { ...emptyManifest(), contours: [{ slice: 2, controlPoints: circle(80), source: 'manual' }] };
    const parsed = parseManifest(old);
    expect(parsed).toEqual({ ok: true, manifest: old });
    if (!parsed.ok) throw new Error('an old manifest must stay valid');
    expect(correctedAnalysis(detected(), parsed.manifest, geometry).slices[1]!.source).toBe('manual');
    const bad = { ...emptyManifest(), contours: [{ slice: 2, controlPoints: circle(80).slice(0, 2), source: 'manual' }] };
    expect(parseManifest(bad)).toMatchObject({ ok: false, problems: [expect.stringContaining('at least 3 control points')] });
  });

  it('positions follow frame rate and pullback speed', () => {
    expect(slicePositionMm(1, geometry)).toBe(0);
    expect(slicePositionMm(61, geometry)).toBeCloseTo(1, 9);
  });

  it('the CSV has a header, one row per slice with both borders and their sources, and flags', () => {
    const manifest = setManualContour(emptyManifest(), 5, circle(190), 'vessel');
    const lines = measurementsCsv(correctedAnalysis(detected(), manifest, geometry)).trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      'slice,position_mm,lumen_area_mm2,min_diameter_mm,max_diameter_mm,eccentricity,vessel_area_mm2,plaque_area_mm2,plaque_burden_percent,confidence,lumen_source,vessel_source,flag',
    );
    expect(lines[0]!.split(',')).toEqual([...CSV_HEADER]);
    expect(lines[3]).toBe('3,0.033,3.00,2.00,2.50,0.200,12.00,9.00,75.0,0.90,auto,auto,MLA; max plaque burden');
    expect(lines[1]!.endsWith(',distal reference')).toBe(true);
    expect(lines[4]).toBe('4,0.050,6.00,2.00,2.50,0.200,12.00,6.00,50.0,0.30,auto,auto,low confidence');
    const fifth = lines[5]!.split(',');
    expect(fifth.slice(10)).toEqual(['auto', 'manual', 'proximal reference']);
    expect(Number(fifth[6])).toBeCloseTo(circleMm2(190), 1);
  });

  it('the CSV leaves the plaque columns empty where corrected borders cross', () => {
    const manifest = setManualContour(emptyManifest(), 2, circle(80), 'vessel');
    const row = measurementsCsv(correctedAnalysis(detected(), manifest, geometry)).split('\r\n')[2]!.split(',');
    expect(row.slice(7, 9)).toEqual(['', '']);
    expect(row.at(-1)).toBe('borders cross');
  });
});

/**
 * Every figure says where its border came from (issue 25): the CSV's source columns and the report's
 * contour line name the borders carried from a key frame as propagated.
 */
import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, CSV_HEADER, measurementsCsv } from '../../../src/domain/contours/corrected-analysis.ts';
import { analysisLines } from '../../../src/domain/reports/report-pdf.ts';
import { circle, detectedPullback, GEOMETRY } from './border-fixtures.ts';

const detected = detectedPullback({ frames: 200, lumen: () => 100 });
// A lumen key frame on slice 100 (2 mm reach: 119 slices each side carry it) and a vessel key frame on slice 10.
const manifest = setKeyFrame(setKeyFrame(emptyManifest(), 100, circle(120), 'lumen'), 10, circle(190), 'vessel');
const result = correctedAnalysis(detected, manifest, GEOMETRY);

describe('exports of propagated borders', () => {
  it('the CSV names each border’s source: auto, manual or propagated', () => {
    const rows = measurementsCsv(result).trim().split('\r\n').map((line) => line.split(','));
    const column = (name: (typeof CSV_HEADER)[number]) => CSV_HEADER.indexOf(name);
    const row = (slice: number) => rows[slice]!;
    expect(row(100)[column('lumen_source')]).toBe('manual');
    expect(row(101)[column('lumen_source')]).toBe('propagated');
    expect(row(200)[column('lumen_source')]).toBe('propagated');
    expect(row(10)[column('vessel_source')]).toBe('manual');
    expect(row(11)[column('vessel_source')]).toBe('propagated');
    expect(row(200)[column('vessel_source')]).toBe('auto');
    // The propagated lumen is measured, not the detector's figure.
    expect(Number(row(101)[column('lumen_area_mm2')])).toBeGreaterThan(Number(row(200)[column('lumen_area_mm2')]));
  });

  it('the report counts the slices corrected by hand and those their corrections were carried to', () => {
    expect(result.manualCount).toBe(2);
    const line = analysisLines(result).at(-1);
    expect(line).toBe(`Contours: automatic lumen and vessel detection, 2 slices corrected by hand, ${result.propagatedCount} slices with borders propagated from those corrections`);
    // Slices 1-99 and 101-200 take the lumen key frame; slices 1-9 and 11-129 the vessel one; 10 and 100 are the key frames.
    expect(result.propagatedCount).toBe(198);
  });
});

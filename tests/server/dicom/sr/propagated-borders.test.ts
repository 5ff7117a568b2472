/**
 * Issue 25 in the DICOM SR: a border carried from a key frame onto a neighbouring slice is reported
 * with the border source "Propagated from a manual correction", distinct from automatic and manual.
 */
import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../../src/domain/annotations/contour-edits.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { detected, MLA_SLICE, review, ring, SLICE_COUNT, subject } from './report-fixture.ts';

describe('the measurement report of propagated borders', () => {
  it('says which borders were detected, corrected by hand or propagated from a correction', () => {
    const made = review();
    // A lumen key frame on slice 30 with a 0.1 mm reach: 6 frames each side at 60 frames/mm take it.
    const manifest = setKeyFrame(made.manifest, 30, ring(140, 16), 'lumen', 0.1);
    expect(made.analysis.slices[29]!.source).toBe('auto');
    const analysis = correctedAnalysis(detected(SLICE_COUNT), manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
    const read = readMeasurementReport(buildMeasurementReport(subject(), { manifest, analysis, pixelSpacingMm: made.pixelSpacingMm }).bytes);
    const lumenSource = (slice: number) => read.borders.find((b) => b.border === 'lumen' && b.slice === slice)?.source;
    expect(lumenSource(30)).toBe('manual');
    expect(lumenSource(MLA_SLICE)).toBe('manual');
    for (const slice of [25, 26, 27, 28, 29, 31, 32, 33, 34, 35]) expect(lumenSource(slice)).toBe('propagated');
    expect(lumenSource(24)).toBe('auto');
    expect(lumenSource(36)).toBe('auto');
    expect(read.borders.find((b) => b.border === 'vessel' && b.slice === 31)?.source).toBe('auto');
  });
});

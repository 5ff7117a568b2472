/**
 * Issue 23 in the DICOM SR: a slice the detector could not read has no border to report, so its
 * lumen and vessel groups are left out (never a 0 mm² border); one the clinician drew by hand is reported.
 */
import { describe, expect, it } from 'vitest';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { MLA_SLICE, review, SLICE_COUNT, subject } from './report-fixture.ts';

describe('the measurement report of a pullback with unreadable frames', () => {
  it('leaves out the borders of slices without one, and keeps the MLA and references on slices with borders', () => {
    // Slices 5–7 unreadable; slice 18 (the MLA, corrected by hand) unreadable too: its drawn lumen still counts.
    const unreadable = [5, 6, 7, MLA_SLICE];
    const made = review(undefined, SLICE_COUNT, unreadable);
    const read = readMeasurementReport(buildMeasurementReport(subject(), made).bytes);
    const slicesWith = (border: 'lumen' | 'vessel') => read.borders.filter((b) => b.border === border).map((b) => b.slice);
    expect(slicesWith('lumen')).toHaveLength(SLICE_COUNT - 3);
    expect(slicesWith('vessel')).toHaveLength(SLICE_COUNT - 4);
    for (const slice of [5, 6, 7]) {
      expect(slicesWith('lumen')).not.toContain(slice);
      expect(slicesWith('vessel')).not.toContain(slice);
    }
    // The hand-drawn lumen on an unreadable slice is reported; it has no vessel, so no plaque figure.
    expect(read.borders.find((b) => b.border === 'lumen' && b.slice === MLA_SLICE)?.source).toBe('manual');
    expect(slicesWith('vessel')).not.toContain(MLA_SLICE);
    expect(read.mla?.slice).toBe(MLA_SLICE);
    for (const reference of [read.references.distal, read.references.proximal]) {
      expect([5, 6, 7]).not.toContain(reference?.slice);
    }
  });
});

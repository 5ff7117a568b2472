/**
 * Issue 23: a frame the detector cannot read gets no border, not a border at the image edge, and
 * nothing downstream (MLA, references, plaque burden, CSV, report) measures one.
 */
import { describe, expect, it } from 'vitest';
import { setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { buildRecordContours, hasBorder, RecordContoursSchema, type SliceDetection } from '../../../src/domain/contours/api.ts';
import { isUnreadable, UNREADABLE_CONFIDENCE } from '../../../src/domain/contours/border-detection.ts';
import { correctedAnalysis, measurementsCsv, withCorrection } from '../../../src/domain/contours/corrected-analysis.ts';
import { analysisLines } from '../../../src/domain/reports/report-pdf.ts';
import { circle, detectedContours } from '../../web/review/contours/contours-fixture.ts';

const square = (cx: number, cy: number, side: number) => [
  { x: cx - side / 2, y: cy - side / 2 },
  { x: cx + side / 2, y: cy - side / 2 },
  { x: cx + side / 2, y: cy + side / 2 },
  { x: cx - side / 2, y: cy + side / 2 },
];

/** A detection of the given lumen area inside a 12 mm² vessel. */
const detection = (areaMm2: number, confidence = 0.9): SliceDetection => ({
  controlPoints: square(10, 10, 3),
  areaMm2,
  minDiameterMm: 1,
  maxDiameterMm: 2,
  vessel: { controlPoints: square(10, 10, 6), areaMm2: 12 },
  confidence,
});
/** What the detector gives on a frame it cannot read: both borders at the edge of the field of view, confidence 0. */
const edgeOfImage = (confidence = 0): SliceDetection => ({
  controlPoints: square(250, 250, 500),
  areaMm2: 100,
  minDiameterMm: 10,
  maxDiameterMm: 10,
  vessel: { controlPoints: square(250, 250, 499.9), areaMm2: 100.5 },
  confidence,
});

const build = (detections: SliceDetection[]) => buildRecordContours({ version: 'v1', pixelSpacingMm: 0.02, framesPerMm: 60, detections });
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

describe('the unreadable-frame threshold', () => {
  it('is 0.2: below it (or without a number) a frame has no border, at it and above it has one', () => {
    expect(UNREADABLE_CONFIDENCE).toBe(0.2);
    expect(isUnreadable(0)).toBe(true);
    expect(isUnreadable(0.1999)).toBe(true);
    expect(isUnreadable(Number.NaN)).toBe(true);
    expect(isUnreadable(0.2)).toBe(false);
    expect(isUnreadable(0.9)).toBe(false);
  });
});

describe('the contours body with frames the detector could not read', () => {
  // Slice 2 is an edge-of-image guess: read as a border it would be the largest "lumen" (a reference);
  // slice 4 a tiny one, which would be the MLA.
  const detections = [detection(6), edgeOfImage(0), detection(3), { ...detection(0.5), confidence: 0.15 }, detection(7), detection(5, 0.3)];

  it('sends those slices without any border or figure, and keeps their confidence', () => {
    const body = build(detections);
    expect(body.contours[1]).toEqual({ slice: 2, noBorder: true, confidence: 0 });
    expect(body.contours[3]).toEqual({ slice: 4, noBorder: true, confidence: 0.15 });
    expect(body.contours.filter(hasBorder).map((c) => c.slice)).toEqual([1, 3, 5, 6]);
    // Nothing that looks like a measurement goes on the wire for them.
    expect(JSON.stringify(body.contours[1])).not.toMatch(/controlPoints|areaMm2|vessel/);
  });

  it('never puts the MLA, a reference or the maximal plaque burden on a slice without a border', () => {
    const body = build(detections);
    expect(body.mla).toEqual({ slice: 3, areaMm2: 3 });
    expect(body.references).toEqual({ distal: { slice: 1, areaMm2: 6 }, proximal: { slice: 5, areaMm2: 7 } });
    expect(body.stenosisPercent).toBeCloseTo((100 * (6.5 - 3)) / 6.5, 2);
    expect(body.maxPlaqueBurden).toEqual({ slice: 3, plaqueBurden: 0.75 });
    // They are still slices to check (with the low-confidence one that has borders).
    expect(body.lowConfidenceSlices).toEqual([2, 4, 6]);
  });

  it('treats a detection without a usable border (under 3 points, or not finite) as no border whatever its confidence', () => {
    const body = build([detection(5), { ...detection(4), controlPoints: [] }, { ...detection(4), vessel: { controlPoints: square(Number.NaN, 0, 1), areaMm2: 1 } }]);
    expect(body.contours.map(hasBorder)).toEqual([true, false, false]);
    // Slices to check, although their confidence was high.
    expect(body.lowConfidenceSlices).toEqual([2, 3]);
    expect(body.mla).toEqual({ slice: 1, areaMm2: 5 });
  });

  it('gives no MLA, reference, stenosis or plaque burden when no frame could be read', () => {
    const body = build([edgeOfImage(0), edgeOfImage(0.1), edgeOfImage(Number.NaN)]);
    expect(body).toMatchObject({ frameCount: 3, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [1, 2, 3] });
    expect(body.contours.every((c) => !hasBorder(c))).toBe(true);
  });

  it('survives the JSON round trip through the schema, and contours stored before issue 23 still parse', () => {
    const body = build(detections);
    expect(RecordContoursSchema.parse(JSON.parse(JSON.stringify(body)))).toEqual(body);
    // The old shape: every slice bordered, no noBorder anywhere.
    const old = build([detection(6), detection(3), detection(7)]);
    expect(JSON.stringify(old)).not.toContain('noBorder');
    expect(RecordContoursSchema.parse(JSON.parse(JSON.stringify(old))).contours.every(hasBorder)).toBe(true);
  });

  it('refuses a no-border slice that claims to be something else', () => {
    const body = build(detections);
    const bad = { ...body, contours: body.contours.map((c) => (c.slice === 2 ? { slice: 2, noBorder: false, confidence: 0 } : c)) };
    expect(RecordContoursSchema.safeParse(bad).success).toBe(false);
  });
});

describe('the corrected analysis of slices without a border', () => {
  // 10 slices; 3 and 4 unreadable. The fixture's lumen areas wave round 5 mm².
  const contours = () => detectedContours(10, {}, [3, 4]);

  it('measures nothing on them and leaves them out of the MLA, references and plaque burden', () => {
    const result = correctedAnalysis(contours(), emptyManifest(), geometry);
    expect(result.slices[2]).toMatchObject({
      slice: 3,
      noBorder: true,
      areaMm2: null,
      minDiameterMm: null,
      eccentricity: null,
      source: null,
      controlPoints: [],
      vessel: null,
      plaqueAreaMm2: null,
      plaqueBurden: null,
      confidence: 0.05,
    });
    expect(result.noBorderSlices).toEqual([3, 4]);
    const { mla, references } = result.analysis;
    for (const found of [mla, references.distal, references.proximal, result.maxPlaqueBurden]) {
      expect([2, 3]).not.toContain(found?.index);
    }
    expect(mla).not.toBeNull();
  });

  it('has no MLA, references, stenosis or plaque burden when every slice is unreadable, and the report says so', () => {
    const result = correctedAnalysis(detectedContours(4, {}, [1, 2, 3, 4]), emptyManifest(), geometry);
    expect(result.analysis).toEqual({ mla: null, references: { proximal: null, distal: null }, stenosisPercent: null });
    expect(result.maxPlaqueBurden).toBeNull();
    const lines = analysisLines(result);
    expect(lines[0]).toBe('Minimal lumen area: - (no slice has a lumen border)');
    expect(lines[6]).toBe('Low-confidence slices (automatic borders to check): 4, 4 of them without a border (the detector could not read the frame)');
  });

  it('counts a border the clinician drew by hand on such a slice: it can be the MLA', () => {
    // A lumen of radius 50 px (0.79 mm²), far smaller than every automatic one, on unreadable slice 3.
    const manifest = setManualContour(emptyManifest(), 3, circle(50));
    const result = correctedAnalysis(contours(), manifest, geometry);
    const slice = result.slices[2]!;
    expect(slice).toMatchObject({ noBorder: true, source: 'manual', vessel: null, plaqueBurden: null, bordersCross: false });
    expect(slice.areaMm2).toBeCloseTo(Math.PI * 0.5 ** 2, 1);
    expect(result.analysis.mla?.index).toBe(2);
    expect(result.manualCount).toBe(1);
    // With a vessel drawn too, the slice has a plaque burden.
    const both = correctedAnalysis(contours(), setManualContour(manifest, 3, circle(150), 'vessel'), geometry).slices[2]!;
    expect(both.plaqueBurden).toBeCloseTo((1.5 ** 2 - 0.5 ** 2) / 1.5 ** 2, 2);
  });

  it('shows a border being drawn on such a slice live, before it is stored', () => {
    const slice = correctedAnalysis(contours(), emptyManifest(), geometry).slices[3]!;
    const live = withCorrection(slice, 'vessel', circle(150), 0.01);
    expect(live).toMatchObject({ noBorder: true, source: null, areaMm2: null, plaqueBurden: null, vessel: { source: 'manual' } });
    expect(live.vessel?.areaMm2).toBeCloseTo(Math.PI * 1.5 ** 2, 1);
  });

  it('writes empty cells, not 0, for their figures in the CSV, and flags them "no border" besides "low confidence"', () => {
    const lines = measurementsCsv(correctedAnalysis(contours(), emptyManifest(), geometry)).trim().split('\r\n');
    expect(lines[3]).toBe('3,0.033,,,,,,,,0.05,,,low confidence; no border');
    expect(lines[4]!.split(',').slice(2, 9)).toEqual(['', '', '', '', '', '', '']);
    // A bordered slice is written as before.
    expect(lines[2]!.split(',')[10]).toBe('auto');
    // Drawn by hand, the lumen's figures come back and its source says so; the slice stays flagged.
    const drawn = measurementsCsv(correctedAnalysis(contours(), setManualContour(emptyManifest(), 3, circle(50)), geometry)).trim().split('\r\n')[3]!.split(',');
    expect(Number(drawn[2])).toBeCloseTo(Math.PI * 0.5 ** 2, 1);
    expect(drawn.slice(6, 13)).toEqual(['', '', '', '0.05', 'manual', '', 'MLA; low confidence; no border']);
  });
});

/**
 * Issue 28: a stent border corrected by hand replaces the fitted one on its frame: the MSA, the
 * expansion that divides it and the malapposition read the drawn border, the segment reaches a
 * corrected frame beyond its edges, and the wire form, CSV and PDF section name the corrected slices.
 */
import { describe, expect, it } from 'vitest';
import { correctedStentDetection, drawnStentBorder, segmentWithCorrections } from '../../../src/domain/stent/corrected-stent.ts';
import { detectStent, stentFigures } from '../../../src/domain/stent/stent-analysis.ts';
import { stentBorderAreaMm2 } from '../../../src/domain/stent/stent-border.ts';
import { stentReportSection } from '../../../src/domain/stent/stent-report.ts';
import { stentCorrectedSlices, stentCsvSection, stentResults } from '../../../src/domain/stent/stent-results.ts';
import { nativeReading, stentReading } from './stent-fixtures.ts';

/** Frames of 512 × 512 pixels of 0.01 mm, the catheter at the centre. */
const GEOMETRY = { centreX: 256, centreY: 256, pixelSpacingMm: 0.01 };
const FRAMES_PER_MM = 10;
/** A border drawn as `count` control points on a circle of `radiusMm` round the catheter, (dx, dy) mm off it. */
const drawnCircle = (radiusMm: number, count = 16, dx = 0, dy = 0) =>
  Array.from({ length: count }, (_, i) => {
    const a = (2 * Math.PI * i) / count;
    return { x: 256 + (dx + radiusMm * Math.cos(a)) / 0.01, y: 256 + (dy + radiusMm * Math.sin(a)) / 0.01 };
  });

/** 60 frames: a stent of 1.6 mm on frames 20-39 (about 8.0 mm²), malapposed by 0.7 mm over 60° on frames 30-35; native 1.7 mm elsewhere. */
const readings = Array.from({ length: 60 }, (_, f) =>
  f >= 20 && f < 40 ? stentReading(1.6, f >= 30 && f <= 35 ? { from: 200, to: 260, gapMm: 0.7 } : undefined, 0.2 * f) : nativeReading(1.7),
);
const areas = { frameCount: 60, framesPerMm: FRAMES_PER_MM, lumenAreasMm2: readings.map((_, f) => (f < 20 || f >= 40 ? 12 : 8)), vesselAreasMm2: readings.map(() => 18) };

describe('the stent with borders corrected by hand', () => {
  it('fits the harmonic curve the malapposition reads to a drawn border, off-centre included', () => {
    const border = drawnStentBorder(drawnCircle(1.2, 16, 0.2, -0.1), GEOMETRY)!;
    const [c0, c1, s1] = border.coefficients as [number, number, number];
    expect(c0).toBeCloseTo(1.2, 1);
    expect(c1).toBeCloseTo(0.2, 1);
    expect(s1).toBeCloseTo(-0.1, 1);
    expect(stentBorderAreaMm2(border)).toBeCloseTo(Math.PI * 1.2 ** 2, 1);
  });

  it('takes the drawn area on a corrected frame: the MSA moves there and the expansion follows', () => {
    const detected = detectStent(readings, FRAMES_PER_MM);
    expect(detected.msa!.areaMm2).toBeGreaterThan(7.5);
    const corrected = correctedStentDetection(readings, FRAMES_PER_MM, [{ frame: 25, controlPoints: drawnCircle(1.3) }], GEOMETRY);
    expect(corrected.correctedFrames).toEqual([25]);
    expect(corrected.msa!.frame).toBe(25);
    expect(corrected.msa!.areaMm2).toBeCloseTo(Math.PI * 1.3 ** 2, 1);
    // The other frames keep the border fitted through their struts.
    expect(corrected.frames[22]!.areaMm2).toBeCloseTo(detected.frames[22]!.areaMm2!, 6);
    const before = stentFigures(detected, areas).expansionMean!;
    const after = stentFigures(corrected, areas).expansionMean!;
    expect(after / before).toBeCloseTo(corrected.msa!.areaMm2 / detected.msa!.areaMm2, 6);
  });

  it('reads the malapposition against the drawn border: drawn on the wall, the malapposed struts are no longer flagged; drawn short of the wall, they are', () => {
    expect(detectStent(readings, FRAMES_PER_MM).malapposition).toHaveLength(1);
    // The clinician draws the border through the wall over the frames the detector called malapposed...
    const onWall = [30, 31, 32, 33, 34, 35].map((frame) => ({ frame, controlPoints: drawnCircle(1.6) }));
    // (the fitted border is on the struts, and so is this one: the region stays)
    expect(correctedStentDetection(readings, FRAMES_PER_MM, onWall, GEOMETRY).malapposition).toHaveLength(1);
    const toWall = [30, 31, 32, 33, 34, 35].map((frame) => ({ frame, controlPoints: drawnCircle(2.3) }));
    expect(correctedStentDetection(readings, FRAMES_PER_MM, toWall, GEOMETRY).malapposition).toHaveLength(0);
    // ...and a border drawn 0.45 mm inside an apposed wall over frames 22-27 is malapposed all round.
    const inside = [22, 23, 24, 25, 26, 27].map((frame) => ({ frame, controlPoints: drawnCircle(1.15) }));
    const regions = correctedStentDetection(readings, FRAMES_PER_MM, inside, GEOMETRY).malapposition;
    expect(regions.some((r) => r.firstFrame <= 23 && r.lastFrame >= 26 && r.maxArcDeg > 180)).toBe(true);
  });

  it('widens the segment to a corrected frame beyond an edge, and makes one of corrected frames where the struts gave none', () => {
    const beyond = correctedStentDetection(readings, FRAMES_PER_MM, [{ frame: 44, controlPoints: drawnCircle(1.5) }], GEOMETRY);
    expect(beyond.segment).toMatchObject({ distalFrame: 20, proximalFrame: 44 });
    expect(beyond.segment!.lengthMm).toBeCloseTo(2.4, 6);
    expect(beyond.frames[44]!.areaMm2).toBeCloseTo(Math.PI * 1.5 ** 2, 1);
    const native = readings.map(() => nativeReading(1.7));
    expect(correctedStentDetection(native, FRAMES_PER_MM, [], GEOMETRY).segment).toBeNull();
    const drawnOnly = correctedStentDetection(native, FRAMES_PER_MM, [10, 14].map((frame) => ({ frame, controlPoints: drawnCircle(1.4) })), GEOMETRY);
    expect(drawnOnly.segment).toEqual({ distalFrame: 10, proximalFrame: 14, lengthMm: 0.4 });
    expect(drawnOnly.msa!.frame).toBe(10);
    expect(drawnOnly.frames[12]).toEqual({ border: null, areaMm2: null });
    // A correction beyond the pullback changes nothing.
    expect(correctedStentDetection(native, FRAMES_PER_MM, [{ frame: 70, controlPoints: drawnCircle(1.4) }], GEOMETRY).segment).toBeNull();
    expect(segmentWithCorrections(null, [], FRAMES_PER_MM)).toBeNull();
  });

  it('names the corrected slices in the results, the CSV section and the PDF section', () => {
    const corrected = correctedStentDetection(readings, FRAMES_PER_MM, [25, 27].map((frame) => ({ frame, controlPoints: drawnCircle(1.3) })), GEOMETRY);
    const results = stentResults(corrected);
    expect(stentCorrectedSlices(results)).toEqual([26, 28]);
    expect(results.slices.find((s) => s.slice === 26)).toMatchObject({ source: 'manual' });
    expect(results.slices.find((s) => s.slice === 23)!.source).toBeUndefined();
    const figures = stentFigures(corrected, areas);
    expect(stentCsvSection(results, figures, [])).toContain('Stent border corrected by hand,"26 28"');
    expect(stentReportSection(results, figures, []).lines.join(' ')).toContain('Stent border corrected by hand on slices 26, 28: the stent area there is the drawn one.');
    // Without corrections, both say so or say nothing.
    const plain = stentResults(detectStent(readings, FRAMES_PER_MM));
    expect(stentCsvSection(plain, figures, [])).not.toContain('Stent border corrected');
    expect(stentReportSection(plain, figures, []).lines.join(' ')).toContain('No stent border corrected by hand.');
  });
});

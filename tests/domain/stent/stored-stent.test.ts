/**
 * The stent the server stores with the contours (issue 28) reads back as the detection it came
 * from: the figures on the borders (expansion, edge plaque burden, flags) are the same as from the
 * detection itself, and the stored contours keep the stent through their schema.
 */
import { describe, expect, it } from 'vitest';
import { detectStent, stentFigures } from '../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../src/domain/stent/stent-results.ts';
import { RecordContoursWithStentSchema, stentDetectionOf, stentOnBorders } from '../../../src/domain/stent/stored-stent.ts';
import type { StentFrameReading } from '../../../src/domain/stent/strut-detection.ts';
import { nativeReading, stentReading } from './stent-fixtures.ts';

const FRAMES_PER_MM = 10;

/** 100 frames: a stent on 30-79 narrowing at 55, malapposed over 60° on 70-76; plaque burden 55 % at 27. */
function pullback() {
  const readings: StentFrameReading[] = [];
  const lumen: number[] = [];
  const vessel: number[] = [];
  for (let f = 0; f < 100; f++) {
    const inStent = f >= 30 && f < 80;
    const radius = inStent ? 1.6 - 0.3 * Math.max(0, 1 - Math.abs(f - 55) / 20) : 1.5;
    readings.push(inStent ? stentReading(radius, f >= 70 && f <= 76 ? { from: 100, to: 160, gapMm: 0.6 } : undefined, 0.2 * f) : nativeReading(radius));
    const area = Math.PI * radius * radius;
    lumen.push(f === 12 ? 8.5 : f === 92 ? 8.0 : area);
    vessel.push(f === 27 ? area / 0.45 : area / 0.65);
  }
  return { readings, lumen, vessel };
}

describe('the stored stent', () => {
  const { readings, lumen, vessel } = pullback();
  const detection = detectStent(readings, FRAMES_PER_MM);
  const stored = stentResults(detection);
  const areas = { frameCount: 100, framesPerMm: FRAMES_PER_MM, lumenAreasMm2: lumen, vesselAreasMm2: vessel };

  it('gives the same figures on the borders as the detection it was stored from', () => {
    const read = stentDetectionOf(stored, 100);
    const fromStored = stentFigures(read, areas);
    const fromDetection = stentFigures(detection, areas);
    expect(fromStored.flags).toEqual(fromDetection.flags);
    expect(fromStored.flags).toEqual(expect.arrayContaining(['edge-burden-distal', 'malapposition']));
    expect(fromStored.references).toEqual(fromDetection.references);
    expect(fromStored.edges).toEqual(fromDetection.edges);
    // The MSA is stored to 0.001 mm².
    expect(fromStored.expansionMean).toBeCloseTo(fromDetection.expansionMean!, 4);
    expect(fromStored.expansionDistal).toBeCloseTo(fromDetection.expansionDistal!, 4);
    expect(read.segment).toEqual({ distalFrame: detection.segment!.distalFrame, proximalFrame: detection.segment!.proximalFrame, lengthMm: expect.closeTo(detection.segment!.lengthMm, 2) });
    expect(read.frames[55]?.border?.coefficients).toEqual(stored.slices.find((s) => s.slice === 56)!.border);
    expect(read.frames[10]).toBeNull();
  });

  it('is kept by the contours schema, and contours stored before it parse without one', () => {
    const contours = { version: 'v', frameCount: 0, pixelSpacingMm: 0.02, contours: [], mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [] };
    expect(RecordContoursWithStentSchema.parse({ ...contours, stent: stored }).stent).toEqual(stored);
    expect(RecordContoursWithStentSchema.parse(contours).stent).toBeUndefined();
    expect(() => RecordContoursWithStentSchema.parse({ ...contours, stent: { ...stored, msa: { slice: 0, areaMm2: 1 } } })).toThrow();
  });
});

describe('the stored stent on the borders, with the references the clinician moved (the PACS report)', () => {
  const { readings, lumen, vessel } = pullback();
  const detection = stentDetectionOf(stentResults(detectStent(readings, FRAMES_PER_MM)), 100);
  const result = {
    slices: lumen.map((areaMm2, f) => ({ slice: f + 1, areaMm2, source: 'auto', vessel: { areaMm2: vessel[f], source: 'auto' } })),
    analysis: { references: { distal: { index: 12 }, proximal: { index: 92 } } },
  } as unknown as Parameters<typeof stentOnBorders>[1];

  it('takes the analysis’s references when none was moved, and the manifest’s 1-based slices where they were', () => {
    const unmoved = stentOnBorders(detection, result, FRAMES_PER_MM).figures;
    expect(unmoved.references.distal?.frame).toBe(12);
    expect(unmoved.movedReferences ?? []).toEqual([]);
    const moved = stentOnBorders(detection, result, FRAMES_PER_MM, { distal: 6, proximal: 90 }).figures;
    expect(moved.references.distal?.frame).toBe(5);
    expect(moved.references.proximal?.frame).toBe(89);
    expect(moved.movedReferences).toEqual(['distal', 'proximal']);
    // The moved distal reference is smaller than the default (8.5 mm² at frame 12): expansion changes with it.
    expect(moved.expansionDistal).toBeGreaterThan(unmoved.expansionDistal!);
  });
});

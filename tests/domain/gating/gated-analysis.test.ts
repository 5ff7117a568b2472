import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { gatedAnalysis, gatedColumns, nextGatedSlice } from '../../../src/domain/gating/gated-analysis.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const circle = (radius: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos((i / 16) * 2 * Math.PI), y: 256 + radius * Math.sin((i / 16) * 2 * Math.PI) }));

/** A pullback whose lumen shrinks in systole: every 20th frame (end-diastole) shows the true lumen, the others up to 1 mm² less. */
function beatingContours(count: number): RecordContours {
  const contours = Array.from({ length: count }, (_, i): DetectedContour => {
    const anatomical = 6 - 2 * Math.exp(-(((i - 100) / 30) ** 2));
    const systolic = i % 20 === 0 ? 0 : Math.sin((Math.PI * (i % 20)) / 20);
    const areaMm2 = anatomical - systolic;
    return { slice: i + 1, controlPoints: circle(100), areaMm2, minDiameterMm: 2, maxDiameterMm: 3, eccentricity: 1 / 3, vessel: { controlPoints: circle(200), areaMm2: 12 }, plaqueAreaMm2: 12 - areaMm2, plaqueBurden: (12 - areaMm2) / 12, confidence: 0.9 };
  });
  return { version: 'v1', frameCount: count, pixelSpacingMm: 0.01, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [] };
}

describe('gatedAnalysis', () => {
  it('finds the MLA and the largest plaque burden among the end-diastolic frames, not at a systolic frame', () => {
    const all = correctedAnalysis(beatingContours(200), emptyManifest(), geometry);
    const gated = Array.from({ length: 10 }, (_, k) => 20 * k);
    const result = gatedAnalysis(all, gated, geometry);
    // On all frames the smallest lumen is a systolic one, 1 mm² smaller than the anatomy's.
    expect(all.analysis.mla!.areaMm2).toBeLessThan(3.5);
    expect(result.analysis.mla).toEqual({ index: 100, areaMm2: 4 });
    expect(gated).toContain(result.maxPlaqueBurden!.index);
    expect(gated).toContain(result.analysis.references.distal!.index);
    // Each slice keeps its own measurements.
    expect(result.slices).toBe(all.slices);
  });
});

describe('gated stepping and the gated L-mode', () => {
  it('steps from a slice to the next or previous gated frame (1-based slices, 0-based frames)', () => {
    expect(nextGatedSlice(1, [9, 29, 49], 1)).toBe(10);
    expect(nextGatedSlice(10, [9, 29, 49], 1)).toBe(30);
    expect(nextGatedSlice(30, [9, 29, 49], -1)).toBe(10);
    expect(nextGatedSlice(50, [9, 29, 49], 1)).toBeNull();
    expect(nextGatedSlice(10, [9, 29, 49], -1)).toBeNull();
  });

  it('draws every column from the last end-diastole at or before it: one image per cycle, stretched', () => {
    expect(Array.from(gatedColumns(8, [2, 5]))).toEqual([2, 2, 2, 2, 2, 5, 5, 5]);
    expect(Array.from(gatedColumns(3, []))).toEqual([0, 1, 2]);
  });
});

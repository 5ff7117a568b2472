import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { lesionLengthMm, lesionResults } from '../../../src/domain/contours/lesion-results.ts';

const square = [
  { x: 0, y: 0 },
  { x: 10, y: 0 },
  { x: 10, y: 10 },
  { x: 0, y: 10 },
];

/** A pullback whose lumen areas are given per slice, with min diameter area/2 and max area/2 + 1 (mm). */
function pullback(areas: readonly (number | null)[]): RecordContours {
  const contours = areas.map((areaMm2, i): DetectedContour =>
    areaMm2 === null
      ? { slice: i + 1, noBorder: true, confidence: 0.05 }
      : {
          slice: i + 1,
          controlPoints: square,
          areaMm2,
          minDiameterMm: areaMm2 / 2,
          maxDiameterMm: areaMm2 / 2 + 1,
          eccentricity: 0.1,
          vessel: { controlPoints: square, areaMm2: 20 },
          plaqueAreaMm2: 20 - areaMm2,
          plaqueBurden: (20 - areaMm2) / 20,
          confidence: 0.9,
        },
  );
  return { version: 'v1', frameCount: areas.length, pixelSpacingMm: 0.1, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [] };
}

// 1 frame a mm: frame rate 1 Hz at 1 mm/s, so slice n is at n − 1 mm and the 10 mm reference window is 10 slices.
const geometry = { frameRateHz: 1, pullbackSpeedMmPerS: 1 };

describe('the results a stent is sized by', () => {
  it('gives the MLA with its MLD, both references with areas and mean and min diameters, the stenosis and the lesion length, placed in mm', () => {
    //            slice: 1  2  3  4  5  6  7  8  9
    const analysis = correctedAnalysis(pullback([6, 8, 7, 5, 2, 4, 9, 6, 5]), emptyManifest(), geometry);
    const results = lesionResults(analysis);
    expect(results.mla).toEqual({ slice: 5, positionMm: 4, areaMm2: 2, minDiameterMm: 1, maxDiameterMm: 2, meanDiameterMm: 1.5 });
    // Largest lumen distal of the MLA (slices 1–4) is slice 2; proximal (6–9) slice 7.
    expect(results.distalReference).toMatchObject({ slice: 2, positionMm: 1, areaMm2: 8, minDiameterMm: 4, meanDiameterMm: 4.5 });
    expect(results.proximalReference).toMatchObject({ slice: 7, positionMm: 6, areaMm2: 9, minDiameterMm: 4.5, meanDiameterMm: 5 });
    // Against the mean reference area 8.5 mm².
    expect(results.areaStenosisPercent).toBeCloseTo((100 * (8.5 - 2)) / 8.5, 9);
    // From the distal reference (1 mm) to the proximal one (6 mm).
    expect(results.lesionLengthMm).toBe(5);
  });

  it('places frames by the pullback speed and frame rate', () => {
    const analysis = correctedAnalysis(pullback([6, 8, 7, 5, 2, 4, 9, 6, 5]), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
    const results = lesionResults(analysis);
    expect(results.mla!.positionMm).toBeCloseTo(4 / 60, 12);
    expect(results.lesionLengthMm).toBeCloseTo(5 / 60, 12);
  });

  it('has no lesion length when the MLA has a reference on one side only', () => {
    const results = lesionResults(correctedAnalysis(pullback([2, 5, 6, 4]), emptyManifest(), geometry));
    expect(results.mla?.slice).toBe(1);
    expect(results.distalReference).toBeNull();
    expect(results.proximalReference?.slice).toBe(3);
    expect(results.lesionLengthMm).toBeNull();
    expect(lesionLengthMm({ positionMm: 7 }, { positionMm: 2 })).toBe(5);
  });

  it('has no figure at all when no slice has a lumen border', () => {
    const results = lesionResults(correctedAnalysis(pullback([null, null, null]), emptyManifest(), geometry));
    expect(results).toEqual({ mla: null, distalReference: null, proximalReference: null, areaStenosisPercent: null, lesionLengthMm: null });
  });

  it('skips slices without a border when it picks the MLA and the references', () => {
    const results = lesionResults(correctedAnalysis(pullback([6, null, 3, null, 7]), emptyManifest(), geometry));
    expect(results.mla?.slice).toBe(3);
    expect(results.distalReference?.slice).toBe(1);
    expect(results.proximalReference?.slice).toBe(5);
    expect(results.lesionLengthMm).toBe(4);
  });
});

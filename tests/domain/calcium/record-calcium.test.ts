import { describe, expect, it } from 'vitest';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { recordCalcium } from '../../../src/domain/calcium/record-calcium.ts';

const square = (r: number) => [
  { x: 50 - r, y: 50 - r },
  { x: 50 + r, y: 50 - r },
  { x: 50 + r, y: 50 + r },
  { x: 50 - r, y: 50 + r },
];
function bordered(slice: number, arcDeg: number | undefined): DetectedContour {
  return {
    slice,
    controlPoints: square(10),
    areaMm2: 4,
    minDiameterMm: 2,
    maxDiameterMm: 2.2,
    eccentricity: 0.1,
    vessel: { controlPoints: square(20), areaMm2: 12 },
    plaqueAreaMm2: 8,
    plaqueBurden: 0.66,
    confidence: 0.9,
    ...(arcDeg === undefined ? {} : { calcium: { arcDeg, startDeg: 10, endDeg: (10 + arcDeg) % 360, nodule: false } }),
  };
}
const contoursOf = (contours: DetectedContour[]): RecordContours => ({
  version: 'v',
  frameCount: contours.length,
  pixelSpacingMm: 0.02,
  contours,
  mla: null,
  references: { proximal: null, distal: null },
  stenosisPercent: null,
  maxPlaqueBurden: null,
  lowConfidenceSlices: [],
});

describe('a record\'s calcium', () => {
  it('is not measurable on contours detected before calcium was', () => {
    const calcium = recordCalcium(contoursOf([bordered(1, undefined), bordered(2, undefined)]), 0.1);
    expect(calcium.measured).toBe(false);
    expect(calcium.bySlice).toEqual([null, null]);
  });

  it('gives no arc to a slice without a border, scores the rest, and names calcified slices corrected by hand', () => {
    const contours = contoursOf([bordered(1, 0), { slice: 2, noBorder: true, confidence: 0 }, bordered(3, 120), bordered(4, 360)]);
    const calcium = recordCalcium(contours, 0.1, (slice) => slice === 3 || slice === 1);
    expect(calcium.bySlice[1]).toBeNull();
    expect(calcium.score.circumferential).toEqual({ point: 1, index: 3 });
    expect(calcium.score.maxArc).toEqual({ index: 3, arcDeg: 360 });
    // The EEM of 12 mm² is 3.9 mm across: no small-vessel point.
    expect(calcium.score.smallVessel.diameterMm).toBeCloseTo(3.909, 2);
    // Slice 1 was corrected but shows no calcium: only slice 3 is named.
    expect(calcium.handCorrected).toEqual([3]);
  });
});

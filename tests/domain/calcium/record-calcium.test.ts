import { describe, expect, it } from 'vitest';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { recordCalcium } from '../../../src/domain/calcium/record-calcium.ts';
import { calciumCsv } from '../../../src/domain/calcium/calcium-csv.ts';

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

describe('the calcium tables of the CSV export', () => {
  it('gives the score with its definition, then one row per calcified slice with the hand-corrected ones said', () => {
    const contours = contoursOf([bordered(1, 0), bordered(2, 120), bordered(3, 360), { slice: 4, noBorder: true, confidence: 0 }]);
    const csv = calciumCsv(recordCalcium(contours, 0.1, (slice) => slice === 2), 0.1);
    const [scoreTable, sliceTable] = csv.split('\r\n\r\n');
    const scoreRows = scoreTable!.split('\r\n');
    expect(scoreRows[0]).toBe('calcium_score,points,detail');
    expect(scoreRows[1]).toMatch(/^total,1,"IVUS calcium score \(Zhang et al\./);
    expect(scoreRows).toContain('circumferential_360_deg,1,"first at slice 3"');
    expect(sliceTable!.trim().split('\r\n')).toEqual([
      'slice,position_mm,calcium_arc_deg,calcium_start_deg,calcium_end_deg,calcified_nodule,border_corrected_by_hand',
      '2,0.100,120.0,10.0,130.0,no,yes',
      '3,0.200,360.0,10.0,10.0,no,no',
    ]);
  });

  it('says not measurable, and lists no slice, on contours detected before calcium was', () => {
    const csv = calciumCsv(recordCalcium(contoursOf([bordered(1, undefined)]), 0.1), 0.1);
    expect(csv).toBe('calcium_score,points,detail\r\ntotal,,"not measurable: these contours were detected before calcium was"\r\n');
  });
});

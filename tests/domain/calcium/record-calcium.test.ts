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

describe('a record\'s calcium after the clinician\'s corrections', () => {
  // Six slices of 1 mm: detected 280° on 1–5 (5 mm: not over 5 mm), none on 6.
  const contours = () => contoursOf([1, 2, 3, 4, 5, 6].map((slice) => bordered(slice, slice <= 5 ? 280 : 0)));

  it('counts the arc re-measured on a corrected border, and names that slice', () => {
    const remeasured = new Map([[6, { arcDeg: 300, startDeg: 0, endDeg: 300, nodule: false }]]);
    const before = recordCalcium(contours(), 1);
    expect(before.score.longArc.point).toBe(0);
    const after = recordCalcium(contours(), 1, (slice) => slice === 6, { remeasured });
    // Six slices over 270° now: more than 5 mm.
    expect(after.score.longArc).toEqual({ point: 1, run: { first: 0, last: 5, lengthMm: 6 } });
    expect(after.bySlice[5]).toEqual(remeasured.get(6));
    expect(after.onCorrectedBorder).toEqual([6]);
    // Re-measured, so no longer "read on the detected border".
    expect(after.handCorrected).toEqual([]);
  });

  it('puts the clinician\'s own arc over the re-measured and the detected one, a cleared arc included', () => {
    const remeasured = new Map([[3, { arcDeg: 200, startDeg: 0, endDeg: 200, nodule: false }]]);
    const calcium = recordCalcium(contours(), 1, () => false, {
      remeasured,
      byHand: [
        { slice: 3, startDeg: 350, arcDeg: 20, nodule: true },
        { slice: 4, startDeg: 0, arcDeg: 0 },
        { slice: 99, startDeg: 0, arcDeg: 360 },
      ],
    });
    expect(calcium.bySlice[2]).toEqual({ arcDeg: 20, startDeg: 350, endDeg: 10, nodule: true });
    expect(calcium.bySlice[3]).toEqual({ arcDeg: 0, startDeg: 0, endDeg: 0, nodule: false });
    // Slice 99 is beyond the record: left out.
    expect(calcium.setByHand).toEqual([3, 4]);
    expect(calcium.onCorrectedBorder).toEqual([]);
    expect(calcium.score.nodule.run).toEqual({ first: 2, last: 2, lengthMm: 1 });
    expect(calcium.score.longestCalcium).toEqual({ first: 0, last: 2, lengthMm: 3 });
  });

  it('takes the vessel diameter from the corrected vessel border when given', () => {
    const calcium = recordCalcium(contours(), 1, () => false, { vesselAreaMm2: () => 7 });
    // √(4 × 7 / π) = 2.99 mm: under 3.5 mm.
    expect(calcium.score.smallVessel.point).toBe(1);
  });

  it('exports which arcs were re-measured and which set by hand, with their rows', () => {
    const calcium = recordCalcium(contours(), 1, (slice) => slice === 6, {
      remeasured: new Map([[6, { arcDeg: 0, startDeg: 0, endDeg: 0, nodule: false }]]),
      byHand: [{ slice: 2, startDeg: 10, arcDeg: 90 }],
    });
    const [scoreTable, sliceTable] = calciumCsv(calcium, 1).split('\r\n\r\n');
    expect(scoreTable).toContain('measured_on_corrected_border,,"slices 6"');
    expect(scoreTable).toContain('set_by_hand,,"slices 2"');
    const rows = sliceTable!.trim().split('\r\n');
    expect(rows).toContain('2,1.000,90.0,10.0,100.0,no,no,set by hand');
    // A corrected border that lost its calcium still gets its row: the change is the clinician's to see.
    expect(rows).toContain('6,5.000,0.0,0.0,0.0,no,yes,corrected border');
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
      'slice,position_mm,calcium_arc_deg,calcium_start_deg,calcium_end_deg,calcified_nodule,border_corrected_by_hand,calcium_measured_on',
      '2,0.100,120.0,10.0,130.0,no,yes,detected border',
      '3,0.200,360.0,10.0,10.0,no,no,detected border',
    ]);
  });

  it('says not measurable, and lists no slice, on contours detected before calcium was', () => {
    const csv = calciumCsv(recordCalcium(contoursOf([bordered(1, undefined)]), 0.1), 0.1);
    expect(csv).toBe('calcium_score,points,detail\r\ntotal,,"not measurable: these contours were detected before calcium was"\r\n');
  });
});

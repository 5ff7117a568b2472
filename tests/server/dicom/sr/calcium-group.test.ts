/**
 * The SR sent to PACS carries the calcium (issue 28): the score and its four points, the largest
 * arc on its frame and the definition, which dcmtk reads without complaint; and the rest of the
 * report reads back as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordCalcium } from '../../../../src/domain/calcium/record-calcium.ts';
import type { RecordContours } from '../../../../src/domain/contours/api.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { requireTools, run, scratch } from './dcmtk.ts';
import { detected, review, SLICE_COUNT, subject } from './report-fixture.ts';

const hasDcmtk = requireTools('dsrdump');
const files = scratch();
afterAll(() => files.remove());

/** The fixture's contours with 360° calcium on slices 10 to 14 and 100° on 15 to 20. */
function calcified(): RecordContours {
  const contours = detected(SLICE_COUNT);
  const arcOf = (slice: number) => (slice >= 10 && slice <= 14 ? 360 : slice >= 15 && slice <= 20 ? 100 : 0);
  return {
    ...contours,
    contours: contours.contours.map((c) => ('noBorder' in c ? c : { ...c, calcium: { arcDeg: arcOf(c.slice), startDeg: 0, endDeg: arcOf(c.slice) % 360, nodule: false } })),
  };
}

describe('the calcium in the measurement report', () => {
  const made = review();
  const calcium = recordCalcium(calcified(), 0.5 / 30);
  const built = buildMeasurementReport(subject(), { ...made, calcium });

  it.skipIf(!hasDcmtk)('is a group dsrdump reads without an error: the score, its points, the largest arc on its frame, the definition', async () => {
    const dump = await run('dsrdump', ['+Pt', '+Pc', '+Pu', files.file('calcium.dcm', built.bytes)]);
    expect(dump.code).toBe(0);
    expect(dump.stderr).toBe('');
    expect(dump.stdout).toMatch(/IVUS calcium score.*"1" \(\{points\}/);
    expect(dump.stdout).toMatch(/Circumferential \(360 degrees\) calcium.*"1"/);
    expect(dump.stdout).toMatch(/Largest calcium arc.*"360" \(deg/);
    // dsrdump shortens long texts: the comment starts with the definition's source.
    expect(dump.stdout).toContain('(121106,DCM,"Comment")="IVUS calcium score (Zhang e');
    expect(dump.stdout).toMatch(/Largest calcium arc.*\n\s*<inferred from IMAGE:=\(USm image,"[\d.]+",10\)>/);
  });

  it.skipIf(!hasDcmtk)('names the slices whose arc was measured on a border corrected by hand, and those set by hand', async () => {
    const corrected = recordCalcium(calcified(), 0.5 / 30, () => true, {
      remeasured: new Map([11, 12, 13].map((slice) => [slice, { arcDeg: 0, startDeg: 0, endDeg: 0, nodule: false }])),
      byHand: [{ slice: 30, startDeg: 10, arcDeg: 90 }],
    });
    const dump = await run('dsrdump', ['+Pt', '+Pc', '+Pu', files.file('calcium-corrected.dcm', buildMeasurementReport(subject(), { ...made, calcium: corrected }).bytes)]);
    expect(dump.code).toBe(0);
    expect(dump.stderr).toBe('');
    expect(dump.stdout).toContain('Calcium arc measured on a lumen border corrected by hand")="slices 11-13"');
    expect(dump.stdout).toContain('Calcium arc set by hand")="slices 30"');
  });

  it('reads back: the score, its points, the largest arc on its slice, and the slices the corrections changed', () => {
    expect(readMeasurementReport(built.bytes).calcium).toEqual({
      score: calcium.score.total,
      points: { longArc: 0, circumferential: 1, nodule: 0, smallVessel: calcium.score.smallVessel.point },
      maxArc: { arcDeg: 360, slice: 10 },
      longestMm: expect.closeTo(calcium.score.longestCalcium!.lengthMm, 3) as number,
      vesselDiameterMm: expect.closeTo(calcium.score.smallVessel.diameterMm!, 3) as number,
      onCorrectedBorder: null,
      setByHand: null,
    });
    const corrected = recordCalcium(calcified(), 0.5 / 30, () => true, {
      remeasured: new Map([11, 12, 13].map((slice) => [slice, { arcDeg: 0, startDeg: 0, endDeg: 0, nodule: false }])),
      byHand: [{ slice: 30, startDeg: 10, arcDeg: 90 }],
    });
    const read = readMeasurementReport(buildMeasurementReport(subject(), { ...made, calcium: corrected }).bytes).calcium;
    expect(read).toMatchObject({ onCorrectedBorder: 'slices 11-13', setByHand: 'slices 30' });
    // A report without calcium reads back without it.
    expect(readMeasurementReport(buildMeasurementReport(subject(), made).bytes).calcium).toBeNull();
  });

  it('leaves the rest of the report as it reads without calcium', () => {
    const withCalcium = readMeasurementReport(built.bytes);
    const without = readMeasurementReport(buildMeasurementReport(subject(), made).bytes);
    expect(withCalcium.mla).toEqual(without.mla);
    expect(withCalcium.annotations).toHaveLength(without.annotations.length);
    expect(withCalcium.borders).toHaveLength(without.borders.length);
  });
});

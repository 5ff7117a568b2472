/**
 * The measurement report "Send to PACS" stores: a Comprehensive 3D SR that dcmtk reads without a
 * complaint, whose numbers are the ones the review and the PDF show, and whose every coordinate sits
 * on the right frame of the pullback. Read back from the DICOM content alone, also after the
 * re-encoding a PACS may apply (implicit VR).
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { smoothClosedCurve } from '../../../../src/domain/annotations/curves.ts';
import { allAnnotations } from '../../../../src/domain/annotations/edits.ts';
import { measureAnnotation } from '../../../../src/domain/annotations/kinds/index.ts';
import type { Point, TypedAnnotation } from '../../../../src/domain/annotations/manifest.ts';
import { measuredOutline } from '../../../../src/domain/contours/measurements.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { decimalString } from '../../../../src/server/dicom/sr/sr-content.ts';
import { requireTools, run, scratch } from './dcmtk.ts';
import { MLA_SLICE, PULLBACK, review, SLICE_COUNT, subject } from './report-fixture.ts';

const hasDcmtk = requireTools('dsrdump', 'dcmdump', 'dcmconv');
const files = scratch();
afterAll(() => files.remove());

/**
 * DS values hold 16 characters: the report writes as many significant digits as fit (14 or more
 * for the areas and percentages here), so a number read back is within 1e-12 of the one written,
 * relatively. Annotation values are the review's own rounded ones and come back exactly.
 */
const DS_RELATIVE_TOLERANCE = 1e-12;
const closeTo = (actual: number | undefined, expected: number) => {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(Math.abs(expected) * DS_RELATIVE_TOLERANCE);
};
/** SCOORD coordinates are 32-bit floats: well within a thousandth of a pixel on a 512 px image. */
const samePoints = (actual: Point[], expected: Point[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((p, i) => {
    expect(p.x).toBeCloseTo(expected[i]!.x, 3);
    expect(p.y).toBeCloseTo(expected[i]!.y, 3);
  });
};

function drawn(annotation: TypedAnnotation): Point[] {
  switch (annotation.type) {
    case 'ruler':
      return [{ x: annotation.startX, y: annotation.startY }, { x: annotation.endX, y: annotation.endY }];
    case 'area': {
      const curve = smoothClosedCurve(annotation.controlPoints);
      return [...curve, curve[0]!];
    }
    case 'angle':
      return [annotation.angle.startControl, annotation.angle.origin, annotation.angle.endControl];
    case 'text':
      return [annotation.origin];
  }
}

const made = review();
const built = buildMeasurementReport(subject(), made);
const srFile = files.file('report.dcm', built.bytes);
const read = readMeasurementReport(built.bytes);

describe.skipIf(!hasDcmtk)('the report as dcmtk reads it', () => {
  it('is a Comprehensive 3D SR that dsrdump reads without an error or a warning, following TID 1500', async () => {
    const dump = await run('dsrdump', ['+Pt', '+Pc', '+Pu', srFile]);
    expect(dump.stderr).toBe('');
    expect(dump.code).toBe(0);
    expect(dump.stdout).toContain('Comprehensive 3D SR Document');
    expect(dump.stdout).toContain('<CONTAINER:(126000,DCM,"Imaging Measurement Report")=SEPARATE>  # TID 1500 (DCMR)');
    expect(dump.stdout).toContain('<has obs context PNAME:(121008,DCM,"Person Observer Name")="Okafor^Ada">');
    expect(dump.stdout).toContain('<contains CONTAINER:(126010,DCM,"Imaging Measurements")=SEPARATE>');
    // 4 annotations, a lumen and a vessel group per slice, and the pullback analysis.
    expect(dump.stdout.match(/\(125007,DCM,"Measurement Group"\)/g)).toHaveLength(4 + 2 * SLICE_COUNT + 1);
    expect(dump.stdout).toContain('<contains NUM:(410668003,SCT,"Length")="2.61" (mm,UCUM,"millimeter")>');
    expect(dump.stdout).toContain('<contains TEXT:(121106,DCM,"Comment")="Calcified nodule at 9 o\'clock">');

    const header = await run('dcmdump', [srFile]);
    expect(header.code).toBe(0);
    expect(header.stdout).toMatch(/\(0008,0016\) UI =Comprehensive3DSRStorage/);
    expect(header.stdout).toMatch(/\(0008,0060\) CS \[SR\]/);
    expect(header.stdout).toContain('(0010,0010) PN [Brown^Tomasz]');
    expect(header.stdout).toContain('(0010,0030) DA [19610409]');
    expect(header.stdout).toContain(`(0020,000d) UI [${subject().study.studyInstanceUid}]`);
    expect(header.stdout).toContain(`(0020,000e) UI [${built.seriesInstanceUid}]`);
  });

  it('places every SCOORD on the pullback instance, on the frame of its slice (as dcmtk reads the references)', async () => {
    const dump = await run('dsrdump', ['+Pu', srFile]);
    const frames = [...dump.stdout.matchAll(/<selected from IMAGE:=\(\S+ image,"([^"]+)",(\d+)\)>/g)].map(([, uid, frame]) => ({ uid, frame: Number(frame) }));
    const expected = [...allAnnotations(made.manifest).map((a) => a.slice), ...made.analysis.slices.flatMap((s) => [s.slice, s.slice])];
    expect(frames.map((f) => f.frame).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(new Set(frames.map((f) => f.uid))).toEqual(new Set([PULLBACK.sopInstanceUid]));
  });

  it('writes UTF-8 text as UTF-8 and reads it back, a curly apostrophe in a note and a Polish name included', async () => {
    const bytes = buildMeasurementReport(subject('Łukasiewicz, Zoë'), review('Calcified nodule, 9 o’clock')).bytes;
    const file = files.file('utf8.dcm', bytes);
    const dump = await run('dsrdump', ['+U8', file]);
    expect(dump.code).toBe(0);
    // dcmtk 3.6.7's VR checker cannot check UTF-8 and says so; it must say nothing else.
    expect(dump.stderr.split('\n').filter((line) => line && !line.includes('VR checker does not support this Specific Character Set: ISO_IR 192'))).toEqual([]);
    expect(dump.stdout).toContain('Łukasiewicz^Zoë');
    expect(dump.stdout).toContain('="Calcified nodule, 9 o’clock">');
    expect(readMeasurementReport(bytes).annotations.find((a) => a.kind === 'text')?.text).toBe('Calcified nodule, 9 o’clock');
  });

  it('reads the same figures after a PACS re-encodes the report in implicit VR', async () => {
    const implicit = files.file('implicit.dcm');
    const converted = await run('dcmconv', ['+ti', srFile, implicit]);
    expect(converted.code).toBe(0);
    expect((await run('dcmdump', [implicit])).stdout).toContain('Little Endian Implicit');
    expect(readMeasurementReport(new Uint8Array(fs.readFileSync(implicit)))).toEqual(read);
  });

  it('is a valid report for a review without detected borders (annotations only, no analysis)', async () => {
    const bytes = buildMeasurementReport(subject(), review(undefined, 0)).bytes;
    const dump = await run('dsrdump', [files.file('annotations-only.dcm', bytes)]);
    expect(dump.stderr).toBe('');
    expect(dump.code).toBe(0);
    const back = readMeasurementReport(bytes);
    expect(back.annotations).toHaveLength(4);
    expect(back.borders).toEqual([]);
    expect(back.mla).toBeNull();
    expect(back.references).toEqual({ distal: null, proximal: null });
    expect(back.stenosisPercent).toBeNull();
    expect(back.maxPlaqueBurden).toBeNull();
  });
});

describe('the report read back', () => {
  it('gives every annotation with the label, slice, value and unit the review shows, and its geometry', () => {
    const annotations = allAnnotations(made.manifest);
    expect(read.annotations).toHaveLength(annotations.length);
    for (const annotation of annotations) {
      const back = read.annotations.find((a) => a.id === annotation.id);
      expect(back, annotation.id).toBeDefined();
      expect(back).toMatchObject({ label: annotation.label, slice: annotation.slice, kind: annotation.type });
      samePoints(back!.points, drawn(annotation));
      const measured = measureAnnotation(annotation, made.pixelSpacingMm);
      if (annotation.type === 'text') {
        expect(back).toMatchObject({ text: annotation.text, value: null, unit: null });
      } else {
        expect(back!.value).toBe(Number(measured!.value));
        expect(back!.unit).toBe(measured!.unit);
      }
    }
    expect(read.annotations.map((a) => a.kind).sort()).toEqual(['angle', 'area', 'ruler', 'text']);
  });

  it("gives each slice's corrected lumen and vessel border with its area, plaque burden and source", () => {
    expect(read.borders).toHaveLength(2 * SLICE_COUNT);
    for (const slice of made.analysis.slices) {
      const lumen = read.borders.find((b) => b.border === 'lumen' && b.slice === slice.slice);
      const vessel = read.borders.find((b) => b.border === 'vessel' && b.slice === slice.slice);
      // Every slice of this fixture has both borders.
      if (slice.areaMm2 === null || slice.vessel === null || slice.plaqueBurden === null) throw new Error(`slice ${slice.slice} has no border`);
      closeTo(lumen?.areaMm2, slice.areaMm2);
      closeTo(vessel?.areaMm2, slice.vessel.areaMm2);
      closeTo(vessel?.plaqueBurdenPercent ?? undefined, 100 * slice.plaqueBurden);
      // Closed polylines of the drawn curve: the first point repeated.
      expect(lumen?.pointCount).toBe(measuredOutline(slice.controlPoints).length + 1);
      expect(vessel?.pointCount).toBe(measuredOutline(slice.vessel.controlPoints).length + 1);
      expect(lumen?.source).toBe(slice.slice === MLA_SLICE ? 'manual' : 'auto');
      expect(vessel?.source).toBe('auto');
    }
  });

  it('gives the MLA, the references, the area stenosis and the maximal plaque burden with their slices', () => {
    const { analysis, maxPlaqueBurden, slices } = made.analysis;
    expect(read.mla?.slice).toBe(MLA_SLICE);
    closeTo(read.mla?.areaMm2, analysis.mla!.areaMm2);
    expect(read.references.distal?.slice).toBe(slices[analysis.references.distal!.index]!.slice);
    closeTo(read.references.distal?.areaMm2, analysis.references.distal!.areaMm2);
    expect(read.references.proximal?.slice).toBe(slices[analysis.references.proximal!.index]!.slice);
    closeTo(read.references.proximal?.areaMm2, analysis.references.proximal!.areaMm2);
    closeTo(read.stenosisPercent ?? undefined, analysis.stenosisPercent!);
    expect(read.maxPlaqueBurden?.slice).toBe(MLA_SLICE);
    closeTo(read.maxPlaqueBurden?.percent, 100 * maxPlaqueBurden!.plaqueBurden);
    expect(read.observerName).toBe('Okafor^Ada');
    expect(read.sopInstanceUid).toBe(built.sopInstanceUid);
  });

  it('references the pullback instance and the frame of the slice from every SCOORD', () => {
    const images = [...read.annotations, ...read.borders].map((item) => ({ ...item.image, slice: item.slice }));
    expect(images).toHaveLength(4 + 2 * SLICE_COUNT);
    for (const image of images) {
      expect(image).toEqual({ sopClassUid: PULLBACK.sopClassUid, sopInstanceUid: PULLBACK.sopInstanceUid, frame: image.slice, slice: image.slice });
    }
    expect(read.annotations.map((a) => a.image.frame).sort((a, b) => a - b)).toEqual([3, 7, 12, 25]);
  });

  it('refuses a DICOM file that is not a measurement report', () => {
    const other = buildMeasurementReport(subject(), made).bytes;
    // The root concept's code value, 126000, changed to 126001 in place: the same file, another document.
    const text = Buffer.from(other).toString('latin1');
    const at = text.indexOf('126000');
    const changed = Buffer.from(other);
    changed.write('126001', at, 'latin1');
    expect(() => readMeasurementReport(new Uint8Array(changed))).toThrow(/not a TID 1500/);
  });
});

describe('decimal strings', () => {
  it.each([2.61, 11.047084669131078, 78.27139492919331, -3.5e-7, 0.000123456789012345, 123456789.1234567, 1e21])('writes %d in 16 characters or fewer, to 1e-10', (value) => {
    const ds = decimalString(value);
    expect(ds.length).toBeLessThanOrEqual(16);
    expect(ds).toMatch(/^[-+]?[0-9.]+(e[-+]?\d+)?$/);
    expect(Math.abs(Number(ds) - value)).toBeLessThanOrEqual(Math.abs(value) * 1e-10);
  });
});

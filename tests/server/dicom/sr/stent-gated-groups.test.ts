/**
 * The SR sent to PACS carries the stent and the gated figures (issue 28) as groups of their own,
 * coded as the calcium group is (99IVUSREV where DICOM has no code): read back with dcmjs, each
 * figure is there with its unit and its frame, and dsrdump reads the report without an error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lesionResults } from '../../../../src/domain/contours/lesion-results.ts';
import { gatedAnalysis } from '../../../../src/domain/gating/gated-analysis.ts';
import { detectStent, stentFigures } from '../../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../../src/domain/stent/stent-results.ts';
import type { StentFrameReading } from '../../../../src/domain/stent/strut-detection.ts';
import { readPart10, type Naturalized } from '../../../../src/server/dicom/sr/dcmjs.ts';
import { GATED_CODES } from '../../../../src/server/dicom/sr/gated-group.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { STENT_CODES, STENT_FLAG_CODES } from '../../../../src/server/dicom/sr/stent-group.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';
import { requireTools, run, scratch } from './dcmtk.ts';
import { review, subject } from './report-fixture.ts';

const hasDcmtk = requireTools('dsrdump');
const files = scratch();
afterAll(() => files.remove());

/** 40 frames at 10 frames/mm: a stent on 10-29 narrowing at 20, malapposed over 60° on 24-27; plaque burden 55 % at 8. */
function stented() {
  const readings: StentFrameReading[] = [];
  const lumen: number[] = [];
  const vessel: number[] = [];
  for (let f = 0; f < 40; f++) {
    const inStent = f >= 10 && f < 30;
    const radius = inStent ? 1.6 - 0.3 * Math.max(0, 1 - Math.abs(f - 20) / 8) : 1.5;
    readings.push(inStent ? stentReading(radius, f >= 24 && f <= 27 ? { from: 100, to: 160, gapMm: 0.6 } : undefined, 0.2 * f) : nativeReading(radius));
    const area = Math.PI * radius * radius;
    lumen.push(area);
    vessel.push(f === 8 ? area / 0.45 : area / 0.65);
  }
  const detection = detectStent(readings, 10);
  const figures = stentFigures(detection, { frameCount: 40, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: vessel });
  return { results: stentResults(detection), figures, manualSlices: [18] };
}

/** Every content item under `node`, depth first. */
function items(node: Naturalized): Naturalized[] {
  const children = (node.ContentSequence as Naturalized[] | undefined) ?? [];
  return children.flatMap((child) => [child, ...items(child)]);
}
const conceptOf = (item: Naturalized) => (item.ConceptNameCodeSequence as Naturalized[] | undefined)?.[0];
const codeIs = (item: Naturalized, code: { value: string; scheme: string }) => conceptOf(item)?.CodeValue === code.value && conceptOf(item)?.CodingSchemeDesignator === code.scheme;
const numberOf = (item: Naturalized) => Number((item.MeasuredValueSequence as Naturalized[])[0]!.NumericValue);
const unitOf = (item: Naturalized) => ((item.MeasuredValueSequence as Naturalized[])[0]!.MeasurementUnitsCodeSequence as Naturalized[])[0]!.CodeValue;
const frameOf = (item: Naturalized) =>
  items(item)
    .filter((child) => child.ValueType === 'IMAGE')
    .map((child) => (child.ReferencedSOPSequence as Naturalized[])[0]!.ReferencedFrameNumber);

/** The measurement group whose tracking identifier is `name`. */
function group(bytes: Uint8Array, name: string): Naturalized | undefined {
  return items(readPart10(bytes)).find((item) => item.ValueType === 'CONTAINER' && items(item).some((child) => child.TextValue === name && child.RelationshipType === 'HAS OBS CONTEXT'));
}

describe('the stent and gated groups of the measurement report', () => {
  const made = review();
  const stent = stented();
  const gatedFrames = [2, 9, 16, 23, 30, 37];
  const gated = { endDiastolicFrames: gatedFrames, heartRateBpm: 71.6, results: lesionResults(gatedAnalysis(made.analysis, gatedFrames, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 })) };
  const built = buildMeasurementReport(subject(), { ...made, stent, gated });

  it('writes the stent: edges, length, MSA on its frame, both references, expansion, the malapposed region, edge plaque burden, flags, hand-corrected slices', () => {
    const found = group(built.bytes, 'Stent')!;
    expect(found).toBeDefined();
    const all = items(found);
    const one = (code: { value: string; scheme: string }) => all.find((item) => codeIs(item, code))!;
    const { results, figures } = stent;
    expect(frameOf({ ContentSequence: [one(STENT_CODES.distalEdge)] })).toEqual([results.segment!.distalSlice]);
    expect(frameOf({ ContentSequence: [one(STENT_CODES.proximalEdge)] })).toEqual([results.segment!.proximalSlice]);
    expect(numberOf(one(STENT_CODES.length))).toBeCloseTo(results.segment!.lengthMm, 6);
    expect(numberOf(one(STENT_CODES.msa))).toBeCloseTo(results.msa!.areaMm2, 6);
    expect(unitOf(one(STENT_CODES.msa))).toBe('mm2');
    expect(frameOf(one(STENT_CODES.msa))).toEqual([results.msa!.slice]);
    expect(numberOf(one(STENT_CODES.distalReference))).toBeCloseTo(figures.references.distal!.areaMm2, 6);
    expect(frameOf(one(STENT_CODES.proximalReference))).toEqual([figures.references.proximal!.frame + 1]);
    expect(numberOf(one(STENT_CODES.expansionMean))).toBeCloseTo(100 * figures.expansionMean!, 6);
    expect(numberOf(one(STENT_CODES.expansionDistal))).toBeCloseTo(100 * figures.expansionDistal!, 6);
    expect(unitOf(one(STENT_CODES.expansionDistal))).toBe('%');
    expect(results.malapposition).toHaveLength(1);
    expect(numberOf(one(STENT_CODES.malappositionArc))).toBe(results.malapposition[0]!.maxArcDeg);
    expect(frameOf(one(STENT_CODES.malappositionArc))).toEqual([results.malapposition[0]!.maxArcSlice]);
    expect(numberOf(one(STENT_CODES.malappositionLength))).toBeCloseTo(results.malapposition[0]!.lengthMm, 6);
    expect(numberOf(one(STENT_CODES.edgeBurdenDistal))).toBeCloseTo(figures.edges.distal!.maxBurdenPercent, 6);
    expect(frameOf(one(STENT_CODES.edgeBurdenDistal))).toEqual([9]);
    const flags = all.filter((item) => codeIs(item, STENT_CODES.flag)).map((item) => (item.ConceptCodeSequence as Naturalized[])[0]!.CodeValue);
    expect(figures.flags).toEqual(expect.arrayContaining(['edge-burden-distal', 'malapposition']));
    expect(flags).toEqual(figures.flags.map((flag) => STENT_FLAG_CODES[flag].value));
    expect(all.some((item) => item.TextValue === 'Lumen or vessel borders corrected by hand on slices 18: the expansion and edge figures read them.')).toBe(true);
  });

  it('writes the gated figures: frames, heart rate, MLA on its gated frame, references, the gated slices and the method', () => {
    const found = group(built.bytes, 'Gated analysis')!;
    expect(found).toBeDefined();
    const all = items(found);
    const one = (code: { value: string; scheme: string }) => all.find((item) => codeIs(item, code))!;
    expect(numberOf(one(GATED_CODES.frames))).toBe(6);
    expect(numberOf(one(GATED_CODES.heartRate))).toBe(72);
    expect(numberOf(one(GATED_CODES.mla))).toBeCloseTo(gated.results.mla!.areaMm2, 6);
    expect(gatedFrames.map((f) => f + 1)).toContain(frameOf(one(GATED_CODES.mla))[0]);
    expect(all.some((item) => item.TextValue === 'Gated slices: 3, 10, 17, 24, 31, 38')).toBe(true);
  });

  it('has neither group without a stent found or gated figures, and the rest reads back as before', () => {
    const plain = buildMeasurementReport(subject(), { ...made, stent: { ...stent, results: { ...stent.results, segment: null } } });
    expect(group(plain.bytes, 'Stent')).toBeUndefined();
    expect(group(plain.bytes, 'Gated analysis')).toBeUndefined();
    expect(readMeasurementReport(built.bytes).mla).toEqual(readMeasurementReport(plain.bytes).mla);
  });

  it.skipIf(!hasDcmtk)('is read by dsrdump without an error', async () => {
    const dump = await run('dsrdump', ['+Pt', '+Pc', '+Pu', files.file('stent-gated.dcm', built.bytes)]);
    expect(dump.code).toBe(0);
    expect(dump.stderr).toBe('');
    expect(dump.stdout).toMatch(/Minimal stent area.*\(mm2/);
    expect(dump.stdout).toMatch(/Gated minimal lumen area.*\(mm2/);
  });
});

/**
 * Reads back a measurement report written by measurement-report.ts, as a PACS returns it: only the
 * DICOM content counts (concept codes, values, SCOORDs and their IMAGE references), never item
 * order, character set or transfer syntax, which a PACS may change. Items are found by code value
 * and scheme, not by meaning, which a PACS or a later code table may reword.
 */
import type { AnnotationType } from '../../../domain/annotations/manifest.ts';
import type { MeasurementUnit } from '../../../domain/annotations/measurements.ts';
import type { Point } from '../../../domain/annotations/point.ts';
import type { BorderSource, ContourBorder } from '../../../domain/annotations/contour-set.ts';
import { readPart10, type Naturalized } from './dcmjs.ts';
import { CODES, isCode, type Code, type FrameReference } from './sr-content.ts';
import { CALCIUM_CODES } from './calcium-group.ts';

export interface ReadAnnotation {
  /** The annotation's id (the group's Tracking Identifier). */
  id: string;
  label: string;
  slice: number;
  kind: AnnotationType;
  /** The measured value; null for a text note. */
  value: number | null;
  /** As the review shows it; null for a text note. */
  unit: MeasurementUnit | null;
  /** A note's text. */
  text?: string;
  points: Point[];
  image: FrameReference;
}

export interface ReadBorder {
  border: ContourBorder;
  slice: number;
  areaMm2: number;
  /** Points of the closed polyline, the repeated first point included. */
  pointCount: number;
  source: BorderSource | null;
  /** Vessel borders only, and only where defined (not where corrected borders cross). */
  plaqueBurdenPercent: number | null;
  image: FrameReference;
}

export interface SliceArea {
  areaMm2: number;
  slice: number;
}

export interface ReadMeasurementReport {
  sopInstanceUid: string;
  observerName: string | null;
  annotations: ReadAnnotation[];
  borders: ReadBorder[];
  mla: SliceArea | null;
  references: { distal: SliceArea | null; proximal: SliceArea | null };
  stenosisPercent: number | null;
  maxPlaqueBurden: { percent: number; slice: number } | null;
  /** The calcium group (issue 28, calcium-group.ts); null where the report has none. */
  calcium: ReadCalcium | null;
}

/** The calcium group as read back: the score and its points, the figures beside it, and the slices the clinician's corrections changed (as written, e.g. "slices 11-13"). */
export interface ReadCalcium {
  score: number;
  points: { longArc: number | null; circumferential: number | null; nodule: number | null; smallVessel: number | null };
  maxArc: { arcDeg: number; slice: number } | null;
  longestMm: number | null;
  vesselDiameterMm: number | null;
  onCorrectedBorder: string | null;
  setByHand: string | null;
}

/** A sequence as a list of items, whether dcmjs gave an array or (for one item) the item. */
function items(value: unknown): Naturalized[] {
  if (Array.isArray(value)) return value as Naturalized[];
  return value && typeof value === 'object' ? [value as Naturalized] : [];
}

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const content = (item: Naturalized) => items(item.ContentSequence);
const has = (item: Naturalized, code: Code) => isCode(items(item.ConceptNameCodeSequence), code);
const child = (item: Naturalized, valueType: string, code?: Code) =>
  content(item).find((c) => c.ValueType === valueType && (code === undefined || has(c, code)));

function textOf(item: Naturalized | undefined): string | null {
  const value = item ? first(item.TextValue) : undefined;
  return typeof value === 'string' ? value : null;
}

function numberOf(item: Naturalized): { value: number; unit: string } | null {
  const measured = items(item.MeasuredValueSequence)[0];
  if (!measured) return null;
  const value = Number(first(measured.NumericValue));
  const unit = items(measured.MeasurementUnitsCodeSequence)[0]?.CodeValue;
  return Number.isFinite(value) && typeof unit === 'string' ? { value, unit } : null;
}

function imageOf(item: Naturalized | undefined): FrameReference | null {
  const reference = item ? items(item.ReferencedSOPSequence)[0] : undefined;
  if (!reference) return null;
  const frame = Number(first(reference.ReferencedFrameNumber));
  return {
    sopClassUid: String(first(reference.ReferencedSOPClassUID) ?? ''),
    sopInstanceUid: String(first(reference.ReferencedSOPInstanceUID) ?? ''),
    frame: Number.isInteger(frame) ? frame : 0,
  };
}

/** An item's SCOORD child: its points and the frame its IMAGE child selects. */
function geometryOf(item: Naturalized): { points: Point[]; image: FrameReference } | null {
  const shape = child(item, 'SCOORD');
  const where = shape ? imageOf(child(shape, 'IMAGE')) : null;
  if (!shape || !where) return null;
  const data = (Array.isArray(shape.GraphicData) ? shape.GraphicData : [shape.GraphicData]).map(Number);
  const points: Point[] = [];
  for (let i = 0; i + 1 < data.length; i += 2) points.push({ x: data[i]!, y: data[i + 1]! });
  return { points, image: where };
}

const derivation = (item: Naturalized): Code | null => {
  const modifier = child(item, 'CODE', CODES.derivation);
  const value = modifier ? items(modifier.ConceptCodeSequence) : [];
  return [CODES.minimum, CODES.maximum].find((code) => isCode(value, code)) ?? null;
};

/** The slice of a NUM INFERRED FROM an IMAGE (the analysis' figures). */
const sliceOf = (item: Naturalized) => imageOf(child(item, 'IMAGE'))?.frame ?? 0;

const DISPLAY_UNIT: Record<string, MeasurementUnit> = { mm: 'mm', mm2: 'mm²', deg: '°' };
const KINDS: [Code, AnnotationType][] = [
  [CODES.length, 'ruler'],
  [CODES.area, 'area'],
  [CODES.angle, 'angle'],
];

function readAnnotation(group: Naturalized, id: string): ReadAnnotation | null {
  const label = textOf(child(group, 'TEXT', CODES.label)) ?? '';
  const note = child(group, 'TEXT', CODES.comment);
  const noteShape = note ? geometryOf(note) : null;
  if (note && noteShape) {
    return { id, label, slice: noteShape.image.frame, kind: 'text', value: null, unit: null, text: textOf(note) ?? '', ...noteShape };
  }
  for (const [code, kind] of KINDS) {
    const measurement = child(group, 'NUM', code);
    const figure = measurement ? numberOf(measurement) : null;
    const shape = measurement ? geometryOf(measurement) : null;
    if (!figure || !shape) continue;
    return { id, label, slice: shape.image.frame, kind, value: figure.value, unit: DISPLAY_UNIT[figure.unit] ?? null, ...shape };
  }
  return null;
}

function readBorder(group: Naturalized): ReadBorder | null {
  const sourceItem = child(group, 'CODE', CODES.borderSource);
  const sourceCode = sourceItem ? items(sourceItem.ConceptCodeSequence) : [];
  const source: BorderSource | null = isCode(sourceCode, CODES.manual) ? 'manual' : isCode(sourceCode, CODES.automatic) ? 'auto' : isCode(sourceCode, CODES.propagated) ? 'propagated' : null;
  for (const [code, border] of [
    [CODES.lumenArea, 'lumen'],
    [CODES.vesselArea, 'vessel'],
  ] as const) {
    const measurement = child(group, 'NUM', code);
    const figure = measurement ? numberOf(measurement) : null;
    const shape = measurement ? geometryOf(measurement) : null;
    if (!figure || !shape) continue;
    const burden = child(group, 'NUM', CODES.plaqueBurden);
    const plaqueBurdenPercent = burden ? (numberOf(burden)?.value ?? null) : null;
    return { border, slice: shape.image.frame, areaMm2: figure.value, pointCount: shape.points.length, source, plaqueBurdenPercent, image: shape.image };
  }
  return null;
}

/** The figures of an SR made by buildMeasurementReport. Throws for a file that is not such a report. */
export function readMeasurementReport(bytes: Uint8Array): ReadMeasurementReport {
  const dataset = readPart10(bytes);
  if (dataset.ValueType !== 'CONTAINER' || !has(dataset, CODES.report)) throw new Error('not a TID 1500 Imaging Measurement Report');
  const measurements = child(dataset, 'CONTAINER', CODES.imagingMeasurements);
  const report: ReadMeasurementReport = {
    sopInstanceUid: String(first(dataset.SOPInstanceUID) ?? ''),
    observerName: null,
    annotations: [],
    borders: [],
    mla: null,
    references: { distal: null, proximal: null },
    stenosisPercent: null,
    maxPlaqueBurden: null,
    calcium: null,
  };
  const observer = child(dataset, 'PNAME', CODES.personObserverName);
  const name = observer ? first(observer.PersonName) : undefined;
  // dcmjs naturalizes PN as { Alphabetic: ... }.
  report.observerName = typeof name === 'string' ? name : ((name as { Alphabetic?: string } | undefined)?.Alphabetic ?? null);
  for (const group of measurements ? content(measurements) : []) {
    if (!has(group, CODES.measurementGroup)) continue;
    const id = textOf(child(group, 'TEXT', CODES.trackingIdentifier)) ?? '';
    const annotation = readAnnotation(group, id);
    if (annotation) {
      report.annotations.push(annotation);
      continue;
    }
    const border = readBorder(group);
    if (border) {
      report.borders.push(border);
      continue;
    }
    const calcium = readCalcium(group);
    if (calcium) {
      report.calcium = calcium;
      continue;
    }
    readAnalysis(group, report);
  }
  return report;
}

/** The calcium group's figures, or null for another group (the score's NUM is what makes it one). */
function readCalcium(group: Naturalized): ReadCalcium | null {
  const valueOf = (code: Code): number | null => {
    const item = child(group, 'NUM', code);
    return item ? (numberOf(item)?.value ?? null) : null;
  };
  const score = valueOf(CALCIUM_CODES.score);
  if (score === null) return null;
  const maxArcItem = child(group, 'NUM', CALCIUM_CODES.maxArc);
  const maxArcDeg = maxArcItem ? (numberOf(maxArcItem)?.value ?? null) : null;
  return {
    score,
    points: { longArc: valueOf(CALCIUM_CODES.longArc), circumferential: valueOf(CALCIUM_CODES.circumferential), nodule: valueOf(CALCIUM_CODES.nodule), smallVessel: valueOf(CALCIUM_CODES.smallVessel) },
    maxArc: maxArcItem && maxArcDeg !== null ? { arcDeg: maxArcDeg, slice: sliceOf(maxArcItem) } : null,
    longestMm: valueOf(CALCIUM_CODES.longest),
    vesselDiameterMm: valueOf(CALCIUM_CODES.vesselDiameter),
    onCorrectedBorder: textOf(child(group, 'TEXT', CALCIUM_CODES.onCorrectedBorder)),
    setByHand: textOf(child(group, 'TEXT', CALCIUM_CODES.setByHand)),
  };
}

/** The pullback analysis group's figures, into `report`. */
function readAnalysis(group: Naturalized, report: ReadMeasurementReport): void {
  for (const item of content(group)) {
    if (item.ValueType !== 'NUM') continue;
    const figure = numberOf(item);
    if (!figure) continue;
    const atSlice = { areaMm2: figure.value, slice: sliceOf(item) };
    if (has(item, CODES.lumenArea) && derivation(item) === CODES.minimum) report.mla = atSlice;
    else if (has(item, CODES.distalReference)) report.references.distal = atSlice;
    else if (has(item, CODES.proximalReference)) report.references.proximal = atSlice;
    else if (has(item, CODES.areaStenosis)) report.stenosisPercent = figure.value;
    else if (has(item, CODES.plaqueBurden) && derivation(item) === CODES.maximum) report.maxPlaqueBurden = { percent: figure.value, slice: sliceOf(item) };
  }
}

/**
 * SR content items as dcmjs naturalized datasets (PS3.3 C.17.3): one builder per value type the
 * measurement report uses, the codes it uses, and DS formatting. Every builder returns a plain
 * object; children go in `ContentSequence`, each child carrying its RelationshipType to the parent.
 */
import type { Point } from '../../../domain/annotations/point.ts';
import type { Naturalized } from './dcmjs.ts';

export interface Code {
  readonly value: string;
  readonly scheme: string;
  readonly meaning: string;
}

export type Relationship = 'CONTAINS' | 'HAS OBS CONTEXT' | 'HAS CONCEPT MOD' | 'HAS PROPERTIES' | 'INFERRED FROM' | 'SELECTED FROM';

/** Our private coding scheme (PS3.16 8.2: a "99" prefix is a private scheme); declared in the file. */
export const PRIVATE_SCHEME = '99IVUSREV';

const code = (value: string, scheme: string, meaning: string): Code => ({ value, scheme, meaning });

/** Every code the report writes; the reader finds items by these. See measurement-report.ts for the table. */
export const CODES = {
  report: code('126000', 'DCM', 'Imaging Measurement Report'),
  language: code('121049', 'DCM', 'Language of Content Item and Descendants'),
  english: code('en', 'RFC5646', 'English'),
  observerType: code('121005', 'DCM', 'Observer Type'),
  person: code('121006', 'DCM', 'Person'),
  personObserverName: code('121008', 'DCM', 'Person Observer Name'),
  procedureReported: code('121058', 'DCM', 'Procedure reported'),
  ivus: code('IVUS', 'DCM', 'Intravascular Ultrasound'),
  imageLibrary: code('111028', 'DCM', 'Image Library'),
  imageLibraryGroup: code('126200', 'DCM', 'Image Library Group'),
  imagingMeasurements: code('126010', 'DCM', 'Imaging Measurements'),
  measurementGroup: code('125007', 'DCM', 'Measurement Group'),
  trackingIdentifier: code('112039', 'DCM', 'Tracking Identifier'),
  trackingUid: code('112040', 'DCM', 'Tracking Unique Identifier'),
  derivation: code('121401', 'DCM', 'Derivation'),
  minimum: code('255605001', 'SCT', 'Minimum'),
  maximum: code('56851009', 'SCT', 'Maximum'),
  length: code('410668003', 'SCT', 'Length'),
  area: code('42798000', 'SCT', 'Area'),
  comment: code('121106', 'DCM', 'Comment'),
  lumenArea: code('397415007', 'SCT', 'Vessel lumen cross-sectional area'),
  vesselArea: code('122333', 'DCM', 'EEM Cross-Sectional Area'),
  plaqueArea: code('122334', 'DCM', 'Plaque plus Media Cross-Sectional Area'),
  angle: code('ANGLE', PRIVATE_SCHEME, 'Angle'),
  label: code('LABEL', PRIVATE_SCHEME, 'Annotation label'),
  plaqueBurden: code('PLAQUEBURDEN', PRIVATE_SCHEME, 'Plaque burden'),
  distalReference: code('DISTALREFAREA', PRIVATE_SCHEME, 'Distal reference lumen area'),
  proximalReference: code('PROXREFAREA', PRIVATE_SCHEME, 'Proximal reference lumen area'),
  areaStenosis: code('AREASTENOSIS', PRIVATE_SCHEME, 'Lumen area stenosis'),
  borderSource: code('BORDERSOURCE', PRIVATE_SCHEME, 'Border source'),
  automatic: code('AUTO', PRIVATE_SCHEME, 'Automatic detection'),
  manual: code('MANUAL', PRIVATE_SCHEME, 'Manual correction'),
  /** A border carried from a key frame's correction onto a neighbouring slice (border-propagation.ts). */
  propagated: code('PROPAGATED', PRIVATE_SCHEME, 'Propagated from a manual correction'),
} as const;

/** UCUM units (PS3.16 CID 7181 meanings). */
export const UNITS = {
  mm: code('mm', 'UCUM', 'millimeter'),
  mm2: code('mm2', 'UCUM', 'square millimeter'),
  deg: code('deg', 'UCUM', 'degree'),
  percent: code('%', 'UCUM', 'percent'),
} as const;

export function codeItem(c: Code): Naturalized {
  return { CodeValue: c.value, CodingSchemeDesignator: c.scheme, CodeMeaning: c.meaning };
}

/** Whether a naturalized code sequence holds `c` (value and scheme; the meaning may be reworded by a PACS). */
export function isCode(sequence: unknown, c: Code): boolean {
  const first = Array.isArray(sequence) ? (sequence[0] as Naturalized | undefined) : undefined;
  return first?.CodeValue === c.value && first.CodingSchemeDesignator === c.scheme;
}

/**
 * A number as a DS value: at most 16 characters (PS3.5 6.2), with as many significant digits as fit,
 * trailing zeros dropped. Values written here are areas, lengths, angles and percentages far from
 * the limits, so 10 or more significant digits always fit: a relative error under 1e-9.
 */
export function decimalString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const plain = String(value);
  if (plain.length <= 16 && !plain.includes('e')) return plain;
  for (let digits = 15; digits > 0; digits--) {
    const text = Number(value.toPrecision(digits)).toString();
    if (text.length <= 16) return text;
  }
  return value.toExponential(8);
}

const item = (relationship: Relationship | null, valueType: string, concept: Code | null, rest: Naturalized): Naturalized => ({
  ...(relationship ? { RelationshipType: relationship } : {}),
  ValueType: valueType,
  ...(concept ? { ConceptNameCodeSequence: [codeItem(concept)] } : {}),
  ...rest,
});

const children = (list: readonly Naturalized[]): Naturalized => (list.length > 0 ? { ContentSequence: [...list] } : {});

export function container(relationship: Relationship | null, concept: Code, content: readonly Naturalized[], extra: Naturalized = {}): Naturalized {
  return item(relationship, 'CONTAINER', concept, { ContinuityOfContent: 'SEPARATE', ...extra, ...children(content) });
}

export function num(relationship: Relationship, concept: Code, value: number, unit: Code, content: readonly Naturalized[] = []): Naturalized {
  return item(relationship, 'NUM', concept, {
    MeasuredValueSequence: [{ NumericValue: decimalString(value), MeasurementUnitsCodeSequence: [codeItem(unit)] }],
    ...children(content),
  });
}

export function text(relationship: Relationship, concept: Code, value: string, content: readonly Naturalized[] = []): Naturalized {
  return item(relationship, 'TEXT', concept, { TextValue: value, ...children(content) });
}

export function codeValue(relationship: Relationship, concept: Code, value: Code, content: readonly Naturalized[] = []): Naturalized {
  return item(relationship, 'CODE', concept, { ConceptCodeSequence: [codeItem(value)], ...children(content) });
}

export function uidRef(relationship: Relationship, concept: Code, uid: string): Naturalized {
  return item(relationship, 'UIDREF', concept, { UID: uid });
}

export function personName(relationship: Relationship, concept: Code, name: string): Naturalized {
  return item(relationship, 'PNAME', concept, { PersonName: name });
}

/** The frame of the pullback an item points at. */
export interface FrameReference {
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  /** 1-based frame number: frame k of the pullback is slice k. */
  readonly frame: number;
}

/** An IMAGE item; without a frame it references the whole instance (the image library). */
export function image(relationship: Relationship, reference: Omit<FrameReference, 'frame'> & { frame?: number }): Naturalized {
  return item(relationship, 'IMAGE', null, {
    ReferencedSOPSequence: [
      {
        ReferencedSOPClassUID: reference.sopClassUid,
        ReferencedSOPInstanceUID: reference.sopInstanceUid,
        ...(reference.frame === undefined ? {} : { ReferencedFrameNumber: reference.frame }),
      },
    ],
  });
}

/**
 * A 2D SCOORD (unnamed, as TID 320 has it under INFERRED FROM) on one frame: its IMAGE child says
 * which. Image pixels map to DICOM's image coordinates unchanged: both put (0, 0) at the top-left
 * corner of the top-left pixel, x right and y down, so a pixel's centre is (col + 0.5, row + 0.5)
 * in both (PS3.3 C.18.6.1.2; domain/image-point.ts).
 */
export function scoord(relationship: Relationship, graphicType: 'POINT' | 'POLYLINE', points: readonly Point[], frame: FrameReference): Naturalized {
  return item(relationship, 'SCOORD', null, {
    GraphicType: graphicType,
    GraphicData: points.flatMap((p) => [p.x, p.y]),
    ContentSequence: [image('SELECTED FROM', frame)],
  });
}

/** A closed POLYLINE's points: the first point repeated at the end (PS3.3 C.18.6.1.1). */
export function closed(points: readonly Point[]): Point[] {
  const first = points[0];
  return first ? [...points, first] : [];
}

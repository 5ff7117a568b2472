/**
 * The review's measurements as a DICOM Comprehensive 3D SR (1.2.840.10008.5.1.4.1.1.88.34, the class TID 1500
 * reports are usually written in; our SCOORDs are 2D) following TID 1500 "Measurement Report", for "Send to PACS" (issue 17):
 *
 *   CONTAINER (126000, DCM, "Imaging Measurement Report")                 root, TID 1500
 *     HAS CONCEPT MOD  CODE (121049, DCM) Language = (en, RFC5646, "English")
 *     HAS OBS CONTEXT  CODE (121005, DCM) Observer Type = (121006, DCM, "Person")
 *     HAS OBS CONTEXT  PNAME (121008, DCM) Person Observer Name = the clinician
 *     HAS CONCEPT MOD  CODE (121058, DCM) Procedure reported = (IVUS, DCM, "Intravascular Ultrasound")
 *     CONTAINS CONTAINER (111028, DCM) Image Library > (126200, DCM) Group > IMAGE the pullback
 *     CONTAINS CONTAINER (126010, DCM, "Imaging Measurements")
 *       CONTAINER (125007, DCM, "Measurement Group")  one per annotation (TID 1501):
 *         Tracking Identifier (112039) = the annotation's id, Tracking UID (112040)
 *         TEXT  Annotation label = "A"
 *         NUM Length | Area | Angle  (or TEXT Comment for a note)
 *           INFERRED FROM SCOORD POLYLINE (ruler: 2 points; area: closed curve; angle: arm end,
 *             vertex, arm end) or POINT (note) > SELECTED FROM IMAGE (pullback, frame = slice)
 *       CONTAINER (125007) one per slice and border: Tracking Identifier "Slice 12 lumen border",
 *         CODE Border source = automatic | manual | propagated, NUM lumen or EEM area INFERRED FROM the closed
 *         SCOORD POLYLINE of the drawn border on its frame; the vessel group adds plaque plus media
 *         area and plaque burden where defined (not where corrected borders cross).
 *       CONTAINER (125007) "Pullback analysis": NUM lumen area with Derivation = Minimum (the MLA),
 *         distal and proximal reference lumen areas, area stenosis, plaque burden with Derivation =
 *         Maximum; each but the stenosis INFERRED FROM the IMAGE frame of its slice.
 *
 * Slices are 1-based and frame k of the multi-frame pullback is slice k, so ReferencedFrameNumber
 * is the slice. Coordinates are image pixels, which DICOM's image coordinates equal (sr-content.ts).
 * The numbers are the review's: measureAnnotation for annotations (2 decimals, whole degrees), the
 * corrected analysis for borders (unrounded, written with up to 16 characters: decimalString).
 *
 * Codes (PS3.16 where one exists; 99IVUSREV is our private scheme, declared in the file):
 *
 * | concept                         | code                                                    | unit |
 * |---------------------------------|---------------------------------------------------------|------|
 * | ruler length                    | (410668003, SCT, "Length")                              | mm   |
 * | area annotation                 | (42798000, SCT, "Area")                                 | mm2  |
 * | angle                           | (ANGLE, 99IVUSREV, "Angle")  (CID 7550 has Cobb only)   | deg  |
 * | text note                       | (121106, DCM, "Comment")                                |      |
 * | annotation label                | (LABEL, 99IVUSREV, "Annotation label")                  |      |
 * | lumen area (border, MLA)        | (397415007, SCT, "Vessel lumen cross-sectional area")   | mm2  |
 * | vessel (EEM) area               | (122333, DCM, "EEM Cross-Sectional Area")               | mm2  |
 * | plaque plus media area          | (122334, DCM, "Plaque plus Media Cross-Sectional Area") | mm2  |
 * | plaque burden                   | (PLAQUEBURDEN, 99IVUSREV, "Plaque burden")              | %    |
 * | MLA / maximal plaque burden     | Derivation (121401, DCM) = (255605001 / 56851009, SCT, "Minimum" / "Maximum") | |
 * | distal reference lumen area     | (DISTALREFAREA, 99IVUSREV, "Distal reference lumen area")   | mm2 |
 * | proximal reference lumen area   | (PROXREFAREA, 99IVUSREV, "Proximal reference lumen area")   | mm2 |
 * | area stenosis                   | (AREASTENOSIS, 99IVUSREV, "Lumen area stenosis")        | %    |
 * | border source                   | (BORDERSOURCE, 99IVUSREV) = (AUTO / MANUAL / PROPAGATED, 99IVUSREV) | |
 *
 * The calcium, stent and gated groups (issue 28) have their own tables: calcium-group.ts,
 * stent-group.ts, gated-group.ts.
 *
 * Units are UCUM: (mm, UCUM, "millimeter"), (mm2, ..., "square millimeter"), (deg, ..., "degree"),
 * (%, ..., "percent").
 */
import { smoothClosedCurve } from '../../../domain/annotations/curves.ts';
import { allAnnotations } from '../../../domain/annotations/edits.ts';
import { measureAnnotation } from '../../../domain/annotations/kinds/index.ts';
import type { AnnotationManifest, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import type { Point } from '../../../domain/annotations/point.ts';
import type { BorderSource } from '../../../domain/annotations/contour-set.ts';
import type { CorrectedAnalysis, SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { measuredOutline } from '../../../domain/contours/measurements.ts';
import { newUid, writePart10, type Naturalized } from './dcmjs.ts';
import type { RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import { calciumGroup } from './calcium-group.ts';
import { gatedGroup, type GatedContent } from './gated-group.ts';
import { stentGroup, type StentContent } from './stent-group.ts';
import { documentAttributes, dicomPersonName, withCharacterSet, type BuiltDicomObject, type ReportSubject } from './document.ts';
import {
  closed,
  CODES,
  codeValue,
  container,
  image,
  num,
  personName,
  PRIVATE_SCHEME,
  scoord,
  text,
  uidRef,
  UNITS,
  type Code,
  type FrameReference,
} from './sr-content.ts';

export type { BuiltDicomObject, ReportSubject } from './document.ts';

/** Comprehensive 3D SR: the SOP class TID 1500 measurement reports are usually written in (its 2D SCOORDs are what we draw). */
export const COMPREHENSIVE_3D_SR = '1.2.840.10008.5.1.4.1.1.88.34';
/** Series numbers of what "Send to PACS" adds to the study, far above the acquisition's own series. */
export const MEASUREMENT_REPORT_SERIES_NUMBER = 9901;

export interface MeasurementReportContent {
  manifest: AnnotationManifest;
  analysis: CorrectedAnalysis;
  /** Millimetres per image pixel: what measureAnnotation needs for lengths and areas. */
  pixelSpacingMm: number;
  /** The record's calcium (issue 28), written as a group of its own; absent: none. */
  calcium?: RecordCalcium | undefined;
  /** The stent the server's detection read (issue 28), with its figures on the corrected borders; absent or no segment: no group. */
  stent?: StentContent | undefined;
  /** The gated figures (issue 28) when the clinician sent with gating on and the frames showed cardiac cycles. */
  gated?: GatedContent | undefined;
}

const UNIT_OF = { mm: UNITS.mm, 'mm²': UNITS.mm2, '°': UNITS.deg } as const;
const CONCEPT_OF = { ruler: CODES.length, area: CODES.area, angle: CODES.angle } as const;

/** The geometry of an annotation as drawn, and the SCOORD graphic type it is written as. */
function geometry(annotation: TypedAnnotation): { type: 'POINT' | 'POLYLINE'; points: Point[] } {
  switch (annotation.type) {
    case 'ruler':
      return { type: 'POLYLINE', points: [{ x: annotation.startX, y: annotation.startY }, { x: annotation.endX, y: annotation.endY }] };
    case 'area':
      // The smooth curve through the control points: what is drawn and what areaMm2 measures.
      return { type: 'POLYLINE', points: closed(smoothClosedCurve(annotation.controlPoints)) };
    case 'angle':
      return { type: 'POLYLINE', points: [annotation.angle.startControl, annotation.angle.origin, annotation.angle.endControl] };
    case 'text':
      return { type: 'POINT', points: [annotation.origin] };
  }
}

function trackedGroup(trackingIdentifier: string, content: readonly Naturalized[]): Naturalized {
  return container('CONTAINS', CODES.measurementGroup, [
    text('HAS OBS CONTEXT', CODES.trackingIdentifier, trackingIdentifier),
    uidRef('HAS OBS CONTEXT', CODES.trackingUid, newUid()),
    ...content,
  ]);
}

/**
 * One annotation's measurement group, or null for one without any point (an area with no control
 * points), which has no geometry to place on a frame.
 */
function annotationGroup(annotation: TypedAnnotation, pixelSpacingMm: number, frameOf: (slice: number) => FrameReference): Naturalized | null {
  const shape = geometry(annotation);
  if (shape.points.length === 0) return null;
  // A POLYLINE needs two points; a curve of one control point is that point.
  const where = scoord('INFERRED FROM', shape.points.length === 1 ? 'POINT' : shape.type, shape.points, frameOf(annotation.slice));
  const label = text('CONTAINS', CODES.label, annotation.label);
  if (annotation.type === 'text') {
    // TEXT is type 1: an empty note is written so, rather than as an empty value.
    return trackedGroup(annotation.id, [label, text('CONTAINS', CODES.comment, annotation.text === '' ? '(empty note)' : annotation.text, [where])]);
  }
  const measured = measureAnnotation(annotation, pixelSpacingMm);
  if (!measured) return null;
  return trackedGroup(annotation.id, [label, num('CONTAINS', CONCEPT_OF[annotation.type], Number(measured.value), UNIT_OF[measured.unit], [where])]);
}

const SOURCE_CODES = { auto: CODES.automatic, manual: CODES.manual, propagated: CODES.propagated } as const;
const sourceItem = (source: BorderSource) => codeValue('CONTAINS', CODES.borderSource, SOURCE_CODES[source]);

/**
 * The lumen and vessel groups of one slice. A border the slice has not got (the detector could not
 * read the frame and nobody drew one, issue 23) or with under 3 control points is left out: there is
 * nothing to place or measure.
 */
function borderGroups(slice: SliceMeasurement, frame: FrameReference): Naturalized[] {
  const outline = (controlPoints: readonly Point[]) => scoord('INFERRED FROM', 'POLYLINE', closed(measuredOutline(controlPoints)), frame);
  const groups: Naturalized[] = [];
  if (slice.source !== null && slice.areaMm2 !== null && slice.controlPoints.length >= 3) {
    groups.push(
      trackedGroup(`Slice ${slice.slice} lumen border`, [sourceItem(slice.source), num('CONTAINS', CODES.lumenArea, slice.areaMm2, UNITS.mm2, [outline(slice.controlPoints)])]),
    );
  }
  const { vessel } = slice;
  if (vessel !== null && vessel.controlPoints.length >= 3) {
    // Crossing corrected borders enclose no plaque that could be measured (corrected-analysis.ts), nor does a vessel without a lumen.
    const plaque =
      slice.bordersCross || slice.plaqueAreaMm2 === null || slice.plaqueBurden === null
        ? []
      : [num('CONTAINS', CODES.plaqueArea, slice.plaqueAreaMm2, UNITS.mm2), num('CONTAINS', CODES.plaqueBurden, 100 * slice.plaqueBurden, UNITS.percent)];
    groups.push(
      trackedGroup(`Slice ${slice.slice} vessel border`, [
        sourceItem(vessel.source),
        num('CONTAINS', CODES.vesselArea, vessel.areaMm2, UNITS.mm2, [outline(vessel.controlPoints)]),
        ...plaque,
      ]),
    );
  }
  return groups;
}

/** The MLA, references, stenosis and maximal plaque burden; null when the pullback has none of them. */
function analysisGroup(result: CorrectedAnalysis, frameOf: (slice: number) => FrameReference): Naturalized | null {
  const { slices, analysis, maxPlaqueBurden } = result;
  // Indices are into `slices`; the slice number is the slice's own.
  const sliceAt = (index: number) => slices[index]?.slice ?? index + 1;
  const onFrame = (index: number) => [image('INFERRED FROM', frameOf(sliceAt(index)))];
  const derived = (derivation: Code) => codeValue('HAS CONCEPT MOD', CODES.derivation, derivation);
  const items: Naturalized[] = [];
  if (analysis.mla) items.push(num('CONTAINS', CODES.lumenArea, analysis.mla.areaMm2, UNITS.mm2, [derived(CODES.minimum), ...onFrame(analysis.mla.index)]));
  const { distal, proximal } = analysis.references;
  if (distal) items.push(num('CONTAINS', CODES.distalReference, distal.areaMm2, UNITS.mm2, onFrame(distal.index)));
  if (proximal) items.push(num('CONTAINS', CODES.proximalReference, proximal.areaMm2, UNITS.mm2, onFrame(proximal.index)));
  if (analysis.stenosisPercent !== null) items.push(num('CONTAINS', CODES.areaStenosis, analysis.stenosisPercent, UNITS.percent));
  if (maxPlaqueBurden) {
    items.push(num('CONTAINS', CODES.plaqueBurden, 100 * maxPlaqueBurden.plaqueBurden, UNITS.percent, [derived(CODES.maximum), ...onFrame(maxPlaqueBurden.index)]));
  }
  return items.length > 0 ? trackedGroup('Pullback analysis', items) : null;
}

/** The root container's content (TID 1500). */
function reportContent(subject: ReportSubject, content: MeasurementReportContent): Naturalized[] {
  const { pullback } = subject;
  const frameOf = (slice: number): FrameReference => ({ sopClassUid: pullback.sopClassUid, sopInstanceUid: pullback.sopInstanceUid, frame: slice });
  const annotations = allAnnotations(content.manifest)
    .sort((a, b) => a.slice - b.slice || a.label.localeCompare(b.label))
    .map((annotation) => annotationGroup(annotation, content.pixelSpacingMm, frameOf))
    .filter((group) => group !== null);
  const borders = content.analysis.slices.flatMap((slice) => borderGroups(slice, frameOf(slice.slice)));
  const summary = analysisGroup(content.analysis, frameOf);
  const calcium = content.calcium ? calciumGroup(content.calcium, frameOf) : null;
  const stent = content.stent ? stentGroup(content.stent, frameOf) : null;
  const gated = content.gated ? gatedGroup(content.gated, frameOf) : null;
  return [
    codeValue('HAS CONCEPT MOD', CODES.language, CODES.english),
    codeValue('HAS OBS CONTEXT', CODES.observerType, CODES.person),
    personName('HAS OBS CONTEXT', CODES.personObserverName, dicomPersonName(subject.author.name)),
    codeValue('HAS CONCEPT MOD', CODES.procedureReported, CODES.ivus),
    container('CONTAINS', CODES.imageLibrary, [container('CONTAINS', CODES.imageLibraryGroup, [image('CONTAINS', pullback)])]),
    container('CONTAINS', CODES.imagingMeasurements, [...annotations, ...borders, ...(summary ? [summary] : []), ...(calcium ? [calcium] : []), ...(stent ? [stent] : []), ...(gated ? [gated] : [])]),
  ];
}

/** The measurement report of a review as a Part 10 file, in a new series of the pullback's study. */
export function buildMeasurementReport(subject: ReportSubject, content: MeasurementReportContent): BuiltDicomObject {
  const sopInstanceUid = newUid();
  const seriesInstanceUid = newUid();
  const { pullback } = subject;
  const dataset: Naturalized = {
    ...documentAttributes(subject, {
      sopClassUid: COMPREHENSIVE_3D_SR,
      sopInstanceUid,
      seriesInstanceUid,
      modality: 'SR',
      seriesNumber: MEASUREMENT_REPORT_SERIES_NUMBER,
      seriesDescription: 'IVUS Review measurements',
    }),
    ReferencedPerformedProcedureStepSequence: [],
    CodingSchemeIdentificationSequence: [
      { CodingSchemeDesignator: PRIVATE_SCHEME, CodingSchemeName: 'IVUS Review measurement codes', CodingSchemeResponsibleOrganization: 'IVUS Review' },
    ],
    CompletionFlag: 'COMPLETE',
    // Signed off by the clinician in the review, but not verified in the DICOM sense (no Verifying Observer).
    VerificationFlag: 'UNVERIFIED',
    PerformedProcedureCodeSequence: [],
    // The instances the report rests on (type 1C: required as the content references them).
    CurrentRequestedProcedureEvidenceSequence: [
      {
        StudyInstanceUID: subject.study.studyInstanceUid,
        ReferencedSeriesSequence: [
          {
            SeriesInstanceUID: pullback.seriesInstanceUid,
            ReferencedSOPSequence: [{ ReferencedSOPClassUID: pullback.sopClassUid, ReferencedSOPInstanceUID: pullback.sopInstanceUid }],
          },
        ],
      },
    ],
    ...container(null, CODES.report, reportContent(subject, content), {
      ContentTemplateSequence: [{ MappingResource: 'DCMR', TemplateIdentifier: '1500' }],
    }),
  };
  return { bytes: writePart10(withCharacterSet(dataset)), sopInstanceUid, seriesInstanceUid };
}

/**
 * A realistic review to report on: a 40-slice pullback with a narrowing lumen, a ruler, an area, an
 * angle and a note on different slices, and a clinician's lumen correction that makes slice 18 the
 * MLA. Plus the subject (patient, study, pullback, clinician) the report is about.
 */
import { newAngle, newArea, newRuler, newText } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { setManualContour } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, type AnnotationManifest, type Point } from '../../../../src/domain/annotations/manifest.ts';
import type { DetectedContour, RecordContours } from '../../../../src/domain/contours/api.ts';
import { correctedAnalysis, type CorrectedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { lumenAreaMm2, measureContour, plaqueOf } from '../../../../src/domain/contours/measurements.ts';
import type { ReportSubject } from '../../../../src/server/dicom/sr/measurement-report.ts';

export const PIXEL_SPACING_MM = 0.0125;
export const SLICE_COUNT = 40;
export const MLA_SLICE = 18;
export const PULLBACK = {
  sopClassUid: '1.2.840.10008.5.1.4.1.1.3.1',
  sopInstanceUid: '1.2.826.0.1.3680043.8.498.11111111111111111111',
  seriesInstanceUid: '1.2.826.0.1.3680043.8.498.22222222222222222222',
};

/** `count` control points round (256.5, 250.25), the radius waving by `wobble`. */
export function ring(radius: number, count = 16, wobble = 0): Point[] {
  return Array.from({ length: count }, (_, i) => {
    const t = (i / count) * 2 * Math.PI;
    const r = radius * (1 + wobble * Math.sin(3 * t));
    return { x: 256.5 + r * Math.cos(t), y: 250.25 + r * Math.sin(t) };
  });
}

/** `unreadable` slices have no border, as the server sends a frame the detector could not read. */
export function detected(sliceCount: number, unreadable: readonly number[] = []): RecordContours {
  const contours = Array.from({ length: sliceCount }, (_, i): DetectedContour => {
    if (unreadable.includes(i + 1)) return { slice: i + 1, noBorder: true, confidence: 0.1 };
    const lumen = ring(150 - 40 * Math.exp(-(((i + 1 - 20) / 6) ** 2)), 16, 0.05);
    const vessel = ring(210, 16, 0.02);
    const measured = measureContour(lumen, PIXEL_SPACING_MM);
    const vesselArea = lumenAreaMm2(vessel, PIXEL_SPACING_MM);
    return {
      slice: i + 1,
      controlPoints: lumen,
      ...measured,
      eccentricity: (measured.maxDiameterMm - measured.minDiameterMm) / measured.maxDiameterMm,
      vessel: { controlPoints: vessel, areaMm2: vesselArea },
      ...plaqueOf(measured.areaMm2, vesselArea),
      confidence: i === 30 ? 0.3 : 0.9,
    };
  });
  return {
    version: 'v1',
    frameCount: sliceCount,
    pixelSpacingMm: PIXEL_SPACING_MM,
    contours,
    mla: null,
    references: { proximal: null, distal: null },
    stenosisPercent: null,
    maxPlaqueBurden: null,
    lowConfidenceSlices: contours.filter((c) => c.confidence < 0.5).map((c) => c.slice),
  };
}

export interface Review {
  manifest: AnnotationManifest;
  analysis: CorrectedAnalysis;
  pixelSpacingMm: number;
}

/**
 * The review; `note` is the text note's text (ASCII by default: dcmtk's VR checker warns on any
 * UTF-8 dataset); `unreadable` slices got no border from the detector.
 */
export function review(note = 'Calcified nodule at 9 o\'clock', sliceCount = SLICE_COUNT, unreadable: readonly number[] = []): Review {
  let manifest = emptyManifest();
  manifest = addAnnotation(manifest, newRuler(manifest, 3, { x: 100.5, y: 120.25 }, { x: 300.75, y: 180 }));
  manifest = addAnnotation(manifest, newArea(manifest, 7, ring(60, 48, 0.1).map((p) => ({ x: p.x + 20, y: p.y - 10 }))));
  manifest = addAnnotation(manifest, newAngle(manifest, 12, { x: 256, y: 256 }, 80));
  manifest = addAnnotation(manifest, { ...newText(manifest, 25, { x: 40.5, y: 60.5 }), text: note });
  // The clinician narrows the lumen on slice 18 by hand: it becomes the MLA.
  manifest = setManualContour(manifest, MLA_SLICE, ring(70, 12));
  const analysis = correctedAnalysis(detected(sliceCount, unreadable), manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
  return { manifest, analysis, pixelSpacingMm: PIXEL_SPACING_MM };
}

export function subject(patientName = 'Brown, Tomasz'): ReportSubject {
  return {
    patient: { patientId: 'DEM-001', name: patientName, birthDate: '1961-04-09', sex: 'M' },
    study: { studyInstanceUid: '1.2.826.0.1.3680043.8.498.33333333333333333333' },
    pullback: PULLBACK,
    author: { name: 'Okafor, Ada', email: 'ada.okafor@example.org' },
    madeAt: new Date('2026-05-04T09:08:07Z'),
    recordId: 'rec-123',
  };
}

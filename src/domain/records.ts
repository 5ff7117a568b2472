import { z } from 'zod';
import { PatientSummarySchema } from './patients.ts';

export const ANNOTATION_STATUSES = ['new', 'saved'] as const;

/** Where a record's annotations stand; null on a record nobody has annotated yet. */
export const AnnotationStateSchema = z.object({
  status: z.enum(ANNOTATION_STATUSES),
  savedBy: z.string().nullable(),
  savedAt: z.string().nullable(),
});
export type AnnotationState = z.infer<typeof AnnotationStateSchema>;

/**
 * Facts an imported file did not give. The record then holds a stand-in (the import's time, 30
 * frames/s, 0.01 mm per pixel, 0.5 mm/s) that the review and the report show as "unknown" (the
 * date) or "assumed" (the figures), never as read from the file.
 */
export const ACQUISITION_FACTS = ['acquiredAt', 'frameRate', 'pixelSpacing', 'pullbackSpeed'] as const;
export type AcquisitionFact = (typeof ACQUISITION_FACTS)[number];

export const IMAGING_KINDS = ['ivus', 'other-ultrasound'] as const;
export type ImagingKind = (typeof IMAGING_KINDS)[number];

/** What a record of other ultrasound is called wherever it is shown. */
export const OTHER_ULTRASOUND_LABEL = 'Other ultrasound (not IVUS): view only';

export const RecordSummarySchema = z.object({
  recordId: z.string(),
  patientId: z.string(),
  /** ISO timestamp of the acquisition. */
  acquiredAt: z.string(),
  modality: z.string(),
  bmodeFrameCount: z.number().int().nonnegative(),
  angioFrameCount: z.number().int().nonnegative(),
  /** API paths (relative to the tenant's API root) of the preview images; null until generated. */
  angioPreview: z.string().nullable(),
  bmodePreview: z.string().nullable(),
  annotation: AnnotationStateSchema.nullable(),
  /** B-mode frame size and pixel spacing: annotations are placed and measured with them even when no frame is loaded (noImage=true). */
  frameWidth: z.number().int().positive().optional(),
  frameHeight: z.number().int().positive().optional(),
  pixelSpacingMm: z.number().positive().optional(),
  frameRateHz: z.number().positive().optional(),
  pullbackSpeedMmPerS: z.number().positive().optional(),
  /** What the files did not give (see ACQUISITION_FACTS); absent or empty when everything is known. A record with bmodeFrameCount 0 is an angiography run waiting for its pullback. */
  assumed: z.array(z.enum(ACQUISITION_FACTS)).optional(),
  /** The DICOM study of an imported record with its pullback ("Send to PACS" stores the report there); absent for demo records. */
  studyInstanceUid: z.string().nullable().optional(),
  /** What the run is, as its files or the demo name it ("LAD pre-PCI"); null or absent when nothing does. */
  seriesDescription: z.string().nullable().optional(),
  /**
   * 'other-ultrasound': a loop that is not an IVUS pullback, imported on the uploader's word, to view
   * only: no borders, measurements, report or Send to PACS (issue 26). Absent means IVUS.
   */
  imagingKind: z.enum(IMAGING_KINDS).optional(),
});
export type RecordSummary = z.infer<typeof RecordSummarySchema>;

/** `GET /api/{tenant}/patients/{patientId}/records`. */
export const PatientRecordsSchema = z.object({
  patient: PatientSummarySchema,
  records: z.array(RecordSummarySchema),
});
export type PatientRecords = z.infer<typeof PatientRecordsSchema>;

export const PATIENT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

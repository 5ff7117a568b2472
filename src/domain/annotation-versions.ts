/**
 * Payloads of saving and loading a record's annotations, shared by the browser (which builds and
 * reads them) and the server (which validates and answers them). Every save makes a new version;
 * versions are never overwritten, so a save based on an older version than the latest is refused
 * with a conflict instead of silently replacing someone else's work.
 */
import { z } from 'zod';
import { AnnotationManifestSchema } from './annotations/manifest.ts';
import { ANNOTATION_STATUSES, PATIENT_ID_PATTERN } from './records.ts';

/** The manifest travels as a multipart file part with exactly this file name. */
export const MANIFEST_FILE_NAME = 'manifest.json';
/** Upper bound of the manifest file; MAX_ANNOTATIONS rulers take about 2 MB. */
export const MAX_MANIFEST_BYTES = 5 * 1024 * 1024;

/** Query of `POST /api/{tenant}/records?status=...`: the record's annotation status, or 'new'. */
export const SaveAnnotationsQuerySchema = z
  .object({ status: z.enum(ANNOTATION_STATUSES, { error: `status must be ${ANNOTATION_STATUSES.join(' or ')}` }) })
  .strict();
export type SaveAnnotationsQuery = z.infer<typeof SaveAnnotationsQuerySchema>;

/**
 * The text fields of the save form (form fields arrive as text). `baseVersion` is the version the
 * browser loaded and edited: 0 or absent when it started from no saved annotations.
 */
export const SaveAnnotationsFieldsSchema = z
  .object({
    recordId: z.uuid({ error: 'recordId must be a record id' }),
    patientId: z.string().regex(PATIENT_ID_PATTERN, 'patientId is not a valid patient id'),
    baseVersion: z
      .string()
      .regex(/^\d{1,9}$/, 'baseVersion must be a whole number (0 for none)')
      .transform(Number)
      .optional(),
  })
  .strict();
export type SaveAnnotationsFields = z.infer<typeof SaveAnnotationsFieldsSchema>;

/** 201 answer of a save. */
export const SavedAnnotationsSchema = z.object({
  version: z.number().int().positive(),
  /** ISO timestamp. */
  savedAt: z.string(),
  /** Email of the person who saved. */
  savedBy: z.string(),
  annotationStatus: z.enum(ANNOTATION_STATUSES),
});
export type SavedAnnotations = z.infer<typeof SavedAnnotationsSchema>;

/**
 * 409 answer of a save: someone saved a newer version than the one the browser edited. The browser
 * may load that version, or keep its own by saving again with `baseVersion = latestVersion`.
 */
export const AnnotationConflictSchema = z.object({
  error: z.literal('conflict'),
  message: z.string(),
  latestVersion: z.number().int().nonnegative(),
  savedBy: z.string().nullable(),
  savedAt: z.string().nullable(),
});
export type AnnotationConflict = z.infer<typeof AnnotationConflictSchema>;

/** 400 answer when the manifest itself is refused: one readable line per problem. */
export const ManifestRejectedSchema = z.object({
  error: z.literal('bad_request'),
  message: z.string(),
  problems: z.array(z.string()),
});
export type ManifestRejected = z.infer<typeof ManifestRejectedSchema>;

/**
 * `GET .../records/{recordId}/annotations` (the latest) and `.../annotations/versions/{n}`.
 * Version 0 is "nothing saved yet": an empty manifest with no author.
 */
export const AnnotationVersionSchema = z.object({
  version: z.number().int().nonnegative(),
  manifest: AnnotationManifestSchema,
  savedBy: z.string().nullable(),
  savedAt: z.string().nullable(),
});
export type AnnotationVersion = z.infer<typeof AnnotationVersionSchema>;

const count = () => z.number().int().nonnegative();
/** How many annotations of each kind (ANNOTATION_TYPES) a version holds. */
export const AnnotationCountsSchema = z.object({ ruler: count(), area: count(), text: count(), angle: count() });
export type AnnotationCounts = z.infer<typeof AnnotationCountsSchema>;

/** One line of the versions list: who saved, when, and how much of each kind. */
export const AnnotationVersionSummarySchema = z.object({
  version: z.number().int().positive(),
  savedBy: z.string(),
  savedAt: z.string(),
  counts: AnnotationCountsSchema,
});
export type AnnotationVersionSummary = z.infer<typeof AnnotationVersionSummarySchema>;

/** `GET .../records/{recordId}/annotations/versions`, newest first. */
export const AnnotationVersionListSchema = z.object({
  versions: z.array(AnnotationVersionSummarySchema),
});
export type AnnotationVersionList = z.infer<typeof AnnotationVersionListSchema>;

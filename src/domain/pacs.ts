/**
 * PACS connections and the PACS API (issue 17), shared by the server's validation and the page.
 *
 * - `GET  /api/{tenant}/pacs/connections`: the tenant's connections (any signed-in user; never a credential).
 * - `POST /api/{tenant}/pacs/connections`, `PUT|DELETE .../connections/{id}` (administrators): add, change, remove.
 *   On PUT, leaving `auth.password` / `auth.token` out keeps the stored one.
 * - `POST .../connections/test` (a connection not saved yet) and `POST .../connections/{id}/test` (administrators): PacsTestResult or a PacsProblem.
 * - `GET  .../connections/{id}/studies?patientId=&patientName=&from=&to=&modality=`: PacsStudyList.
 * - `GET  .../connections/{id}/studies/{study}/series`: PacsSeriesList; `.../series/{series}/thumbnail`: an image, or 404.
 * - `POST .../connections/{id}/pull` (PacsPullRequest): the chosen series are retrieved and imported as an
 *   upload is: 202 ImportBatch, or the upload's ImportRejected answers (422 patient_id_required, 409 patient_identity_mismatch...).
 *   With `Accept: application/x-ndjson` it answers 200 and one JSON object per line: `{type: 'progress', instancesDone,
 *   instancesTotal, bytes}` while instances are retrieved, then `{type: 'result', status, body}` with the answer above.
 * - `POST /api/{tenant}/records/{recordId}/pacs-send` (PacsSendRequest): the saved measurements as a DICOM SR
 *   and the report as Encapsulated PDF, stored in the record's study: PacsSendResult.
 * Every PACS failure answers a PacsProblem naming what went wrong.
 */
import { z } from 'zod';

export const PACS_AUTH_KINDS = ['none', 'basic', 'bearer'] as const;
export type PacsAuthKind = (typeof PACS_AUTH_KINDS)[number];

/** Longest name and URL accepted. */
export const MAX_PACS_NAME = 80;
export const MAX_PACS_URL = 500;

const UrlSchema = z
  .string()
  .trim()
  .max(MAX_PACS_URL, `at most ${MAX_PACS_URL} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.hash && !url.search;
    } catch {
      return false;
    }
  }, 'an http:// or https:// address without credentials, query or fragment (e.g. https://pacs.example.org/dicom-web)');

export const PacsAuthInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('basic'), username: z.string().min(1, 'a user name').max(200), password: z.string().max(500).optional() }),
  z.object({ kind: z.literal('bearer'), token: z.string().min(1).max(8000).optional() }),
]);
export type PacsAuthInput = z.infer<typeof PacsAuthInputSchema>;

export const PacsConnectionInputSchema = z.object({
  name: z.string().trim().min(1, 'a name').max(MAX_PACS_NAME, `at most ${MAX_PACS_NAME} characters`),
  /** QIDO-RS base URL (also WADO-RS and STOW-RS when those are left out: most PACS serve all three under one root). */
  qidoUrl: UrlSchema,
  wadoUrl: UrlSchema.optional(),
  stowUrl: UrlSchema.optional(),
  auth: PacsAuthInputSchema,
});
export type PacsConnectionInput = z.infer<typeof PacsConnectionInputSchema>;

/** A connection as the page sees it: whether credentials are stored, never what they are. */
export const PacsConnectionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  qidoUrl: z.string(),
  wadoUrl: z.string(),
  stowUrl: z.string(),
  authKind: z.enum(PACS_AUTH_KINDS),
  hasCredentials: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PacsConnection = z.infer<typeof PacsConnectionSchema>;
export const PacsConnectionListSchema = z.object({ connections: z.array(PacsConnectionSchema) });
export type PacsConnectionList = z.infer<typeof PacsConnectionListSchema>;

export const PACS_PROBLEMS = {
  pacs_unreachable: 'The PACS did not answer',
  pacs_credentials_refused: 'The PACS refused the credentials',
  pacs_not_found: 'The PACS does not have it',
  pacs_series_not_found: 'The PACS does not have this series',
  pacs_store_refused: 'The PACS refused to store the report',
  pacs_bad_answer: 'The PACS gave an answer that is not DICOMweb',
  pacs_connection_not_found: 'No such PACS connection',
  pacs_credentials_unreadable: 'The stored credentials cannot be decrypted',
} as const;
export type PacsProblemCode = keyof typeof PACS_PROBLEMS;
export type PacsProblem = { error: PacsProblemCode; message: string };

export const PacsTestResultSchema = z.object({ ok: z.literal(true), studiesFound: z.number().int().nonnegative(), milliseconds: z.number().nonnegative() });
export type PacsTestResult = z.infer<typeof PacsTestResultSchema>;

export const PacsStudyQuerySchema = z.object({
  patientId: z.string().trim().max(64).optional(),
  /** Matched as the PACS matches names (wildcards are added around it). */
  patientName: z.string().trim().max(64).optional(),
  /** YYYY-MM-DD, inclusive. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  modality: z.enum(['IVUS', 'US', 'XA']).optional(),
});
export type PacsStudyQuery = z.infer<typeof PacsStudyQuerySchema>;

export const PacsStudySchema = z.object({
  studyInstanceUid: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  /** YYYY-MM-DD, or null when the PACS gives none. */
  birthDate: z.string().nullable(),
  studyDate: z.string().nullable(),
  description: z.string(),
  accessionNumber: z.string(),
  modalities: z.array(z.string()),
  seriesCount: z.number().int().nonnegative().nullable(),
});
export type PacsStudy = z.infer<typeof PacsStudySchema>;
/** `truncated`: the PACS had more studies than shown (narrow the search). */
export const PacsStudyListSchema = z.object({ studies: z.array(PacsStudySchema), truncated: z.boolean() });
export type PacsStudyList = z.infer<typeof PacsStudyListSchema>;
/** Studies shown at most per search. */
export const MAX_PACS_STUDIES = 100;

export const PacsSeriesSchema = z.object({
  seriesInstanceUid: z.string(),
  modality: z.string(),
  description: z.string(),
  seriesNumber: z.number().int().nullable(),
  instanceCount: z.number().int().nonnegative(),
  /** Frames in all its instances (an IVUS pullback is one multi-frame instance). */
  frameCount: z.number().int().nonnegative(),
  /** Already imported into this tenant (importing it again is refused). */
  imported: z.boolean(),
});
export type PacsSeries = z.infer<typeof PacsSeriesSchema>;
export const PacsSeriesListSchema = z.object({ series: z.array(PacsSeriesSchema) });
export type PacsSeriesList = z.infer<typeof PacsSeriesListSchema>;

const UidSchema = z.string().regex(/^[0-9]+(\.[0-9]+)*$/, 'a DICOM UID').max(64);

export const PacsPullRequestSchema = z.object({
  studyInstanceUid: UidSchema,
  seriesInstanceUids: z.array(UidSchema).min(1, 'choose at least one series').max(50),
  /** The upload's patient fields (IMPORT_FORM_FIELDS), for series without a usable Patient ID or a different identity. */
  patientId: z.string().optional(),
  patientName: z.string().optional(),
  birthDate: z.string().optional(),
  sex: z.string().optional(),
  confirmPatientIdentity: z.boolean().optional(),
  /** Import ultrasound series that are not IVUS pullbacks too, as other ultrasound (view only). */
  confirmOtherUltrasound: z.boolean().optional(),
});
export type PacsPullRequest = z.infer<typeof PacsPullRequestSchema>;

export const PacsSendRequestSchema = z.object({
  connectionId: z.uuid(),
  /**
   * Issue 28: the review's gating was on, so the reports add the gated figures. Only the wish is
   * sent: the server gates the record's frames itself.
   */
  gating: z.boolean().optional(),
});
export type PacsSendRequest = z.infer<typeof PacsSendRequestSchema>;
export const PacsSendResultSchema = z.object({
  studyInstanceUid: z.string(),
  /** What was stored: the measurement report (SR) and the PDF report. */
  stored: z.array(z.object({ kind: z.enum(['sr', 'pdf']), sopInstanceUid: z.string() })),
  /** The annotation version the report holds (null: nothing saved yet, borders and analysis only). */
  annotationVersion: z.number().int().nullable(),
});
export type PacsSendResult = z.infer<typeof PacsSendResultSchema>;

import { z } from 'zod';

/**
 * Importing a real pullback from DICOM files (`POST /api/{tenant}/imports`, multipart, one or many
 * parts named {@link IMPORT_FILE_FIELD}). The files are streamed to disk and their headers checked
 * before the answer: a bad file gets a 4xx {@link ImportRejected} `{ error: <ImportErrorCode>,
 * message, fileName }` (status: IMPORT_ERROR_STATUS) and nothing is created. Otherwise the answer is `202` with an {@link ImportBatch}: one
 * {@link ImportSummary} in status 'processing' per record the upload makes or fills, and the files it skips; the
 * frames are decoded in the background (poll `GET /api/{tenant}/imports/{importId}` and watch
 * `framesDone` of `framesTotal`) until 'done' (with `patientId` and `recordId`) or 'failed'
 * (with `error`).
 */

/** Name of the multipart part(s) that carry the DICOM files. */
export const IMPORT_FILE_FIELD = 'files';

/**
 * Form fields an upload may carry beside its files. When a file has no usable Patient ID the
 * server answers 422 `patient_id_required`; the upload is then sent again with `patientId` (an
 * existing patient, or a new one with `patientName` and optionally `birthDate` YYYY-MM-DD and `sex`
 * F/M/O/U). When a file's Patient ID exists under another name or birth date the server answers
 * 409 `patient_identity_mismatch` (naming both); sending `confirmPatientIdentity=true` imports it
 * into the existing patient anyway.
 */
export const IMPORT_FORM_FIELDS = {
  patientId: 'patientId',
  patientName: 'patientName',
  birthDate: 'birthDate',
  sex: 'sex',
  confirmPatientIdentity: 'confirmPatientIdentity',
  /** true: import ultrasound series that are not IVUS pullbacks too, as "other ultrasound" (never analysed). */
  confirmOtherUltrasound: 'confirmOtherUltrasound',
} as const;

/** Default limit of one uploaded file, in bytes (2 GiB); the server's IMPORT_MAX_FILE_BYTES. */
export const DEFAULT_IMPORT_MAX_FILE_BYTES = 2 * 1024 ** 3;

export const IMPORT_STATUSES = ['processing', 'done', 'failed'] as const;
export const ImportStatusSchema = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

/** Why an import was refused or failed, each with a sentence a person can read. */
export const IMPORT_ERROR_CODES = {
  not_dicom: 'The file is not a DICOM file.',
  truncated: 'The file is truncated: it ends before all of its data.',
  unsupported_transfer_syntax:
    'The file uses a transfer syntax that is not supported (accepted: implicit or explicit VR little endian, RLE lossless, JPEG baseline 8-bit).',
  zero_frames: 'The file holds no image frames.',
  inconsistent_frames: 'The frames do not all have the size the file header announces.',
  too_large: 'The file is larger than the upload limit.',
  duplicate_series: 'This series has already been imported.',
  unsupported_object: 'The file is neither an IVUS/ultrasound multi-frame image nor an X-ray angiography run.',
  decode_failed: 'The frames could not be decoded.',
  angio_without_pullback:
    'The IVUS pullback of this study is still being imported: send the angiography run again when that import is done.',
  conflicting_files:
    'The files cannot be filed together: the files of one study must be of one patient, and a record can be filled by one import at a time.',
  interrupted: 'The server stopped while this import was being processed: nothing was kept. Upload the files again.',
  patient_id_required:
    'The files have no usable Patient ID: choose the patient they belong to (an existing one, or a new one with a name).',
  patient_identity_mismatch:
    "The file's Patient ID belongs to a patient with another name or birth date: check that it is the same patient before importing.",
  over_budget: "The file's frames need more memory than the server allows for one import.",
  not_ivus:
    'The file is an ultrasound loop but not an IVUS pullback: it can be imported as other ultrasound, to view only (no borders, measurements or report), once you confirm.',
} as const;
export type ImportErrorCode = keyof typeof IMPORT_ERROR_CODES;
/** HTTP status of a refused upload, by error code (decode_failed only ever ends a background import). */
export const IMPORT_ERROR_STATUS: Record<ImportErrorCode, number> = {
  not_dicom: 415,
  truncated: 400,
  unsupported_transfer_syntax: 415,
  zero_frames: 422,
  inconsistent_frames: 422,
  too_large: 413,
  duplicate_series: 409,
  unsupported_object: 415,
  decode_failed: 422,
  angio_without_pullback: 409,
  conflicting_files: 409,
  interrupted: 503,
  patient_id_required: 422,
  patient_identity_mismatch: 409,
  over_budget: 413,
  not_ivus: 409,
};

export const IMPORT_ERROR_CODE_LIST = Object.keys(IMPORT_ERROR_CODES) as ImportErrorCode[];

export const ImportErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type ImportError = z.infer<typeof ImportErrorSchema>;

/** Body of a refused upload (4xx): the code, a sentence naming the file, and the file's name when one file is at fault. */
export const PatientIdentitySchema = z.object({ name: z.string(), birthDate: z.string().nullable() });

export const ImportRejectedSchema = z.object({
  error: z.string(),
  message: z.string(),
  fileName: z.string().nullable(),
  /** patient_id_required: the files that need a patient. */
  filesWithoutPatientId: z.array(z.string()).optional(),
  /** patient_identity_mismatch: the Patient ID, what the file says and what the existing patient says. */
  patientIdentity: z
    .object({ patientId: z.string(), file: PatientIdentitySchema, existing: PatientIdentitySchema })
    .optional(),
});
export type ImportRejected = z.infer<typeof ImportRejectedSchema>;

export const ImportSummarySchema = z.object({
  importId: z.uuid(),
  status: ImportStatusSchema,
  /** Names of the uploaded files, in upload order. */
  fileNames: z.array(z.string()),
  framesDone: z.number().int().nonnegative(),
  framesTotal: z.number().int().nonnegative(),
  error: ImportErrorSchema.nullable(),
  /** Things the import had to assume (e.g. a default pullback speed when the file names none). */
  warnings: z.array(z.string()),
  patientId: z.string().nullable(),
  recordId: z.string().nullable(),
  /** Where the files came from: an upload, a pull from a PACS connection (`sourceName` its name), or a DICOM push (`sourceName` the calling AE title). */
  source: z.enum(['upload', 'pacs', 'dimse']),
  sourceName: z.string().nullable(),
  /** ISO timestamps. */
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** A file of an upload that is not imported (a structured report, a secondary capture, a single frame, a broken file), and why. */
export const SkippedFileSchema = z.object({ fileName: z.string(), code: z.string(), message: z.string() });
export type SkippedFile = z.infer<typeof SkippedFileSchema>;

/**
 * `POST /api/{tenant}/imports` answers 202 with one import per record the upload makes or fills
 * (a whole study may hold several pullbacks and angiography runs) and the files it skips.
 */
export const ImportBatchSchema = z.object({
  imports: z.array(ImportSummarySchema).min(1),
  skipped: z.array(SkippedFileSchema),
});
export type ImportBatch = z.infer<typeof ImportBatchSchema>;

/** `GET /api/{tenant}/imports`: the tenant's recent imports, newest first. */
export const ImportListSchema = z.object({
  imports: z.array(ImportSummarySchema),
  /** The server's limit per uploaded file (IMPORT_MAX_FILE_BYTES), so a screen can refuse a file before sending it. */
  maxFileBytes: z.number().int().positive().optional(),
});
export type ImportList = z.infer<typeof ImportListSchema>;

/** The human sentence of an error code (the code itself when it is not one of ours). */
export function importErrorMessage(code: string): string {
  return (IMPORT_ERROR_CODES as Record<string, string>)[code] ?? code;
}

import { IMPORT_ERROR_STATUS, type ImportErrorCode, type ImportRejected } from './imports.ts';

/**
 * Kept in the domain (not in server/import) because both the DICOM reader (server/dicom) and the
 * import that calls it refuse files with it, and server/dicom must never import its caller.
 */

/** What a refusal may say beyond its code and sentence (see ImportRejected). */
export type RejectionDetails = Pick<ImportRejected, 'filesWithoutPatientId' | 'patientIdentity'>;

/**
 * Why a file or an import was refused: a stable code (IMPORT_ERROR_CODES), a sentence that names
 * the file, and the HTTP status it answers with when it is found before the 202.
 */
export class ImportRejection extends Error {
  readonly code: ImportErrorCode;
  readonly statusCode: number;
  readonly fileName: string | null;
  readonly details: RejectionDetails;

  constructor(code: ImportErrorCode, message: string, fileName: string | null = null, details: RejectionDetails = {}) {
    super(message);
    this.code = code;
    this.statusCode = IMPORT_ERROR_STATUS[code];
    this.fileName = fileName;
    this.details = details;
  }
}

/** A rejection about one file: the message starts with the file's name. */
export function rejectFile(code: ImportErrorCode, fileName: string, detail: string): ImportRejection {
  return new ImportRejection(code, `${fileName}: ${detail}`, fileName);
}

import { IMPORT_ERROR_STATUS, type ImportErrorCode } from '../../domain/imports.ts';

/**
 * Why a file or an import was refused: a stable code (IMPORT_ERROR_CODES), a sentence that names
 * the file, and the HTTP status it answers with when it is found before the 202.
 */
export class ImportRejection extends Error {
  readonly code: ImportErrorCode;
  readonly statusCode: number;
  readonly fileName: string | null;

  constructor(code: ImportErrorCode, message: string, fileName: string | null = null) {
    super(message);
    this.code = code;
    this.statusCode = IMPORT_ERROR_STATUS[code];
    this.fileName = fileName;
  }
}

/** A rejection about one file: the message starts with the file's name. */
export function rejectFile(code: ImportErrorCode, fileName: string, detail: string): ImportRejection {
  return new ImportRejection(code, `${fileName}: ${detail}`, fileName);
}

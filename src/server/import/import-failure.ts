import { importErrorMessage, type ImportErrorCode } from '../../domain/imports.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { FrameDecodeError } from '../dicom/frame-decode.ts';
import { ImportAborted } from './import-commit.ts';

/**
 * What a failed import says on its row: a refusal or a decode error in its own words, an import
 * interrupted (by its own server, or rolled back because that server stopped answering), and
 * anything else as a server failure with its message.
 */
export function failureOf(error: unknown, stillOurs: boolean): { code: ImportErrorCode; message: string } {
  if (error instanceof ImportAborted) {
    return { code: 'interrupted', message: stillOurs ? importErrorMessage('interrupted') : 'The import was rolled back: its server stopped answering.' };
  }
  if (error instanceof FrameDecodeError) return { code: error.code, message: error.message };
  if (error instanceof ImportRejection) return { code: error.code, message: error.message };
  return { code: 'decode_failed', message: `The import failed on the server: ${error instanceof Error ? error.message : String(error)}` };
}

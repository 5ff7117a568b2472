/**
 * Worker thread body for header-reader.ts: reads and checks uploaded files' headers, so a hostile
 * header (millions of elements, fragments or frames) costs a worker's time, never the event loop's.
 */
import { parentPort } from 'node:worker_threads';
import type { ImportBudgets } from '../dicom/budgets.ts';
import { readDicomUpload, type DicomFile } from '../dicom/dicom-file.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { withUltrasoundPixels } from './ultrasound-pixel-check.ts';
import type { ImportErrorCode } from '../../domain/imports.ts';

export type HeaderRequest = { readonly id: number; readonly filePath: string; readonly fileName: string; readonly budgets: ImportBudgets };
export type HeaderResponse =
  | { readonly id: number; readonly file: DicomFile }
  | { readonly id: number; readonly rejection: { readonly code: ImportErrorCode; readonly message: string; readonly fileName: string | null } }
  | { readonly id: number; readonly failure: string };

parentPort?.on('message', async ({ id, filePath, fileName, budgets }: HeaderRequest) => {
  try {
    // A deflated file is inflated by streaming, so one worker may hold several files at once.
    parentPort?.postMessage({ id, file: await withUltrasoundPixels(await readDicomUpload(filePath, fileName, budgets)) } satisfies HeaderResponse);
  } catch (error) {
    if (error instanceof ImportRejection) {
      parentPort?.postMessage({ id, rejection: { code: error.code, message: error.message, fileName: error.fileName } } satisfies HeaderResponse);
    } else {
      parentPort?.postMessage({ id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies HeaderResponse);
    }
  }
});

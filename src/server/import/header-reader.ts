/**
 * Reads uploaded files' headers off the event loop (header-worker.ts), within the import budgets;
 * a refused file comes back as the same ImportRejection the reader threw. An ultrasound series also
 * has a few frames decoded, for what its pixels say it is (ultrasound-pixel-check.ts). Without imaging workers
 * (tests) it reads on the calling thread, yielding to the event loop first.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ImportBudgets } from '../dicom/budgets.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { readDicomUpload, type DicomFile } from '../dicom/dicom-file.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import type { HeaderRequest, HeaderResponse } from './header-worker.ts';
import { withUltrasoundPixels } from './ultrasound-pixel-check.ts';

export interface HeaderReader {
  read(filePath: string, fileName: string): Promise<DicomFile>;
  close(): Promise<void>;
}

type HeaderJob = { filePath: string; fileName: string };

export function createHeaderReader(workers: number, budgets: ImportBudgets): HeaderReader {
  if (workers < 1) {
    return {
      async read(filePath, fileName) {
        await yieldToEventLoop();
        return withUltrasoundPixels(await readDicomUpload(filePath, fileName, budgets));
      },
      async close() {},
    };
  }
  const pool = createWorkerPool<HeaderJob, HeaderResponse, DicomFile>({
    url: new URL('./header-worker.ts', import.meta.url),
    size: workers,
    lazy: true,
    name: 'header reader pool',
    toMessage: (job, id) => ({ message: { id, ...job, budgets } satisfies HeaderRequest }),
    fromMessage: (response) => {
      if ('file' in response) return response.file;
      if ('rejection' in response) return new ImportRejection(response.rejection.code, response.rejection.message, response.rejection.fileName);
      return new Error(`reading a DICOM header failed: ${response.failure}`);
    },
  });
  return { read: (filePath, fileName) => pool.run({ filePath, fileName }), close: () => pool.close() };
}

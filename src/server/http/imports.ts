import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ImportBatch, ImportList, ImportRejected } from '../../domain/imports.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { budgetsWithMemory } from '../dicom/budgets.ts';
import { createDecodePool, createInlineDecoder } from '../import/decode-pool.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { createHeaderReader } from '../import/header-reader.ts';
import { ImportService } from '../import/import-service.ts';
import { parseImportForm } from '../import/patient-choice.ts';
import { receiveUpload } from '../import/upload.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { NotFoundError, parseOrThrow, refuseUnstorableText } from './validation.ts';

const ImportParamsSchema = z.object({
  tenant: z.string(),
  // Any other text names no import: 404, like another tenant's id.
  importId: z.string().max(100, 'importId is too long'),
});

type Deps = { db: Db; databaseKind: 'pglite' | 'postgres'; store: BlobStore; config: Config; jobs: Pick<JobQueue, 'send' | 'pending'> };

const RECOVERY_INTERVAL_MS = 60_000;

/** Where uploads are streamed to before they are checked and decoded. */
export function importTempRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'import-tmp');
}

/**
 * The one import pipeline of the process, shared by uploads, pulls from a PACS and DICOM pushes:
 * its decoders and header readers, and the recovery of imports nobody will finish. `start` when the
 * app is ready (recovery, then every minute); `stop` after the job queue has stopped (the decoders
 * go last, once no job uses them).
 */
export function createImportService(deps: Deps, log: FastifyBaseLogger): { service: ImportService; start: () => Promise<void>; stop: () => Promise<void> } {
  const decoder = deps.config.imagingWorkers > 0 ? createDecodePool(deps.config.imagingWorkers) : createInlineDecoder();
  const headers = createHeaderReader(deps.config.imagingWorkers, budgetsWithMemory(deps.config.importMemoryBudgetBytes));
  const service = new ImportService({
    db: deps.db,
    databaseKind: deps.databaseKind,
    store: deps.store,
    decoder,
    headers,
    log,
    tempRoot: importTempRoot(deps.config),
    jobs: deps.jobs,
  });
  let sweeper: NodeJS.Timeout | undefined;
  return {
    service,
    async start() {
      // Imports nobody will finish are rolled back before anyone can ask for them.
      await service.recover(true);
      sweeper = setInterval(() => {
        service.recover(false).catch((err: unknown) => log.warn({ err }, 'import recovery failed'));
      }, RECOVERY_INTERVAL_MS);
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      await decoder.close();
      await headers.close();
    },
  };
}

/** The answer to an import refused before anything was registered (uploads and pulls alike). */
export function rejectionBody(error: ImportRejection): ImportRejected {
  return { error: error.code, message: error.message, fileName: error.fileName, ...error.details };
}

/**
 * DICOM imports, always within the caller's tenant: `POST /api/{tenant}/imports` (multipart, parts
 * named `files` and the form fields of IMPORT_FORM_FIELDS) answers 202 with an ImportBatch (one
 * import per record the upload makes or fills, and the files it skips), a 4xx ImportRejected when
 * the upload is refused, or a 400 for a bad form field; `GET /api/{tenant}/imports[/{importId}]`
 * follow them.
 */
export async function importRoutes(app: FastifyInstance, deps: { service: ImportService; config: Config }): Promise<void> {
  const { service } = deps;
  await app.register(multipart, { limits: { fileSize: deps.config.importMaxFileBytes, headerPairs: 50 } });

  app.post('/api/:tenant/imports', async (request, reply) => {
    const principal = request.principal!;
    const { uploadId, dir, release } = service.newUpload();
    try {
      const { files, fields } = await receiveUpload(request, dir, deps.config.importMaxFileBytes);
      refuseUnstorableText(fields, 'form');
      const form = parseImportForm(fields);
      const actor = { tenantId: principal.tenantId, userId: principal.userId, email: principal.email };
      const batch: ImportBatch = await service.start(actor, { uploadId, dir }, files, form);
      return reply.code(202).header('location', `/api/${principal.tenantId}/imports/${batch.imports[0]!.importId}`).send(batch);
    } catch (error) {
      // Parts still arriving (after an oversized file) are read and dropped, not parsed or kept, so
      // the client gets the answer instead of a reset connection.
      if (!request.raw.readableEnded) {
        request.raw.unpipe();
        request.raw.resume();
      }
      await fs.rm(dir, { recursive: true, force: true });
      if (!(error instanceof ImportRejection)) throw error;
      return reply.code(error.statusCode).send(rejectionBody(error));
    } finally {
      release();
    }
  });

  app.get('/api/:tenant/imports', async (request, reply): Promise<ImportList> => {
    reply.header('cache-control', 'no-store');
    return { imports: await service.list(request.principal!.tenantId), maxFileBytes: deps.config.importMaxFileBytes };
  });

  app.get('/api/:tenant/imports/:importId', async (request, reply) => {
    const { importId } = parseOrThrow(ImportParamsSchema, request.params);
    const summary = await service.get(request.principal!.tenantId, importId);
    if (!summary) throw new NotFoundError(`No import "${importId}".`);
    reply.header('cache-control', 'no-store');
    return summary;
  });
}

/**
 * `POST /api/{tenant}/pacs/connections/{id}/pull`: the chosen series are retrieved into one upload
 * directory (streamed to disk), then imported as an upload of those files. With
 * `Accept: application/x-ndjson` the answer is 200 and a line per event: `progress` lines while
 * instances arrive (so the page shows the retrieval as it shows an upload's), then one `result`
 * line holding the status and body the plain request answers: 202 ImportBatch, an ImportRejected,
 * or a PacsProblem. One request either way, so any replica can serve it.
 */
import fs from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { PacsProblem, PacsPullRequest } from '../../domain/pacs.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { PacsConnectionRow } from '../db/pacs-connections.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import type { ImportService } from '../import/import-service.ts';
import { parseImportForm } from '../import/patient-choice.ts';
import { PacsError, type PacsClient } from '../pacs/dicomweb.ts';
import { rejectionBody } from './imports.ts';

export type PullProgress = { type: 'progress'; instancesDone: number; instancesTotal: number; bytes: number };
export type PullResult = { status: number; body: unknown };

/** How often a progress line is written at most. */
const PROGRESS_EVERY_MS = 250;

export function pacsProblemStatus(error: PacsError): number {
  return error.code === 'pacs_not_found' || error.code === 'pacs_series_not_found' || error.code === 'pacs_connection_not_found' ? 404 : 502;
}

type PullContext = { principal: Principal; connection: PacsConnectionRow; client: PacsClient; imports: ImportService; log: FastifyBaseLogger };

/** Retrieves and imports; never throws: every outcome is a status and a body. */
export async function runPull(context: PullContext, pull: PacsPullRequest, onProgress: (progress: PullProgress) => void, signal: AbortSignal): Promise<PullResult> {
  const { principal, connection, client, imports } = context;
  const fields = { patientId: pull.patientId, patientName: pull.patientName, birthDate: pull.birthDate, sex: pull.sex, confirmPatientIdentity: pull.confirmPatientIdentity ? 'true' : undefined,
    confirmOtherUltrasound: pull.confirmOtherUltrasound ? 'true' : undefined,
  };
  const { uploadId, dir, release } = imports.newUpload();
  try {
    const form = parseImportForm(Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined)));
    const plan = await client.planRetrieve(pull.studyInstanceUid, [...new Set(pull.seriesInstanceUids)]);
    await fs.mkdir(dir, { recursive: true });
    const progress: PullProgress = { type: 'progress', instancesDone: 0, instancesTotal: plan.length, bytes: 0 };
    let lastSent = 0;
    const report = (force: boolean) => {
      if (!force && performance.now() - lastSent < PROGRESS_EVERY_MS) return;
      lastSent = performance.now();
      onProgress({ ...progress });
    };
    report(true);
    const files = [];
    for (const instance of plan) {
      files.push(await client.retrieveInstance(instance, dir, { signal, onBytes: (bytes) => ((progress.bytes += bytes), report(false)) }));
      progress.instancesDone++;
      report(true);
    }
    const actor = { tenantId: principal.tenantId, userId: principal.userId, email: principal.email, source: 'pacs' as const, sourceName: connection.name };
    return { status: 202, body: await imports.start(actor, { uploadId, dir }, files, form) };
  } catch (error) {
    // Nothing half-imported: what was retrieved goes, and no import was registered.
    await fs.rm(dir, { recursive: true, force: true });
    if (error instanceof ImportRejection) return { status: error.statusCode, body: rejectionBody(error) };
    if (error instanceof PacsError) return { status: pacsProblemStatus(error), body: { error: error.code, message: error.message } satisfies PacsProblem };
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode && statusCode >= 400 && statusCode < 500) return { status: statusCode, body: { error: 'bad_request', message: (error as Error).message } };
    context.log.error({ err: error }, 'pull from a PACS failed');
    return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side while importing from the PACS.' } };
  } finally {
    release();
  }
}

/** Answers a pull: plain JSON, or progress lines and the result when the page asks for NDJSON. */
export async function answerPull(request: FastifyRequest, reply: FastifyReply, context: PullContext, pull: PacsPullRequest): Promise<FastifyReply | undefined> {
  // A page that goes away stops the retrieval (and what it retrieved is removed).
  const gone = new AbortController();
  request.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  const location = (result: PullResult) =>
    result.status === 202 ? `/api/${context.principal.tenantId}/imports/${(result.body as { imports: Array<{ importId: string }> }).imports[0]!.importId}` : undefined;

  if (!/application\/x-ndjson/.test(String(request.headers.accept ?? ''))) {
    const result = await runPull(context, pull, () => undefined, gone.signal);
    const target = location(result);
    if (target) reply.header('location', target);
    return reply.code(result.status).header('cache-control', 'no-store').send(result.body);
  }
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  const line = (value: unknown) => {
    if (!reply.raw.destroyed) reply.raw.write(`${JSON.stringify(value)}\n`);
  };
  const result = await runPull(context, pull, line, gone.signal);
  line({ type: 'result', ...result });
  reply.raw.end();
  return undefined;
}

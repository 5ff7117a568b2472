/**
 * Wires the DICOM C-STORE receiver (dimse-receiver.ts) to the import pipeline: each association a
 * console or PACS pushes is imported as an upload of its files would be, into the tenant its called
 * AE title names, and appears in the recent imports ("Pushed by <calling AE title>"). Nobody is
 * there to name a patient or confirm an identity, so such refusals are kept as failed imports with
 * their reason rather than lost.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { appendAudit } from '../db/audit.ts';
import { recordRefusedImport } from '../db/imports.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import type { ImportService } from '../import/import-service.ts';
import { parseImportForm } from '../import/patient-choice.ts';
import { callerVerdict } from './caller-policy.ts';
import { startDimseReceiver, type AssociationReport, type ReceivedAssociation } from './dimse-receiver.ts';

type Deps = { config: Config; receiver: NonNullable<Config['dicomReceiver']>; db: Db; imports: ImportService };

/** Imports one pushed association; never throws (the receiver logs nothing it cannot act on). */
export async function importAssociation(deps: Pick<Deps, 'db' | 'imports'>, received: ReceivedAssociation, log: FastifyInstance['log']): Promise<void> {
  const { uploadId, dir, release } = deps.imports.newUpload();
  const fileNames = received.files.map((f) => f.fileName);
  try {
    // The import keeps its files in its own upload directory (same disk: a rename).
    await fs.rename(received.dir, dir);
    const files = received.files.map((f) => ({ ...f, path: path.join(dir, path.relative(received.dir, f.path)) }));
    const actor = { tenantId: received.tenantId, userId: null, email: null, source: 'dimse' as const, sourceName: received.callingAeTitle };
    const batch = await deps.imports.start(actor, { uploadId, dir }, files, parseImportForm({}));
    log.info({ tenant: received.tenantId, callingAe: received.callingAeTitle, imports: batch.imports.length, skipped: batch.skipped.length }, 'pushed study imported');
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    if (!(error instanceof ImportRejection)) {
      log.error({ err: error, tenant: received.tenantId, callingAe: received.callingAeTitle }, 'pushed study not imported');
      return;
    }
    const message =
      error.code === 'patient_id_required'
        ? `${error.message} A pushed study cannot ask for the patient: upload these files on the Upload page and name the patient there.`
        : error.code === 'patient_identity_mismatch'
          ? `${error.message} Check the patient, then upload the files on the Upload page to confirm.`
          : error.message;
    await recordRefusedImport(deps.db, { tenantId: received.tenantId, fileNames, code: error.code, message, source: 'dimse', sourceName: received.callingAeTitle }).catch(
      (err: unknown) => log.error({ err }, 'refused push not recorded'),
    );
    log.warn({ tenant: received.tenantId, callingAe: received.callingAeTitle, code: error.code }, 'pushed study refused');
  } finally {
    release();
  }
}

/** One row in the tenant's audit trail per association, accepted or rejected (no patient data: who called, from where, what became of it). */
export async function auditAssociation(db: Db, report: AssociationReport): Promise<void> {
  const { tenantId, ...details } = report;
  await appendAudit(db, { tenantId, action: 'dicom-association', details });
}

/** Starts the receiver once the server listens, and stops it with the server. */
export function installDicomReceiver(app: FastifyInstance, deps: Deps): void {
  let running: { port: number; close(): Promise<void> } | null = null;
  app.addHook('onListen', async () => {
    // Each association writes under the imports' own directory (created by the first upload otherwise).
    await fs.mkdir(deps.imports.tempRoot, { recursive: true });
    running = await startDimseReceiver({
      host: deps.receiver.host,
      port: deps.receiver.port,
      aeTitles: deps.receiver.aeTitles,
      tempRoot: deps.imports.tempRoot,
      maxAssociationBytes: deps.receiver.maxAssociationBytes,
      maxAssociationsPerAddress: deps.receiver.maxAssociationsPerAddress,
      idleTimeoutSeconds: deps.receiver.idleTimeoutSeconds,
      authorizeCaller: ({ tenantId, callingAeTitle, remoteAddress }) => callerVerdict(deps.db, tenantId, callingAeTitle, remoteAddress),
      onAudit: (report) => auditAssociation(deps.db, report),
      log: app.log,
      onAssociation: (received) => importAssociation(deps, received, app.log),
    });
  });
  app.addHook('onClose', async () => {
    await running?.close();
  });
}

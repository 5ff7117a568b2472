/**
 * The PACS API (issue 17, contract in src/domain/pacs.ts): administrators manage the tenant's
 * DICOMweb connections; every signed-in user searches them, pulls series into the import pipeline
 * and sends a record's report back. Everything is looked up within the caller's tenant; credentials
 * are opened only to call the PACS.
 */
import { NOT_IVUS_MESSAGE } from './contours.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  PACS_PROBLEMS,
  PacsConnectionInputSchema,
  PacsPullRequestSchema,
  PacsStudyQuerySchema,
  type PacsConnectionInput,
  type PacsProblem,
  type PacsProblemCode,
  type PacsSeriesList,
  type PacsTestResult,
} from '../../domain/pacs.ts';
import { appendAudit } from '../db/audit.ts';
import { importedSeries } from '../db/imports.ts';
import {
  credentialsOf,
  CredentialsUnreadableError,
  deletePacsConnection,
  DuplicateConnectionNameError,
  fieldsOf,
  findPacsConnection,
  insertPacsConnection,
  listPacsConnections,
  openCredentials,
  toPacsConnection,
  updatePacsConnection,
  type PacsConnectionRow,
} from '../db/pacs-connections.ts';
import { findRecord } from '../db/records.ts';
import { unlockedKeyOf } from '../db/secrets.ts';
import type { ImportService } from '../import/import-service.ts';
import { assertAllowedPacsUrl, ForbiddenAddressError, type AddressPolicy } from '../pacs/address-policy.ts';
import { probePacs } from '../pacs/connection-probe.ts';
import { PacsClient, PacsError, type PacsEndpoint } from '../pacs/dicomweb.ts';
import { PacsTransport } from '../pacs/pacs-transport.ts';
import { requireAdmin } from './require-admin.ts';
import { BadRequestError, NotFoundError, parseOrThrow } from './validation.ts';
import { answerPull, pacsProblemStatus } from './pacs-pull.ts';
import { sendRecordToPacs, type SendDeps } from './pacs-send.ts';

const ConnectionParams = z.object({ tenant: z.string(), id: z.string().max(100) });
const UID = z.string().regex(/^[0-9]+(\.[0-9]+)*$/, 'a DICOM UID').max(64);
const StudyParams = ConnectionParams.extend({ study: UID });
const SeriesParams = StudyParams.extend({ series: UID });
const RecordParams = z.object({ tenant: z.string(), recordId: z.uuid({ error: 'recordId must be a record id' }) });
/** PacsSendRequest with an id checked by the lookup (an unknown one is a 404, not a 400); `gating`: the review's gating was on (issue 28). */
const PacsSendBodySchema = z.object({ connectionId: z.string().max(100), gating: z.boolean({ error: 'gating must be true or false' }).optional() }).strict();

/** `addressPolicy`: where PACS connections may point (PACS_ALLOW_LOOPBACK; see pacs/address-policy.ts). */
type Deps = SendDeps & { imports: ImportService; addressPolicy: AddressPolicy };

export function sendProblem(reply: FastifyReply, error: PacsError): FastifyReply {
  const body: PacsProblem = { error: error.code, message: error.message };
  return reply.code(pacsProblemStatus(error)).header('cache-control', 'no-store').send(body);
}

const problem = (code: PacsProblemCode, detail: string) => new PacsError(code, `${PACS_PROBLEMS[code]}: ${detail}`);

export async function pacsRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { db, addressPolicy } = deps;
  // Every call to a PACS goes through this one transport: it vets the address each connection is opened to.
  const transport = new PacsTransport({ policy: addressPolicy });
  app.addHook('onClose', () => transport.close());

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof PacsError) return sendProblem(reply, error);
    if (error instanceof DuplicateConnectionNameError) {
      return reply.code(409).send({ error: 'duplicate_name', message: `A PACS connection named "${error.message}" exists already.` });
    }
    throw error;
  });

  /** The caller's tenant's connection, or a 404 PacsError (another tenant's id names nothing). */
  const connectionOf = async (tenantId: string, id: string): Promise<PacsConnectionRow> => {
    const row = await findPacsConnection(db, tenantId, id);
    if (!row) throw problem('pacs_connection_not_found', 'it may have been removed; reload the page.');
    return row;
  };
  const credentialsOfRow = (row: PacsConnectionRow) => {
    try {
      return openCredentials(unlockedKeyOf(db), row);
    } catch (error) {
      if (error instanceof CredentialsUnreadableError) throw problem('pacs_credentials_unreadable', 'an administrator enters them again (were the keys rotated without a restart?).');
      throw error;
    }
  };
  const clientOf = (row: PacsConnectionRow): PacsClient => new PacsClient({ ...row, credentials: credentialsOfRow(row) }, transport);
  /** A connection test: reachable (a DICOMweb service), refused, or not DICOMweb; see pacs/connection-probe.ts. */
  const testWith = async (endpoint: Pick<PacsEndpoint, 'qidoUrl' | 'credentials'>): Promise<PacsTestResult> => {
    const started = performance.now();
    const { studiesFound } = await probePacs(endpoint, transport);
    return { ok: true, studiesFound, milliseconds: Math.round(performance.now() - started) };
  };
  const audit = (request: { principal?: { tenantId: string; userId: string; email: string } }, action: 'pacs-connection-added' | 'pacs-connection-changed' | 'pacs-connection-removed', row: PacsConnectionRow) =>
    appendAudit(db, {
      tenantId: row.tenantId,
      action,
      actorId: request.principal!.userId,
      actorEmail: request.principal!.email,
      targetType: 'pacs-connection',
      targetId: row.id,
      // Addresses and the kind of authentication, never a credential.
      details: { name: row.name, qidoUrl: row.qidoUrl, wadoUrl: row.wadoUrl, stowUrl: row.stowUrl, authKind: row.authKind },
    });
  /** The input's addresses, refused (400) where the address policy forbids them (link-local, loopback...): see pacs/address-policy.ts. */
  const allowedFields = async (input: PacsConnectionInput) => {
    const fields = fieldsOf(input);
    for (const name of ['qidoUrl', 'wadoUrl', 'stowUrl'] as const) {
      try {
        await assertAllowedPacsUrl(fields[name], addressPolicy);
      } catch (error) {
        if (error instanceof ForbiddenAddressError) throw new BadRequestError(`${name}: ${error.message}.`);
        throw error;
      }
    }
    return fields;
  };
  const needCredentials = (input: PacsConnectionInput) =>
    reply400(`auth: ${input.auth.kind === 'basic' ? 'a password' : 'a token'} is required for ${input.auth.kind} authentication`);

  app.get('/api/:tenant/pacs/connections', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { connections: (await listPacsConnections(db, request.principal!.tenantId)).map(toPacsConnection) };
  });

  app.post('/api/:tenant/pacs/connections', { preHandler: requireAdmin }, async (request, reply) => {
    const input = parseOrThrow(PacsConnectionInputSchema, request.body);
    const credentials = credentialsOf(input, null);
    if (credentials === 'missing') return needCredentials(input)(reply);
    const row = await insertPacsConnection(db, unlockedKeyOf(db), request.principal!.tenantId, await allowedFields(input), credentials);
    await audit(request, 'pacs-connection-added', row);
    return reply.code(201).send(toPacsConnection(row));
  });

  app.put('/api/:tenant/pacs/connections/:id', { preHandler: requireAdmin }, async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    // Another tenant's id names nothing (404) whatever the body says.
    const existing = await connectionOf(request.principal!.tenantId, id);
    const input = parseOrThrow(PacsConnectionInputSchema, request.body);
    let stored = null;
    try {
      stored = openCredentials(unlockedKeyOf(db), existing);
    } catch (error) {
      // Unreadable stored credentials can still be replaced by new ones.
      if (!(error instanceof CredentialsUnreadableError)) throw error;
    }
    const credentials = credentialsOf(input, stored);
    if (credentials === 'missing') return needCredentials(input)(reply);
    const row = await updatePacsConnection(db, unlockedKeyOf(db), existing.tenantId, id, await allowedFields(input), credentials);
    if (!row) throw problem('pacs_connection_not_found', 'it was removed meanwhile.');
    await audit(request, 'pacs-connection-changed', row);
    return toPacsConnection(row);
  });

  app.delete('/api/:tenant/pacs/connections/:id', { preHandler: requireAdmin }, async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    const row = await deletePacsConnection(db, request.principal!.tenantId, id);
    if (!row) throw problem('pacs_connection_not_found', 'it was removed meanwhile.');
    await audit(request, 'pacs-connection-removed', row);
    return reply.code(204).send();
  });

  // Tests a connection before it is saved: nothing is stored.
  app.post('/api/:tenant/pacs/connections/test', { preHandler: requireAdmin }, async (request, reply) => {
    const input = parseOrThrow(PacsConnectionInputSchema, request.body);
    const credentials = credentialsOf(input, null);
    if (credentials === 'missing') return needCredentials(input)(reply);
    reply.header('cache-control', 'no-store');
    return testWith({ qidoUrl: (await allowedFields(input)).qidoUrl, credentials });
  });

  app.post('/api/:tenant/pacs/connections/:id/test', { preHandler: requireAdmin }, async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    reply.header('cache-control', 'no-store');
    const row = await connectionOf(request.principal!.tenantId, id);
    return testWith({ qidoUrl: row.qidoUrl, credentials: credentialsOfRow(row) });
  });

  app.get('/api/:tenant/pacs/connections/:id/studies', async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    const connection = await connectionOf(request.principal!.tenantId, id);
    const query = parseOrThrow(PacsStudyQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return clientOf(connection).searchStudies(query);
  });

  app.get('/api/:tenant/pacs/connections/:id/studies/:study/series', async (request, reply): Promise<PacsSeriesList> => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    const tenantId = request.principal!.tenantId;
    const connection = await connectionOf(tenantId, id);
    const { study } = parseOrThrow(StudyParams, request.params);
    const series = await clientOf(connection).listSeries(study);
    const imported = new Set(await importedSeries(db, tenantId, series.map((s) => s.seriesInstanceUid)));
    reply.header('cache-control', 'no-store');
    return { series: series.map((s) => ({ ...s, imported: imported.has(s.seriesInstanceUid) })) };
  });

  app.get('/api/:tenant/pacs/connections/:id/studies/:study/series/:series/thumbnail', async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    const connection = await connectionOf(request.principal!.tenantId, id);
    const { study, series } = parseOrThrow(SeriesParams, request.params);
    const picture = await clientOf(connection).thumbnail(study, series);
    if (!picture) throw new NotFoundError('The PACS cannot render a preview of this series.');
    return reply.type(picture.type).header('cache-control', 'private, max-age=300').header('x-content-type-options', 'nosniff').send(Buffer.from(picture.bytes));
  });

  app.post('/api/:tenant/pacs/connections/:id/pull', async (request, reply) => {
    const { id } = parseOrThrow(ConnectionParams, request.params);
    const principal = request.principal!;
    const connection = await connectionOf(principal.tenantId, id);
    const pull = parseOrThrow(PacsPullRequestSchema, request.body);
    return answerPull(request, reply, { principal, connection, client: clientOf(connection), imports: deps.imports, log: request.log }, pull);
  });

  app.post('/api/:tenant/records/:recordId/pacs-send', async (request, reply) => {
    const { recordId } = parseOrThrow(RecordParams, request.params);
    const principal = request.principal!;
    const record = await findRecord(db, principal.tenantId, recordId);
    if (!record) throw new NotFoundError(`No record "${recordId}".`);
    // No report of other ultrasound may reach a PACS (issue 26): refused before anything is looked up or made.
    if (record.imagingKind !== 'ivus') return reply.code(422).header('cache-control', 'no-store').send({ error: 'not_ivus', message: NOT_IVUS_MESSAGE });
    // Strict: a client's own figures (gated frames, a heart rate) have no place here and are refused, not ignored.
    const { connectionId, gating } = parseOrThrow(PacsSendBodySchema, request.body);
    const connection = await connectionOf(principal.tenantId, connectionId);
    reply.header('cache-control', 'no-store');
    return sendRecordToPacs(deps, principal, recordId, connection, clientOf(connection), reply, { gating: gating ?? false });
  });
}

function reply400(message: string) {
  return (reply: FastifyReply) => reply.code(400).send({ error: 'bad_request', message });
}

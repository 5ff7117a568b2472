/**
 * The senders a tenant's DICOM receiver accepts (issue 24, contract in src/domain/dicom-callers.ts):
 * administrators register, change and remove the calling AE titles (and source networks) allowed to
 * push into their tenant. Every lookup is within the caller's tenant; every change is audited.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DicomCallerInputSchema, type DicomCallerFields, type DicomCallerList } from '../../domain/dicom-callers.ts';
import type { Config } from '../config.ts';
import { appendAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import {
  deleteDicomCaller,
  DuplicateAeTitleError,
  findDicomCaller,
  insertDicomCaller,
  listDicomCallers,
  toDicomCaller,
  updateDicomCaller,
  type DicomCallerRow,
} from '../db/dicom-callers.ts';
import { InvalidNetworkError, normaliseNetworks } from '../pacs/caller-policy.ts';
import { requireAdmin } from './require-admin.ts';
import { BadRequestError, NotFoundError, parseOrThrow } from './validation.ts';

const CallerParams = z.object({ tenant: z.string(), id: z.string().max(100) });
type AuditAction = 'dicom-caller-added' | 'dicom-caller-changed' | 'dicom-caller-removed';

/** The input, validated, its networks parsed and written as Node prints them (400 naming a bad one). */
function callerFields(body: unknown): DicomCallerFields {
  const input = parseOrThrow(DicomCallerInputSchema, body);
  try {
    return { ...input, networks: normaliseNetworks(input.networks) };
  } catch (error) {
    if (error instanceof InvalidNetworkError) throw new BadRequestError(`networks: ${error.message}.`);
    throw error;
  }
}

export async function dicomCallerRoutes(app: FastifyInstance, deps: { db: Db; config: Pick<Config, 'dicomReceiver'> }): Promise<void> {
  const { db } = deps;
  app.addHook('preHandler', requireAdmin);

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof DuplicateAeTitleError) {
      return reply.code(409).send({ error: 'duplicate_ae_title', message: `The calling AE title "${error.message}" is registered already.` });
    }
    throw error;
  });

  const audit = (request: FastifyRequest, action: AuditAction, row: DicomCallerRow) =>
    appendAudit(db, {
      tenantId: row.tenantId,
      action,
      actorId: request.principal!.userId,
      actorEmail: request.principal!.email,
      targetType: 'dicom-caller',
      targetId: row.id,
      details: { aeTitle: row.aeTitle, description: row.description, networks: row.networks.join(', ') || 'any address' },
    });
  const notFound = () => new NotFoundError('No such registered sender: it may have been removed; reload the page.');

  app.get('/api/:tenant/pacs/dicom-callers', async (request, reply): Promise<DicomCallerList> => {
    const tenantId = request.principal!.tenantId;
    const receiver = deps.config.dicomReceiver;
    reply.header('cache-control', 'no-store');
    return {
      callers: (await listDicomCallers(db, tenantId)).map(toDicomCaller),
      receiver: receiver ? { port: receiver.port, calledAeTitles: [...receiver.aeTitles].filter(([, tenant]) => tenant === tenantId).map(([title]) => title) } : null,
    };
  });

  app.post('/api/:tenant/pacs/dicom-callers', async (request, reply) => {
    const row = await insertDicomCaller(db, request.principal!.tenantId, callerFields(request.body));
    await audit(request, 'dicom-caller-added', row);
    return reply.code(201).send(toDicomCaller(row));
  });

  app.put('/api/:tenant/pacs/dicom-callers/:id', async (request) => {
    const { id } = parseOrThrow(CallerParams, request.params);
    const tenantId = request.principal!.tenantId;
    // Another tenant's id names nothing (404) whatever the body says.
    if (!(await findDicomCaller(db, tenantId, id))) throw notFound();
    const row = await updateDicomCaller(db, tenantId, id, callerFields(request.body));
    if (!row) throw notFound();
    await audit(request, 'dicom-caller-changed', row);
    return toDicomCaller(row);
  });

  app.delete('/api/:tenant/pacs/dicom-callers/:id', async (request, reply) => {
    const { id } = parseOrThrow(CallerParams, request.params);
    const row = await deleteDicomCaller(db, request.principal!.tenantId, id);
    if (!row) throw notFound();
    await audit(request, 'dicom-caller-removed', row);
    return reply.code(204).send();
  });
}

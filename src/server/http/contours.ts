/**
 * `GET /api/{tenant}/records/{recordId}/contours`: a record's automatic lumen and vessel contours and the
 * pullback analysis (domain/contours/api.ts). The first request starts the detection in the
 * background and every request answers 202 with its progress until the result is stored; then 200
 * with the stored JSON, first without the stent (`stentPending: true`, issue 23: borders and MLA
 * final, the stent's struts still being read), then with it. Records are looked up within the caller's tenant only.
 * `GET …/contours/provisional`: the provisional contours of the detection under way (issue 23).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ContoursProcessing } from '../../domain/contours/api.ts';
import { CONTOUR_ALGORITHM_VERSION, ContoursUnavailableError, type ContoursState, type RecordContourService } from '../contours/record-contours.ts';
import type { RecordRow } from '../db/records.ts';
import type { Db } from '../db/client.ts';
import { findRecord } from '../db/records.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const gunzip = promisify(zlib.gunzip);

const RecordParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.uuid({ error: 'recordId must be a record id' }),
});
const VersionQuerySchema = z.object({ v: z.string().max(64).optional() }).strict();

type Deps = { db: Db; contours: RecordContourService };

/** What a record of other ultrasound answers wherever its borders, figures or report are asked for. */
export const NOT_IVUS_MESSAGE = 'This record is ultrasound but not an IVUS pullback: it is for viewing only, with no borders, measurements or report.';

const notIvus = (reply: FastifyReply) => reply.code(422).header('cache-control', 'no-store').send({ error: 'not_ivus', message: NOT_IVUS_MESSAGE });

/**
 * The contours' state, or a 422 naming why a record cannot have automatic borders: `not_ivus` for
 * other ultrasound (nothing is detected on it, issue 26), `contours_unavailable` for a geometry the
 * detector cannot read.
 */
export async function contoursOr422(contours: RecordContourService, record: RecordRow, reply: FastifyReply): Promise<ContoursState | FastifyReply> {
  if (record.imagingKind !== 'ivus') return notIvus(reply);
  try {
    return await contours.state(record);
  } catch (error) {
    if (!(error instanceof ContoursUnavailableError)) throw error;
    return reply.code(422).header('cache-control', 'no-store').send({ error: 'contours_unavailable', message: error.message });
  }
}

/** The record asked for, within the caller's tenant, at the imaging version the client holds (`?v=`, when it says one). */
async function requestedRecord(db: Db, request: FastifyRequest): Promise<RecordRow> {
  const { recordId } = parseOrThrow(RecordParamsSchema, request.params);
  const { v } = parseOrThrow(VersionQuerySchema, request.query);
  const record = await findRecord(db, request.principal!.tenantId, recordId);
  if (!record) throw new NotFoundError(`No record "${recordId}".`);
  if (v !== undefined && v !== record.imagingVersion) {
    throw new NotFoundError('These images have been replaced by a newer version: reload the record.');
  }
  return record;
}

const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** Stored gzip JSON goes out as it is to clients that take gzip (all browsers), unzipped to the others. */
async function sendStoredJson(request: FastifyRequest, reply: FastifyReply, gz: Buffer): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(gz);
  return reply.send(await gunzip(gz));
}

export async function contourRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { contours } = deps;

  app.get('/api/:tenant/records/:recordId/contours', async (request, reply) => {
    const record = await requestedRecord(deps.db, request);
    const state = await contoursOr422(contours, record, reply);
    if (!('ready' in state)) return state;
    if (!state.ready) {
      const body: ContoursProcessing = { status: 'processing', done: state.done, total: state.total, provisionalFrames: state.provisionalFrames };
      return reply.code(202).header('retry-after', '2').header('cache-control', 'no-store').send(body);
    }
    // The contours are stored again once their stent is read (issue 23): a copy without it is never revalidated as current.
    const etag = `"${record.imagingVersion}-${CONTOUR_ALGORITHM_VERSION}${state.stentPending ? '-stent-pending' : ''}-${acceptsGzip(request) ? 'gz' : 'raw'}"`;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return sendStoredJson(request, reply, state.gz);
  });

  // What the detection under way has found so far (domain/contours/provisional-contours.ts): the
  // 202 above says how many frames it holds; 404 before the first pass and once the final contours are stored.
  app.get('/api/:tenant/records/:recordId/contours/provisional', async (request, reply) => {
    const record = await requestedRecord(deps.db, request);
    if (record.imagingKind !== 'ivus') return notIvus(reply);
    const gz = await contours.provisional(record);
    if (!gz) throw new NotFoundError('No provisional contours: the detection has not sampled the whole pullback yet, or its final contours are ready.');
    reply.header('cache-control', 'no-store');
    return sendStoredJson(request, reply, gz);
  });
}

/**
 * `GET /api/{tenant}/records/{recordId}/contours`: a record's automatic lumen and vessel contours and the
 * pullback analysis (domain/contours/api.ts). The first request starts the detection in the
 * background and every request answers 202 with its progress until the result is stored; then 200
 * with the stored JSON. Records are looked up within the caller's tenant only.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ContoursProcessing } from '../../domain/contours/api.ts';
import { CONTOUR_ALGORITHM_VERSION, RecordContourService } from '../contours/record-contours.ts';
import type { Db } from '../db/client.ts';
import { findRecord } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const gunzip = promisify(zlib.gunzip);

const RecordParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.uuid({ error: 'recordId must be a record id' }),
});
const VersionQuerySchema = z.object({ v: z.string().max(64).optional() }).strict();

/** `workers`: detection threads (0: on the main thread, as in tests). */
type Deps = { db: Db; imaging: RecordImaging; store: BlobStore; workers: number };

export async function contourRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const contours = new RecordContourService(deps.store, deps.imaging, deps.workers, app.log);
  app.addHook('onClose', () => contours.close());

  app.get('/api/:tenant/records/:recordId/contours', async (request, reply) => {
    const { recordId } = parseOrThrow(RecordParamsSchema, request.params);
    const { v } = parseOrThrow(VersionQuerySchema, request.query);
    const record = await findRecord(deps.db, request.principal!.tenantId, recordId);
    if (!record) throw new NotFoundError(`No record "${recordId}".`);
    if (v !== undefined && v !== record.imagingVersion) {
      throw new NotFoundError('These images have been replaced by a newer version: reload the record.');
    }
    const state = await contours.state(record);
    if (!state.ready) {
      const body: ContoursProcessing = { status: 'processing', done: state.done, total: state.total };
      return reply.code(202).header('retry-after', '2').header('cache-control', 'no-store').send(body);
    }
    // The stored gzip goes out as it is to clients that take gzip (all browsers).
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const etag = `"${record.imagingVersion}-${CONTOUR_ALGORITHM_VERSION}-${acceptsGzip ? 'gz' : 'raw'}"`;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    if (acceptsGzip) return reply.header('content-encoding', 'gzip').send(state.gz);
    return reply.send(await gunzip(state.gz));
  });
}

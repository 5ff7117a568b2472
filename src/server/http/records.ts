import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { findRecord } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const PreviewParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.string().uuid('recordId must be a record id'),
  series: z.enum(['bmode', 'angio'], { error: 'series must be bmode or angio' }),
});

/** A record's images, always within the caller's tenant (set by the authenticate hook). */
export async function recordRoutes(app: FastifyInstance, deps: { db: Db; imaging: RecordImaging }): Promise<void> {
  app.get('/api/:tenant/records/:recordId/previews/:series', async (request, reply) => {
    const { recordId, series } = parseOrThrow(PreviewParamsSchema, request.params);
    const record = await findRecord(deps.db, request.principal!.tenantId, recordId);
    if (!record) throw new NotFoundError(`No record "${recordId}".`);
    // The bytes of one imaging version never change, so the tag is derived from it.
    const etag = `"${record.imagingVersion}-preview-${series}"`;
    reply.header('etag', etag).header('cache-control', 'private, max-age=31536000, immutable');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const png = await deps.imaging.preview(record, series);
    return reply.type('image/png').send(png);
  });
}

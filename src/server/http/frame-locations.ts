/**
 * Issue 27, "app servers authorise, the store delivers", at scale: one authorised request signs the
 * store locations of many chunks, so a page asks a replica once per batch instead of once per chunk
 * and then fetches the bytes from the store at the store's own rate.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { chunkCount, IMAGE_SERIES } from '../../domain/images.ts';
import { MAX_FRAME_LOCATION_BATCH, type BatchedFrameLocation, type FrameLocationBatch } from '../../domain/frame-location.ts';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const BatchParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.string().uuid('recordId must be a record id'),
  series: z.enum(IMAGE_SERIES, { error: 'series must be bmode or angio' }),
});
const BatchQuerySchema = z
  .object({
    // The version is required here: every location names one version's stored keys.
    v: z.string({ error: 'v must name the imaging version' }).max(64),
    from: z.string({ error: 'from must be a chunk number' }).regex(/^\d{1,6}$/, 'from must be a chunk number').transform(Number),
    count: z
      .string({ error: `count must be 1 to ${MAX_FRAME_LOCATION_BATCH}` })
      .regex(/^\d{1,3}$/, `count must be 1 to ${MAX_FRAME_LOCATION_BATCH}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_FRAME_LOCATION_BATCH, `count must be 1 to ${MAX_FRAME_LOCATION_BATCH}`),
  })
  .strict();

type Signer = (key: string) => Promise<{ url: string; expiresAt: Date }>;
type Deps = {
  imaging: RecordImaging;
  signFrameUrl: Signer | null;
  /** The caller's record (at `version`, when given; tenant from the token), or a 404: the chunk route's own check. */
  recordOf: (request: FastifyRequest, recordId: string, version?: string) => Promise<RecordRow>;
};

export function frameLocationRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/api/:tenant/records/:recordId/frame-locations/:series', async (request, reply) => {
    const { recordId, series } = parseOrThrow(BatchParamsSchema, request.params);
    // The record before the query: another tenant's or an unknown record is a 404 whatever else is
    // asked, as on every route that takes an id (tests/server/tenancy.test.ts).
    await deps.recordOf(request, recordId);
    const { v, from, count } = parseOrThrow(BatchQuerySchema, request.query);
    const record = await deps.recordOf(request, recordId, v);
    // Checked after the record: a caller learns nothing about a record it may not see.
    if (!deps.signFrameUrl) throw new NotFoundError('This server sends frame chunks itself: ask for each chunk.');
    const chunks = chunkCount(series === 'bmode' ? record.bmodeFrameCount : record.angioFrameCount);
    if (from >= chunks) throw new NotFoundError(`Chunk ${from} is past the last ${series} chunk (${chunks - 1}).`);
    const stored = await deps.imaging.storedChunksIfMade(record, series, from, Math.min(count, chunks - from));
    const sign = deps.signFrameUrl;
    const locations = await Promise.all(
      stored.map(async (chunk, i): Promise<BatchedFrameLocation> => {
        if (!chunk) return { chunk: from + i, ready: false };
        const signed = await sign(chunk.key);
        return { chunk: from + i, url: signed.url, expiresAt: signed.expiresAt.toISOString() };
      }),
    );
    const batch: FrameLocationBatch = { from, locations };
    // Capabilities for a few minutes: no cache may keep the answer.
    return reply.header('cache-control', 'no-store').send(batch);
  });
}

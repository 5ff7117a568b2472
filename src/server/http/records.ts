import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { chunkCount, chunkFrames, FRAMES_PER_CHUNK, IMAGE_SERIES, URGENT_FRAME_HEADER, type PackCodec, type RecordImages } from '../../domain/images.ts';
import { FRAME_LOCATION_TYPE, type FrameLocation } from '../../domain/frame-location.ts';
import type { Db } from '../db/client.ts';
import { findRecord, type RecordRow } from '../db/records.ts';
import { FRAME_PACK_MEDIA_TYPE } from '../../domain/pixels/frame-pack.ts';
import { DEMO_PACK_CODEC } from '../dicom/page-decodable.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import { frameLocationRoutes } from './frame-locations.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const gunzip = promisify(zlib.gunzip);

const RecordParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.string().uuid('recordId must be a record id'),
});
const SeriesParamsSchema = RecordParamsSchema.extend({
  series: z.enum(IMAGE_SERIES, { error: 'series must be bmode or angio' }),
});
const ChunkParamsSchema = SeriesParamsSchema.extend({
  chunk: z.string().regex(/^\d{1,6}$/, 'chunk must be a chunk number').transform(Number),
});
const VersionQuerySchema = z.object({ v: z.string().max(64).optional() }).strict();

// Frames of one imaging version never change: keep them as long as the browser likes.
const IMMUTABLE = 'private, max-age=31536000, immutable';

/**
 * Signs a short-lived GET URL for a stored key, when browsers fetch frame chunks from the object
 * store itself (FRAMES_FROM_STORE with S3); null: the app sends the bytes.
 */
export type FrameUrlSigner = (key: string) => Promise<{ url: string; expiresAt: Date }>;

type Deps = { db: Db; imaging: RecordImaging; signFrameUrl: FrameUrlSigner | null };

const NO_PULLBACK_YET = "This record's IVUS pullback has not been imported yet.";

async function recordOf(deps: Deps, request: FastifyRequest, recordId: string, version?: string): Promise<RecordRow> {
  const record = await findRecord(deps.db, request.principal!.tenantId, recordId);
  if (!record) throw new NotFoundError(`No record "${recordId}".`);
  if (version !== undefined && version !== record.imagingVersion) {
    throw new NotFoundError('These images have been replaced by a newer version: reload the record.');
  }
  return record;
}

/** Sends stored gzip bytes as they are to clients that take gzip (all browsers), raw bytes to others. */
async function sendCompressed(request: FastifyRequest, reply: FastifyReply, gz: Buffer, etag: string) {
  const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const tag = `"${etag}-${acceptsGzip ? 'gz' : 'raw'}"`;
  reply.header('etag', tag).header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === tag) return reply.code(304).send();
  reply.type('application/octet-stream');
  if (acceptsGzip) return reply.header('content-encoding', 'gzip').send(gz);
  return reply.send(await gunzip(gz));
}

/**
 * Sends a stored frame pack as it is: its frames are compressed already (gzip would not make them
 * smaller), so there is no content encoding, and one representation for every client.
 */
function sendFramePack(request: FastifyRequest, reply: FastifyReply, pack: Buffer, etag: string) {
  const tag = `"${etag}-pack"`;
  reply.header('etag', tag).header('cache-control', IMMUTABLE);
  if (request.headers['if-none-match'] === tag) return reply.code(304).send();
  return reply.type(FRAME_PACK_MEDIA_TYPE).send(pack);
}

/** The codec of a series' packs, when the record sends packs and it is known (see RecordImages' packCodec). */
function packCodec(record: RecordRow, series: 'bmode' | 'angio'): PackCodec | null {
  if (record.chunkFormat !== 'frame-pack') return null;
  if (record.imagingSource === 'demo') return DEMO_PACK_CODEC;
  return (series === 'bmode' ? record.bmodePackCodec : record.angioPackCodec) ?? null;
}

function imagesOf(record: RecordRow): RecordImages {
  const v = `v=${encodeURIComponent(record.imagingVersion)}`;
  const chunks = (series: 'bmode' | 'angio', count: number) =>
    Array.from({ length: chunkCount(count) }, (_, index) => `records/${record.id}/frames/${series}/${index}?${v}`);
  return {
    recordId: record.id,
    patientId: record.patientId,
    version: record.imagingVersion,
    frameRateHz: record.frameRateHz,
    pullbackSpeedMmPerS: record.pullbackSpeedMmPerS,
    pixelSpacingMm: record.pixelSpacingMm,
    bmode: { count: record.bmodeFrameCount, width: record.frameWidth, height: record.frameHeight, framesPerChunk: FRAMES_PER_CHUNK, chunks: chunks('bmode', record.bmodeFrameCount), chunkFormat: record.chunkFormat, packCodec: packCodec(record, 'bmode') },
    angio: { count: record.angioFrameCount, width: record.angioWidth, height: record.angioHeight, framesPerChunk: FRAMES_PER_CHUNK, chunks: chunks('angio', record.angioFrameCount), chunkFormat: record.chunkFormat, packCodec: packCodec(record, 'angio') },
  };
}

/** A record's images, always within the caller's tenant (set by the authenticate hook). */
export async function recordRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/api/:tenant/records/:recordId/images', async (request) => {
    const { recordId } = parseOrThrow(RecordParamsSchema, request.params);
    const record = await recordOf(deps, request, recordId);
    deps.imaging.prepare(record);
    return imagesOf(record);
  });

  app.get('/api/:tenant/records/:recordId/frames/:series/:chunk', async (request, reply) => {
    const { recordId, series, chunk } = parseOrThrow(ChunkParamsSchema, request.params);
    const { v } = parseOrThrow(VersionQuerySchema, request.query);
    const record = await recordOf(deps, request, recordId, v);
    const count = series === 'bmode' ? record.bmodeFrameCount : record.angioFrameCount;
    const chunks = chunkCount(count);
    if (chunk >= chunks) throw new NotFoundError(`Chunk ${chunk} is past the last ${series} chunk (${chunks - 1}).`);
    const { first, count: frames } = chunkFrames(chunk, count);
    reply.header('x-first-frame', String(first)).header('x-frame-count', String(frames));
    // The chunks the page shows first are marked urgent: made before anything else still waiting.
    const priority = request.headers[URGENT_FRAME_HEADER.toLowerCase()] ? 'urgent' : 'demand';
    const etag = `${record.imagingVersion}-${series}-${chunk}`;
    if (deps.signFrameUrl) {
      // The checks above are the app's whole part: the store delivers the bytes, to whoever holds
      // this URL for its few minutes, so the answer itself is never kept by any cache.
      const stored = await deps.imaging.storedChunk(record, series, chunk, priority);
      const signed = await deps.signFrameUrl(stored.key);
      const location: FrameLocation = { url: signed.url, expiresAt: signed.expiresAt.toISOString() };
      return reply.header('cache-control', 'no-store').type(FRAME_LOCATION_TYPE).send(JSON.stringify(location));
    }
    if (record.chunkFormat === 'frame-pack') return sendFramePack(request, reply, await deps.imaging.framePack(record, series, chunk, priority), etag);
    return sendCompressed(request, reply, await deps.imaging.chunk(record, series, chunk, priority), etag);
  });

  frameLocationRoutes(app, { imaging: deps.imaging, signFrameUrl: deps.signFrameUrl, recordOf: (request, recordId, version) => recordOf(deps, request, recordId, version) });

  app.get('/api/:tenant/records/:recordId/previews/:series', async (request, reply) => {
    const { recordId, series } = parseOrThrow(SeriesParamsSchema, request.params);
    const { v } = parseOrThrow(VersionQuerySchema, request.query);
    const record = await recordOf(deps, request, recordId, v);
    // An angiography run waiting for its pullback has no B-mode preview yet; the answer must not be kept.
    if ((series === 'bmode' ? record.bmodeFrameCount : record.angioFrameCount) === 0) {
      reply.header('cache-control', 'no-store');
      throw new NotFoundError(series === 'bmode' ? NO_PULLBACK_YET : 'This record has no angiography run.');
    }
    const etag = `"${record.imagingVersion}-preview-${series}"`;
    reply.header('etag', etag).header('cache-control', IMMUTABLE);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('image/png').send(await deps.imaging.preview(record, series));
  });
}


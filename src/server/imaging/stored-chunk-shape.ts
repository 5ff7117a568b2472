import type { FastifyBaseLogger } from 'fastify';
import { chunkFrames, type ImageSeriesName } from '../../domain/images.ts';
import { FramePackError, readFramePack } from '../../domain/pixels/frame-pack.ts';
import type { RecordRow } from '../db/records.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { chunkKey, framePackKey, gzipUncompressedLength } from './imaging-keys.ts';

/** A series' frame count and frame size: what a whole stored chunk of it must hold. */
export function seriesGeometry(record: RecordRow, series: ImageSeriesName) {
  return series === 'bmode'
    ? { count: record.bmodeFrameCount, frameBytes: record.frameWidth * record.frameHeight, rows: record.frameHeight, columns: record.frameWidth }
    : { count: record.angioFrameCount, frameBytes: record.angioWidth * record.angioHeight, rows: record.angioHeight, columns: record.angioWidth };
}

/** The number of frames a stored pack holds, or -1 when it is not a whole pack. */
export function packFrameCount(data: Buffer): number {
  try {
    return readFramePack(data).frames.length;
  } catch (error) {
    if (error instanceof FramePackError) return -1;
    throw error;
  }
}

/** A series' stored gzip chunk or frame pack when it is whole (a damaged one is logged), else null. */
export async function wholeStoredChunk(
  store: Pick<BlobStore, 'get'>,
  log: FastifyBaseLogger,
  record: RecordRow,
  series: ImageSeriesName,
  index: number,
  kind: 'gzip' | 'pack',
): Promise<Buffer | null> {
  const { count, frameBytes } = seriesGeometry(record, series);
  const frames = chunkFrames(index, count).count;
  const stored = await store.get(kind === 'gzip' ? chunkKey(record, series, index) : framePackKey(record, series, index));
  if (stored && (kind === 'gzip' ? gzipUncompressedLength(stored) === frames * frameBytes : packFrameCount(stored) === frames)) return stored;
  if (stored) log.error({ recordId: record.id, tenant: record.tenantId, series, chunk: index }, kind === 'gzip' ? 'damaged frame chunk in storage' : 'damaged frame pack in storage');
  return null;
}

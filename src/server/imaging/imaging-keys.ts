/**
 * Where a record's imaging is kept in the blob store, and the headers its chunks are stored (and
 * answered) with.
 */
import zlib from 'node:zlib';
import type { ImageSeriesName } from '../../domain/images.ts';
import { FRAME_PACK_MEDIA_TYPE } from '../../domain/pixels/frame-pack.ts';
import type { RecordRow } from '../db/records.ts';
import { IMMUTABLE_PUBLIC, type StoredObjectHeaders } from '../storage/blob-store.ts';

/** The fields that name a record's stored imaging (an import writes it before the record row exists). */
type ImagingKeyFields = 'tenantId' | 'id' | 'imagingVersion';
export type ImagingKeyParts = Pick<RecordRow, ImagingKeyFields>;

/** Storage key of one of a record's files: `{tenant}/{record}/{version}/{name}`. */
export function imagingKey(record: ImagingKeyParts, name: string): string {
  return `${record.tenantId}/${record.id}/${record.imagingVersion}/${name}`;
}

export function chunkKey(record: ImagingKeyParts, series: ImageSeriesName, index: number): string {
  return imagingKey(record, `${series}/${String(index).padStart(5, '0')}.u8.gz`);
}

/** Storage key of a chunk's frame pack (domain/pixels/frame-pack.ts), beside its gzip chunk. */
export function framePackKey(record: ImagingKeyParts, series: ImageSeriesName, index: number): string {
  return imagingKey(record, `${series}/${String(index).padStart(5, '0')}.ivfp`);
}

/** What a browser fetching a gray8 chunk from the store itself must be told: gzip of raw bytes, never changing. */
export const GRAY8_CHUNK_HEADERS: StoredObjectHeaders = { contentType: 'application/octet-stream', contentEncoding: 'gzip', cacheControl: IMMUTABLE_PUBLIC };

/**
 * How a made (demo) chunk's raw frames are gzipped for the store. Run-length matching only: the frames are
 * speckle around runs of black (outside the field of view, the angiogram's background), so longer matches
 * are rare: it stores as small as level 1's default (0.70 of raw either way on the 512 px demo's B-mode and
 * angiogram, 0.4 % larger on a 128 px test record) for 2.5x less CPU (2.7 → 1.1 ms a 512 px frame; issue 23,
 * a first open's server CPU). Still gzip: every reader, the browser's included, is unchanged.
 * Its output is taken 1 MiB at a time, not the default 16 KiB: a 4 MiB chunk's gzip then crosses
 * from the thread pool to the event loop 3 times instead of about 180 (4-7 ms less CPU a chunk;
 * the bytes are the same, deflate's output does not depend on how it is taken).
 */
export const MADE_CHUNK_GZIP: zlib.ZlibOptions = { level: 1, strategy: zlib.constants.Z_RLE, chunkSize: 1 << 20 };

/** What a browser fetching a frame pack from the store itself must be told: never changing, not content-encoded. */
export const FRAME_PACK_HEADERS: StoredObjectHeaders = { contentType: FRAME_PACK_MEDIA_TYPE, cacheControl: IMMUTABLE_PUBLIC };

/** A chunk as kept in the store: its key and the headers it was put with (and is answered with). */
export type StoredChunk = { key: string; headers: StoredObjectHeaders };

/** Where a chunk of a series is kept for the page: its frame pack when the record sends packs, else its gzip chunk. */
export function storedChunkOf(record: Pick<RecordRow, ImagingKeyFields | 'chunkFormat'>, series: ImageSeriesName, index: number): StoredChunk {
  if (record.chunkFormat === 'frame-pack') return { key: framePackKey(record, series, index), headers: FRAME_PACK_HEADERS };
  return { key: chunkKey(record, series, index), headers: GRAY8_CHUNK_HEADERS };
}

/** A gzip member's trailer holds the uncompressed length: a cheap check that a stored chunk is whole. */
export function gzipUncompressedLength(data: Buffer): number {
  return data.length >= 18 ? data.readUInt32LE(data.length - 4) : -1;
}

/**
 * One pass over a record's stored B-mode chunks for every reader that needs its frames. A report
 * sent to PACS reads the frames for the gating, the stent measured on corrected borders, the calcium
 * re-read on corrected lumens, the L-mode and the report's frames: each of those walking the chunks on
 * its own fetched and gunzipped a 3,600-frame record up to three times. Here each chunk any reader
 * needs is fetched and decompressed once, handed to every reader that asked for it in chunk order,
 * and dropped, so one decompressed chunk is held at a time whatever the number of readers.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';

const gunzip = promisify(zlib.gunzip);

export type ChunkImaging = Pick<RecordImaging, 'chunk'>;
export type ChunkRecord = Parameters<RecordImaging['chunk']>[0] & Pick<RecordRow, 'frameWidth' | 'frameHeight'>;

/** A decompressed stored B-mode chunk, valid only while it is handed to the readers. */
export interface StoredChunk {
  readonly index: number;
  /** Its gray pixels, frame after frame (frameWidth × frameHeight bytes each). */
  readonly pixels: Buffer;
  /** Frame `k` of the chunk (a view, not a copy), or null where the chunk holds fewer frames. */
  frame(k: number): Uint8Array | null;
}

/** A reader of stored frames: the chunks it needs, what it does with each, and what it makes of them. */
export interface ChunkReader<T> {
  /** The chunk indices it needs (none: nothing is read for it). */
  readonly chunks: Iterable<number>;
  /** Called once for each of its chunks, in ascending order. */
  take(chunk: StoredChunk): void;
  /** What it made, once the pass is over. */
  result(): T;
}

/** Every chunk 0 … chunkCount − 1: for readers that walk the whole pullback. */
export const allChunks = (chunkCount: number) => Array.from({ length: chunkCount }, (_, index) => index);

/** Reads each chunk that any of `readers` needs once, in ascending order, handing it to each of them. */
export async function readStoredChunks(imaging: ChunkImaging, record: ChunkRecord, readers: readonly ChunkReader<unknown>[]): Promise<void> {
  const readersOf = new Map<number, ChunkReader<unknown>[]>();
  for (const reader of readers) {
    for (const index of new Set(reader.chunks)) readersOf.set(index, [...(readersOf.get(index) ?? []), reader]);
  }
  const frameBytes = record.frameWidth * record.frameHeight;
  for (const index of [...readersOf.keys()].sort((a, b) => a - b)) {
    const pixels = await gunzip(await imaging.chunk(record, 'bmode', index));
    const chunk: StoredChunk = {
      index,
      pixels,
      frame: (k) => ((k + 1) * frameBytes <= pixels.length ? pixels.subarray(k * frameBytes, (k + 1) * frameBytes) : null),
    };
    for (const reader of readersOf.get(index)!) reader.take(chunk);
    // A long record is read between other requests, not in one block of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Runs one reader on its own: its result, its chunks read once. */
export async function readWith<T>(imaging: ChunkImaging, record: ChunkRecord, reader: ChunkReader<T>): Promise<T> {
  await readStoredChunks(imaging, record, [reader]);
  return reader.result();
}

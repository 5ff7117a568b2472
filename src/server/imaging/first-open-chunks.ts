/**
 * The chunks a first open waits for (issue 27: first open to Play < 2 s), made as soon as the
 * page asks for a record's image lists instead of when it asks for each chunk: the page renders
 * the review (about 0.4 s) before its first chunk request, and asks for the chunks Play needs only
 * once its first chunk has arrived, so until now both frame workers sat idle at first and one
 * of them again between rounds.
 */
import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../domain/constants.ts';
import { chunkCount, FRAMES_PER_CHUNK, type ImageSeriesName } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { GenerationPriority } from './generation-queue.ts';
import { storedChunkOf } from './imaging-keys.ts';

export interface FirstOpenChunk {
  readonly series: ImageSeriesName;
  readonly index: number;
  readonly priority: GenerationPriority;
  /** Play waits for it: no other page or background chunk starts before it is made (GenerationQueue). */
  readonly forPlay: boolean;
}

/**
 * In the order they are made: the first chunk of the series Play plays (the B-mode, or the
 * angiography run when there is no pullback; urgent, as the page asks for it), then the rest of
 * the frames Play needs (min(100, count) of it) at the page's own priority, then, with a pullback,
 * the angio run's first chunk. Its panel starts only once Play is ready (review-panels.tsx), so it
 * is made right after Play's chunks, before any other chunk, but Play no longer waits for it: 7
 * chunks on 2 frame workers instead of 8, and one decode less in the page before Play (issue 27).
 */
export function firstOpenChunks(bmodeCount: number, angioCount: number, framesPerChunk = FRAMES_PER_CHUNK): FirstOpenChunk[] {
  const [playSeries, count]: [ImageSeriesName, number] = bmodeCount > 0 ? ['bmode', bmodeCount] : ['angio', angioCount];
  if (count === 0) return [];
  const chunks: FirstOpenChunk[] = [{ series: playSeries, index: 0, priority: 'urgent', forPlay: true }];
  const playChunks = Math.min(chunkCount(count, framesPerChunk), Math.ceil(Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, count) / framesPerChunk));
  for (let index = 1; index < playChunks; index++) chunks.push({ series: playSeries, index, priority: 'demand', forPlay: true });
  // At 'demand' and queued before any page request for a later chunk: the first to start once Play's are made.
  if (playSeries === 'bmode' && angioCount > 0) chunks.push({ series: 'angio', index: 0, priority: 'demand', forPlay: false });
  return chunks;
}

/**
 * A demo record's first-open chunks not stored yet (looked for side by side, without reading them
 * where the store can), or none when the record's `completeMarker` is stored (all of it is made).
 */
export async function firstOpenChunksToMake(record: RecordRow, store: BlobStore, completeMarker: string): Promise<{ complete: boolean; chunks: FirstOpenChunk[] }> {
  const chunks = firstOpenChunks(record.bmodeFrameCount, record.angioFrameCount);
  const stored = async ({ series, index }: FirstOpenChunk) => {
    const { key } = storedChunkOf(record, series, index);
    return store.has ? store.has(key) : (await store.get(key)) !== null;
  };
  const [complete, ...made] = await Promise.all([store.get(completeMarker), ...chunks.map(stored)]);
  if (complete) return { complete: true, chunks: [] };
  return { complete: false, chunks: chunks.filter((_, i) => !made[i]) };
}

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
}

/**
 * In the order they are made: the first chunk of each series (what the page shows first: urgent,
 * as the page asks for them), then the rest of the frames Play needs (min(100, count) of the
 * B-mode, or of the angiography run when there is no pullback) at the page's own priority.
 */
export function firstOpenChunks(bmodeCount: number, angioCount: number, framesPerChunk = FRAMES_PER_CHUNK): FirstOpenChunk[] {
  const first: FirstOpenChunk[] = [];
  if (bmodeCount > 0) first.push({ series: 'bmode', index: 0, priority: 'urgent' });
  if (angioCount > 0) first.push({ series: 'angio', index: 0, priority: 'urgent' });
  const [playSeries, count]: [ImageSeriesName, number] = bmodeCount > 0 ? ['bmode', bmodeCount] : ['angio', angioCount];
  const playChunks = Math.min(chunkCount(count, framesPerChunk), Math.ceil(Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, count) / framesPerChunk));
  for (let index = 1; index < playChunks; index++) first.push({ series: playSeries, index, priority: 'demand' });
  return first;
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

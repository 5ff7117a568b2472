/**
 * A frame pack kept for the next visit by the decode worker that received it: the frames service
 * worker hands a pack the page decodes as it arrives straight through (STREAMED_FRAME_HEADER)
 * instead of storing it first, so the worker, which holds the whole pack once its last frame is
 * decoded, puts it in the same per-user cache, under the same URL, as the background download
 * would have. The background download then finds it there and does not fetch it again.
 */
import { FRAME_PACK_MEDIA_TYPE } from '../../domain/pixels/frame-pack.ts';

/** Where a pack is kept: the signed-in user's frames cache (sw/messages.ts framesCacheName) and the chunk's URL. */
export interface PackCacheEntry {
  readonly cache: string;
  readonly url: string;
}

export type KeepPack = (entry: PackCacheEntry, pack: Uint8Array<ArrayBuffer>) => Promise<void>;

/** Stores a whole, decoded pack unless it is there already (a revisit answered from the cache). */
export const keepPackInCache: KeepPack = async ({ cache, url }, pack) => {
  // A browser without Cache Storage in workers: the background download stores it.
  if (typeof caches === 'undefined') return;
  const frames = await caches.open(cache);
  if (await frames.match(url, { ignoreVary: true })) return;
  await frames.put(url, new Response(pack, { headers: { 'content-type': FRAME_PACK_MEDIA_TYPE, 'content-length': String(pack.byteLength) } }));
};

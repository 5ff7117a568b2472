/**
 * The frames service worker (a module worker): serves frame chunks and previews from Cache
 * Storage when it has them (one cache per signed-in user, see framesCacheName), and downloads the open record's frames in
 * the background, pausing when the page asks (stop_fetches / resume_fetches).
 */
import { STREAMED_FRAME_HEADER, URGENT_FRAME_HEADER } from '../../domain/images.ts';
import { createFrameLocationBook } from '../api/frame-location-book.ts';
import { followFrameLocation } from '../api/follow-frame-location.ts';
import { CACHED_PATH, FRAMES_CACHE_PREFIX, framesCacheName, isFramesCache, parsePageMessage, type WorkerMessage } from './messages.ts';
import { PrefetchQueue } from './prefetch-queue.ts';

// The DOM library types this file; the few service-worker types it uses are declared here.
interface SwExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface SwFetchEvent extends SwExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface SwMessageEvent extends SwExtendableEvent {
  readonly data: unknown;
}
interface SwScope {
  addEventListener(type: 'install' | 'activate', listener: (event: SwExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly location: Location;
  readonly clients: { claim(): Promise<void>; matchAll(): Promise<{ postMessage(message: unknown): void }[]> };
}
const scope = globalThis as unknown as SwScope;

let authorization = '';

/**
 * fetch for the app's frame chunks: with the store delivering, locations come in batches and each
 * chunk is one GET to the store (frame-location-book.ts); kept in the cache under the app's URL all the same.
 */
const frameFetch = createFrameLocationBook((input, init) => fetch(input, init));

async function broadcast(message: WorkerMessage): Promise<void> {
  for (const client of await scope.clients.matchAll()) client.postMessage(message);
}

/** The cache of the user whose token the page handed over with the download. */
function downloadCache(): Promise<Cache> {
  const name = framesCacheName(authorization);
  if (!name) throw new Error('no signed-in user to download frames for');
  return caches.open(name);
}

const queue = new PrefetchQueue({
  async isCached(url) {
    return (await (await downloadCache()).match(url, { ignoreVary: true })) !== undefined;
  },
  async download(url) {
    const cache = await downloadCache();
    // The app checks the token; with object storage it answers where the store delivers the bytes,
    // fetched from there with no credential and kept under the app's URL all the same.
    const response = await followFrameLocation(await frameFetch(url, { headers: { Authorization: authorization } }), fetch);
    // 202 (still being made) and errors are not kept: asked again later, they may succeed.
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    await cache.put(url, response);
  },
  onProgress: (progress) => void broadcast({ type: 'prefetch_progress', ...progress }),
});

async function cacheFirst(event: SwFetchEvent): Promise<Response> {
  const name = framesCacheName(event.request.headers.get('authorization'));
  if (!name) return fetch(event.request);
  const cache = await caches.open(name);
  const cached = await cache.match(event.request, { ignoreVary: true });
  if (cached) return cached;
  const response = await followFrameLocation(await frameFetch(event.request), fetch);
  if (response.status !== 200) return response;
  // The first image the page waits for: handed over untouched, so its bytes flow from the network to
  // the page without passing through this worker (a stored copy would tee them through its heap,
  // which held the first frame back by a few hundred ms). The background download stores it later.
  if (event.request.headers.has(URGENT_FRAME_HEADER)) return response;
  // A frame pack the page decodes as it arrives: storing it first would hold its frames back until
  // its last byte; the page's decode worker stores it once whole (pack-cache.ts).
  if (event.request.headers.has(STREAMED_FRAME_HEADER)) return response;
  // The body streams from the network into Cache Storage and from there to the page, natively. Handing
  // the page a clone instead (a tee) passed every byte through this worker's JavaScript heap, where
  // half a gigabyte of a long pullback waited for the worker's garbage collector.
  await cache.put(event.request, response);
  return (await cache.match(event.request, { ignoreVary: true })) ?? fetch(event.request);
}

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
// The one cache of v1 held every user's frames together: gone with this version.
async function deleteOldCaches(): Promise<void> {
  for (const name of await caches.keys()) if (isFramesCache(name) && !name.startsWith(FRAMES_CACHE_PREFIX)) await caches.delete(name);
}
scope.addEventListener('activate', (event) => event.waitUntil(deleteOldCaches().then(() => scope.clients.claim())));

scope.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== scope.location.origin || !CACHED_PATH.test(url.pathname)) return;
  event.respondWith(cacheFirst(event));
});

scope.addEventListener('message', (event) => {
  const message = parsePageMessage(event.data);
  if (!message) return;
  switch (message.type) {
    case 'prefetch':
      authorization = message.authorization;
      queue.start(message.recordId, message.items, message.slice);
      break;
    case 'prefetch_focus':
      queue.focus(message.recordId, message.slice);
      break;
    case 'stop_fetches':
      queue.stop();
      break;
    case 'resume_fetches':
      queue.resume();
      break;
  }
});

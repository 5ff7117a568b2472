/**
 * Frame chunks from the object store at the store's own rate (issue 27): once the app's answer for a
 * chunk says the store delivers (a frame location), the next chunks' locations are asked for in
 * batches, one authorised request per batch, and each chunk is then a single GET to the store.
 *
 * The book is a fetch for chunk URLs: it answers with the store's response when it holds a fresh
 * location, and otherwise passes the request on as it came (headers, urgency and all), so callers
 * keep following a location answer themselves (followFrameLocation) and keep their cache keys.
 * Anything doubtful takes today's per-chunk path: a chunk the batch lists as not ready (a demo record
 * still being made), a location near or past its expiry, a store answer that is not a 200 (403 once
 * a URL expired), a batch that failed. A broken or stale URL never reaches the page as a frame.
 */
import { isFrameLocationType, MAX_FRAME_LOCATION_BATCH, parseFrameLocationBatch } from '../../domain/frame-location.ts';
import { STORE_REQUEST } from './follow-frame-location.ts';

export type FrameFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export type FrameLocationBookOptions = {
  /** Chunks per batch: the chunk asked for and those after it. */
  batchSize?: number;
  /** A location this close to its expiry is asked for again: the store's GET must start well before it. */
  expiryMarginMs?: number;
  now?: () => number;
};

export const DEFAULT_BATCH_SIZE = 64;
export const DEFAULT_EXPIRY_MARGIN_MS = 30_000;
const MAX_SERIES_BOOKS = 16;

/** /api/{tenant}/records/{id}/frames/{series}/{chunk}: the route, without its query. */
const CHUNK_PATH = /^(\/api\/[^/]+\/records\/[^/]+)\/frames\/(bmode|angio)\/(\d{1,6})$/;

type ChunkUrl = { key: string; chunk: number; batchUrl: (from: number, count: number) => string };

/** What the book needs to know of a chunk request's URL; null for any other request. */
function chunkUrlOf(url: string, authorization: string): ChunkUrl | null {
  const relative = url.startsWith('/');
  const parsed = new URL(url, 'http://relative.invalid');
  const match = CHUNK_PATH.exec(parsed.pathname);
  const version = parsed.searchParams.get('v');
  if (!match || version === null) return null;
  const [, recordPath, series] = match;
  const origin = relative ? '' : parsed.origin;
  return {
    // Per user: a location handed to one user's token is never used for another's request.
    key: `${authorization}\n${recordPath}/${series}?v=${version}`,
    chunk: Number(match[3]),
    batchUrl: (from, count) =>
      `${origin}${recordPath}/frame-locations/${series}?${new URLSearchParams({ v: version, from: String(from), count: String(count) })}`,
  };
}

type Location = { url: string; expiresAt: number };

/** What the book knows of one series (of one version, for one user) that the store delivers. */
type SeriesBook = {
  locations: Map<number, Location>;
  /** Batches on their way, by first chunk and count: a request for a chunk they cover waits for them. */
  pending: { from: number; count: number; done: Promise<void> }[];
  /** The batch route refused (an older server, a replaced version): per chunk from here on. */
  refused: boolean;
};

/**
 * The URL, the user and the caller's own signal. A Request's signal is not taken: in the service
 * worker it is the page's, which a reload aborts, and the chunk the worker was fetching from the
 * store would then be lost to its cache (today's per-chunk path does not abort it either).
 */
function requestParts(input: RequestInfo | URL, init?: RequestInit): { url: string; authorization: string; signal?: AbortSignal } {
  if (typeof input === 'object' && 'headers' in input) {
    return { url: input.url, authorization: input.headers.get('authorization') ?? '', signal: init?.signal ?? undefined };
  }
  return { url: String(input), authorization: new Headers(init?.headers).get('authorization') ?? '', signal: init?.signal ?? undefined };
}

export function createFrameLocationBook(fetchImpl: FrameFetch, options: FrameLocationBookOptions = {}): FrameFetch {
  const batchSize = Math.min(Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE), MAX_FRAME_LOCATION_BATCH);
  const margin = options.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS;
  const now = options.now ?? Date.now;
  const books = new Map<string, SeriesBook>();

  async function askBatch(book: SeriesBook, target: ChunkUrl, authorization: string): Promise<void> {
    const from = target.chunk;
    try {
      // No signal: a batch serves every request waiting for it, not only the one that started it.
      const response = await fetchImpl(target.batchUrl(from, batchSize), { headers: { Authorization: authorization, Accept: 'application/json' } });
      // A 4xx (an older server without the route, a replaced version, a token gone) stays so for this
      // series and user; a 5xx may pass.
      if (!response.ok) return void (book.refused ||= response.status < 500);
      const found = parseFrameLocationBatch(await response.json());
      if (!found) return void (book.refused = true);
      for (const [chunk, location] of found) {
        const expiresAt = Date.parse(location.expiresAt);
        if (Number.isFinite(expiresAt)) book.locations.set(chunk, { url: location.url, expiresAt });
      }
    } catch {
      // The network or an unreadable answer: this chunk and the next go per chunk, and ask again later.
    }
  }

  /** A fresh location for the chunk, asking a batch when none is known; null: ask for the chunk alone. */
  async function locationOf(book: SeriesBook, target: ChunkUrl, authorization: string): Promise<Location | null> {
    const fresh = () => {
      const known = book.locations.get(target.chunk);
      if (known && known.expiresAt - margin > now()) return known;
      if (known) book.locations.delete(target.chunk);
      return null;
    };
    const known = fresh();
    if (known || book.refused) return known;
    const covering = book.pending.find((p) => p.from <= target.chunk && target.chunk < p.from + p.count);
    if (covering) {
      await covering.done;
      return fresh();
    }
    const entry = { from: target.chunk, count: batchSize, done: askBatch(book, target, authorization) };
    book.pending.push(entry);
    await entry.done;
    book.pending.splice(book.pending.indexOf(entry), 1);
    return fresh();
  }

  return async (input, init) => {
    const { url, authorization, signal } = requestParts(input, init);
    const target = chunkUrlOf(url, authorization);
    if (!target) return fetchImpl(input, init);
    const book = books.get(target.key);
    if (book) {
      const location = await locationOf(book, target, authorization);
      if (location) {
        const stored = await fetchImpl(location.url, { ...STORE_REQUEST, signal });
        if (stored.status === 200) return stored;
        // Expired (403), or the store failed: this URL is done with, the app is asked for the chunk.
        book.locations.delete(target.chunk);
        await stored.body?.cancel().catch(() => undefined);
      }
    }
    const answer = await fetchImpl(input, init);
    // The first location answer says the store delivers this series: batches from the next request on.
    if (!book && answer.ok && isFrameLocationType(answer.headers.get('content-type'))) {
      books.set(target.key, { locations: new Map(), pending: [], refused: false });
      // The series of the last few records opened: an older one is simply batched again when reopened.
      if (books.size > MAX_SERIES_BOOKS) books.delete(books.keys().next().value!);
    }
    return answer;
  };
}

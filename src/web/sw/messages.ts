/** Messages between the page and the frames service worker, and the names of its caches. */
import { decodeJwtClaims } from '../auth/session-user.ts';

/** Every frames cache's name starts with this; v1 was one cache for whoever used the browser. */
export const FRAMES_CACHE_PREFIX = 'ivus-frames-v2 ';

/**
 * The cache of the user a request's `Authorization: Bearer <id token>` names (issuer and subject), so
 * one person's downloaded frames are never served to another signed in on the same browser. Null
 * without a readable token: such a request goes to the network, which refuses it. The token is read,
 * not verified: the server verifies every request, and the cache only chooses whose shelf to use.
 */
export function framesCacheName(authorization: string | null | undefined): string | null {
  const token = /^Bearer\s+(\S+)$/.exec(authorization ?? '')?.[1];
  const claims = decodeJwtClaims(token);
  const { iss, sub } = claims ?? {};
  return typeof iss === 'string' && typeof sub === 'string' && iss && sub ? `${FRAMES_CACHE_PREFIX}${iss} ${sub}` : null;
}

/** Whether a cache is one of ours (any version, any user): sign-out deletes them all. */
export const isFramesCache = (name: string): boolean => name.startsWith('ivus-frames-');

/** Paths the worker serves from its cache first: frame chunks and previews (the page builds the L-mode). */
export const CACHED_PATH = /^\/api\/[a-z0-9-]+\/records\/[0-9a-f-]{36}\/(frames\/|previews\/)/;

/** A chunk to download and the 1-based slices it serves (chunk-spans.ts), so the queue can follow the slice. */
export interface PrefetchItem {
  url: string;
  first: number;
  last: number;
}

export type PageMessage =
  | { type: 'prefetch'; recordId: string; items: PrefetchItem[]; slice: number; authorization: string }
  | { type: 'prefetch_focus'; recordId: string; slice: number }
  | { type: 'stop_fetches' }
  | { type: 'resume_fetches' };

/** Progress of one record's download: the page ignores what is about another record. */
export type WorkerMessage = { type: 'prefetch_progress'; recordId: string; done: number; total: number; failed: string[]; paused: boolean };

const isSlice = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function prefetchItemOf(value: unknown): PrefetchItem | null {
  if (typeof value !== 'object' || value === null) return null;
  const { url, first, last } = value as Record<string, unknown>;
  return typeof url === 'string' && CACHED_PATH.test(url) && isSlice(first) && isSlice(last) ? { url, first, last } : null;
}

/** The spec names the pause and resume messages `stop_fetches` and `resume_fetches`; plain strings are accepted too. */
export function parsePageMessage(data: unknown): PageMessage | null {
  if (data === 'stop_fetches' || data === 'resume_fetches') return { type: data };
  if (typeof data !== 'object' || data === null || !('type' in data)) return null;
  const message = data as Record<string, unknown>;
  switch (message.type) {
    case 'stop_fetches':
    case 'resume_fetches':
      return { type: message.type };
    case 'prefetch':
      if (!Array.isArray(message.items) || typeof message.authorization !== 'string' || typeof message.recordId !== 'string' || !isSlice(message.slice)) return null;
      return {
        type: 'prefetch',
        recordId: message.recordId,
        items: message.items.map(prefetchItemOf).filter((item) => item !== null),
        slice: message.slice,
        authorization: message.authorization,
      };
    case 'prefetch_focus':
      if (typeof message.recordId !== 'string' || !isSlice(message.slice)) return null;
      return { type: 'prefetch_focus', recordId: message.recordId, slice: message.slice };
    default:
      return null;
  }
}

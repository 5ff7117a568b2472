/** Messages between the page and the frames service worker. */
export const FRAMES_CACHE = 'ivus-frames-v1';

/** Paths the worker serves from its cache first: frame chunks, L-mode images and previews. */
export const CACHED_PATH = /^\/api\/[a-z0-9-]+\/records\/[0-9a-f-]{36}\/(frames\/|lmode|previews\/)/;

export type PageMessage =
  | { type: 'prefetch'; urls: string[]; authorization: string }
  | { type: 'stop_fetches' }
  | { type: 'resume_fetches' };

export type WorkerMessage = { type: 'prefetch_progress'; done: number; total: number; failed: string[]; paused: boolean };

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
      if (!Array.isArray(message.urls) || typeof message.authorization !== 'string') return null;
      return {
        type: 'prefetch',
        urls: message.urls.filter((u): u is string => typeof u === 'string' && CACHED_PATH.test(u)),
        authorization: message.authorization,
      };
    default:
      return null;
  }
}

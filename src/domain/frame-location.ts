/**
 * The frame route's answer when the object store delivers the bytes (issue 27): where the browser
 * fetches the chunk itself, without the app's credentials, and until when that address works.
 */
export const FRAME_LOCATION_TYPE = 'application/vnd.ivus.frame-location+json';

export type FrameLocation = { url: string; expiresAt: string };

/** The answer's body, or null when it is not one (anything else is the chunk's bytes or an error). */
export function parseFrameLocation(body: unknown): FrameLocation | null {
  if (typeof body !== 'object' || body === null) return null;
  const { url, expiresAt } = body as Record<string, unknown>;
  if (typeof url !== 'string' || typeof expiresAt !== 'string' || !URL.canParse(url)) return null;
  // Only http(s): a location is fetched, never navigated to or run.
  return /^https?:$/.test(new URL(url).protocol) ? { url, expiresAt } : null;
}

/** Whether a response's Content-Type names a frame location. */
export const isFrameLocationType = (contentType: string | null): boolean => (contentType ?? '').split(';')[0]!.trim().toLowerCase() === FRAME_LOCATION_TYPE;

/**
 * Most chunks one batch of locations names. A 3,600-frame pullback is 225 chunks of 16 frames, so
 * one batch covers a whole record; the cap bounds what one request can cost a replica (a signature,
 * or a HEAD while a demo record is still being made, per chunk; ~0.5 KB of answer each).
 */
export const MAX_FRAME_LOCATION_BATCH = 256;

/** One chunk of a batch: where the store delivers it, or not stored yet (asked for alone, which waits for it). */
export type BatchedFrameLocation = ({ chunk: number } & FrameLocation) | { chunk: number; ready: false };

/** The batch route's answer: consecutive chunks from `from` (fewer than asked at the series' end). */
export type FrameLocationBatch = { from: number; locations: BatchedFrameLocation[] };

/** The chunks of a batch answer whose location can be followed, by chunk; null when it is not a batch answer. */
export function parseFrameLocationBatch(body: unknown): Map<number, FrameLocation> | null {
  if (typeof body !== 'object' || body === null) return null;
  const { locations } = body as Record<string, unknown>;
  if (!Array.isArray(locations)) return null;
  const found = new Map<number, FrameLocation>();
  for (const entry of locations as unknown[]) {
    const chunk = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).chunk : undefined;
    const location = parseFrameLocation(entry);
    // An entry not ready, or unreadable, is simply not followed: the chunk is asked for alone.
    if (Number.isSafeInteger(chunk) && (chunk as number) >= 0 && location) found.set(chunk as number, location);
  }
  return found;
}

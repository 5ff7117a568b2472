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

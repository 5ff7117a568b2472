import { isFrameLocationType, parseFrameLocation } from '../../domain/frame-location.ts';

/**
 * Why a JSON location and not a redirect: the page and the service worker send the frame route an
 * Authorization header. A 307 to the store would be followed by fetch with that request's headers
 * (only recent browsers drop Authorization on a cross-origin redirect), its custom urgency header
 * would turn the store's GET into a CORS preflight, and a service worker cannot read a redirect's
 * Location to do better (redirect: 'manual' gives an opaque answer). Answered a location, the caller
 * builds the store's request itself: a plain GET with no credential at all, which the service worker
 * then keeps under the app's own URL, so the next open needs neither the app nor the store.
 */

/** Options of the store's request: no Authorization, no cookies, no Referer naming the record. */
export const STORE_REQUEST: RequestInit = { method: 'GET', mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' };

/**
 * The chunk itself: `response` as it is when the app sent the bytes (or an error), else the store's
 * answer to the location the app signed. An unreadable location is a 502: the app answered nonsense.
 */
export async function followFrameLocation(response: Response, fetchImpl: typeof fetch, signal?: AbortSignal): Promise<Response> {
  if (!response.ok || !isFrameLocationType(response.headers.get('content-type'))) return response;
  let location = null;
  try {
    location = parseFrameLocation(await response.json());
  } catch {
    // Not JSON: refused below.
  }
  if (!location) return new Response(null, { status: 502, statusText: 'unreadable frame location' });
  return fetchImpl(location.url, { ...STORE_REQUEST, signal });
}

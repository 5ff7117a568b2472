import { describe, expect, it, vi } from 'vitest';
import { FRAME_LOCATION_TYPE } from '../../../src/domain/frame-location.ts';
import { createApiClient } from '../../../src/web/api/api-client.ts';
import { followFrameLocation } from '../../../src/web/api/follow-frame-location.ts';

/** Frame chunks delivered by the object store (issue 27): the app answers where, the page or its service worker fetches from there. */
const STORE_URL = 'https://frames.example.org/frames/demo/r1/v1/bmode/00000.u8.gz?X-Amz-Signature=abc';
const location = () =>
  new Response(JSON.stringify({ url: STORE_URL, expiresAt: '2026-11-26T13:05:00.000Z' }), { headers: { 'content-type': FRAME_LOCATION_TYPE, 'cache-control': 'no-store' } });
const chunk = () => new Response(new Uint8Array([7, 8, 9]), { headers: { 'content-type': 'application/octet-stream' } });

describe('following a frame location', () => {
  it('fetches the store with no credential, no cookie and no Referer naming the record', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => chunk());
    const response = await followFrameLocation(location(), fetchMock);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([7, 8, 9]));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(STORE_URL);
    expect(init).toMatchObject({ method: 'GET', mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
    expect(init?.headers).toBeUndefined();
  });

  it('leaves the bytes the app sent itself, and its errors, as they are', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    const bytes = chunk();
    expect(await followFrameLocation(bytes, fetchMock)).toBe(bytes);
    const refused = Response.json({ error: 'not_found' }, { status: 404 });
    expect(await followFrameLocation(refused, fetchMock)).toBe(refused);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('never follows a location that is not an http(s) URL', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    for (const body of ['{"url":"javascript:alert(1)","expiresAt":"x"}', '{"url":"/relative","expiresAt":"x"}', 'not json', '{}']) {
      const response = await followFrameLocation(new Response(body, { headers: { 'content-type': FRAME_LOCATION_TYPE } }), fetchMock);
      expect(response.status, body).toBe(502);
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('a page without the frames service worker', () => {
  const client = (fetchMock: typeof fetch) => createApiClient({ tenant: 'demo', getCredentials: () => ({ idToken: 'id.token.sig', tokenType: 'Bearer' }), onUnauthorized: () => {}, fetch: fetchMock });

  it('gets the chunk from the store: the token goes to the app only', async () => {
    const fetchMock = vi.fn<typeof fetch>(async (url) => (String(url).startsWith('/api/') ? location() : chunk()));
    expect(await client(fetchMock).getBytes('records/r1/frames/bmode/0?v=v1', { urgent: true })).toEqual(new Uint8Array([7, 8, 9]));
    const [[appUrl, appInit], [storeUrl, storeInit]] = fetchMock.mock.calls as [[string, RequestInit], [string, RequestInit]];
    expect(appUrl).toBe('/api/demo/records/r1/frames/bmode/0?v=v1');
    expect((appInit.headers as Record<string, string>).Authorization).toBe('Bearer id.token.sig');
    expect((appInit.headers as Record<string, string>).Accept).toContain(FRAME_LOCATION_TYPE);
    expect(storeUrl).toBe(STORE_URL);
    expect(storeInit.headers).toBeUndefined();
    expect(storeInit.credentials).toBe('omit');
  });

  it("reports the store's refusal (an expired URL) as an error, not as frames", async () => {
    const fetchMock = vi.fn<typeof fetch>(async (url) =>
      String(url).startsWith('/api/') ? location() : new Response('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', { status: 403 }),
    );
    await expect(client(fetchMock).getBytes('records/r1/frames/bmode/0?v=v1')).rejects.toMatchObject({ status: 403 });
  });
});

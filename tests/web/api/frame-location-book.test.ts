import { describe, expect, it, vi } from 'vitest';
import { FRAME_LOCATION_TYPE } from '../../../src/domain/frame-location.ts';
import { createApiClient } from '../../../src/web/api/api-client.ts';
import { createFrameLocationBook } from '../../../src/web/api/frame-location-book.ts';

/**
 * Issue 27 at scale: once the store delivers, the page (or its service worker) asks the app where
 * many chunks are in one request, then gets each chunk from the store, and falls back to asking the
 * app for a chunk alone whenever a location is missing, stale or refused.
 */
const T0 = Date.parse('2026-11-27T02:00:00Z');
const chunkUrl = (chunk: number) => `/api/demo/records/r1/frames/bmode/${chunk}?v=v1`;
const storeUrl = (chunk: number, signature = 'a') => `https://frames.example.org/b/demo/r1/v1/bmode/${chunk}.ivfp?X-Amz-Signature=${signature}`;
const AUTH = { Authorization: 'Bearer alice' };

/** The app and the store of one test: each request recorded, the batch answer built from `ready`. */
function network(
  options: { ready?: (chunk: number) => boolean; batchStatus?: number; storeStatus?: (url: string) => number; appSendsBytes?: boolean; now?: () => number } = {},
) {
  // Signed for five minutes from the app's clock, as the server does.
  const expires = () => new Date((options.now ?? (() => T0))() + 300_000).toISOString();
  const calls: { url: string; headers: Headers; credentials?: RequestCredentials; signal?: AbortSignal | null }[] = [];
  let signature = 'a';
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, headers: new Headers(input instanceof Request ? input.headers : init?.headers), credentials: init?.credentials, signal: init?.signal });
    if (url.startsWith('https://frames.example.org/')) {
      const status = options.storeStatus?.(url) ?? 200;
      return new Response(status === 200 ? new Uint8Array([Number(/bmode\/(\d+)/.exec(url)![1])]) : 'AccessDenied', { status });
    }
    const batch = /frame-locations\/bmode\?v=v1&from=(\d+)&count=(\d+)$/.exec(url);
    if (batch) {
      if (options.batchStatus) return Response.json({ error: 'not_found', message: 'no' }, { status: options.batchStatus });
      const from = Number(batch[1]);
      const locations = Array.from({ length: Math.min(Number(batch[2]), 19 - from) }, (_, i) =>
        (options.ready?.(from + i) ?? true) ? { chunk: from + i, url: storeUrl(from + i, signature), expiresAt: expires() } : { chunk: from + i, ready: false },
      );
      return Response.json({ from, locations });
    }
    const chunk = Number(/frames\/bmode\/(\d+)/.exec(url)![1]);
    if (options.appSendsBytes) return new Response(new Uint8Array([chunk]), { headers: { 'content-type': 'application/octet-stream' } });
    return new Response(JSON.stringify({ url: storeUrl(chunk), expiresAt: expires() }), { headers: { 'content-type': FRAME_LOCATION_TYPE } });
  });
  const appCalls = () => calls.filter((c) => c.url.startsWith('/api/')).map((c) => c.url.replace('/api/demo/records/r1/', ''));
  return { fetchMock, calls, appCalls, resign: (next: string) => (signature = next) };
}

const bytesOf = async (response: Response) => Array.from(new Uint8Array(await response.arrayBuffer()));

describe('frame locations in batches', () => {
  it('asks one batch after the first location answer, then gets each chunk from the store with no credential', async () => {
    const net = network();
    const frames = createFrameLocationBook(net.fetchMock, { batchSize: 8, now: () => T0 });
    // The first answer is a location: handed back as it is, for the caller to follow.
    const first = await frames(chunkUrl(0), { headers: AUTH });
    expect(first.headers.get('content-type')).toBe(FRAME_LOCATION_TYPE);
    // Four chunks asked for together share one batch.
    const answers = await Promise.all([1, 2, 3, 4].map((chunk) => frames(chunkUrl(chunk), { headers: AUTH })));
    expect(await Promise.all(answers.map(bytesOf))).toEqual([[1], [2], [3], [4]]);
    expect(net.appCalls()).toEqual(['frames/bmode/0?v=v1', 'frame-locations/bmode?v=v1&from=1&count=8']);
    const batch = net.calls.find((c) => c.url.includes('frame-locations'))!;
    expect(batch.headers.get('authorization')).toBe('Bearer alice');
    for (const store of net.calls.filter((c) => c.url.startsWith('https://'))) {
      expect(store.headers.get('authorization')).toBeNull();
      expect(store.credentials).toBe('omit');
    }
    // Past the batch's end: the next batch.
    await frames(chunkUrl(9), { headers: AUTH });
    expect(net.appCalls().at(-1)).toBe('frame-locations/bmode?v=v1&from=9&count=8');
  });

  it('asks the app for a chunk not made yet, urgent as the page asked, and never waits on the batch for it', async () => {
    const net = network({ ready: (chunk) => chunk !== 2 });
    const frames = createFrameLocationBook(net.fetchMock, { batchSize: 4, now: () => T0 });
    await frames(chunkUrl(0), { headers: AUTH });
    const answer = await frames(chunkUrl(2), { headers: { ...AUTH, 'X-Ivus-Urgent': '1' } });
    expect(answer.headers.get('content-type')).toBe(FRAME_LOCATION_TYPE);
    expect(net.appCalls()).toEqual(['frames/bmode/0?v=v1', 'frame-locations/bmode?v=v1&from=2&count=4', 'frames/bmode/2?v=v1']);
    expect(net.calls.at(-1)!.headers.get('x-ivus-urgent')).toBe('1');
    // Its neighbours came with the batch.
    expect(await bytesOf(await frames(chunkUrl(3), { headers: AUTH }))).toEqual([3]);
    expect(net.appCalls()).toHaveLength(3);
  });

  it('asks again for a location near its expiry, and for a chunk whose URL the store refuses', async () => {
    let now = T0;
    const net = network({ storeStatus: (url) => (url.endsWith('Signature=a') && url.includes('/5.ivfp') ? 403 : 200), now: () => now });
    const frames = createFrameLocationBook(net.fetchMock, { batchSize: 8, expiryMarginMs: 30_000, now: () => now });
    await frames(chunkUrl(0), { headers: AUTH });
    expect(await bytesOf(await frames(chunkUrl(1), { headers: AUTH }))).toEqual([1]);
    // The store says 403 (expired early, a clock ahead): the app is asked for the chunk alone, and its location followed by the caller.
    const refused = await frames(chunkUrl(5), { headers: AUTH });
    expect(refused.status).toBe(200);
    expect(refused.headers.get('content-type')).toBe(FRAME_LOCATION_TYPE);
    expect(net.appCalls().at(-1)).toBe('frames/bmode/5?v=v1');
    // 30 s before expiry a URL is not used: a new batch with new signatures.
    now = T0 + 271_000;
    net.resign('b');
    expect(await bytesOf(await frames(chunkUrl(2), { headers: AUTH }))).toEqual([2]);
    expect(net.appCalls().at(-1)).toBe('frame-locations/bmode?v=v1&from=2&count=8');
    expect(net.calls.at(-1)!.url).toBe(storeUrl(2, 'b'));
  });

  it('keeps the per-chunk path when the app sends the bytes, or the batch is refused', async () => {
    const local = network({ appSendsBytes: true });
    const frames = createFrameLocationBook(local.fetchMock, { now: () => T0 });
    for (const chunk of [0, 1, 2]) expect(await bytesOf(await frames(chunkUrl(chunk), { headers: AUTH }))).toEqual([chunk]);
    expect(local.appCalls()).toEqual([0, 1, 2].map((chunk) => `frames/bmode/${chunk}?v=v1`));

    const refusing = network({ batchStatus: 404 });
    const refused = createFrameLocationBook(refusing.fetchMock, { now: () => T0 });
    for (const chunk of [0, 1, 2]) expect((await refused(chunkUrl(chunk), { headers: AUTH })).headers.get('content-type')).toBe(FRAME_LOCATION_TYPE);
    // One batch tried, then each chunk of the app as before.
    expect(refusing.appCalls()).toEqual(['frames/bmode/0?v=v1', 'frame-locations/bmode?v=v1&from=1&count=64', 'frames/bmode/1?v=v1', 'frames/bmode/2?v=v1']);
  });

  it("never uses one user's locations for another user's request", async () => {
    const net = network();
    const frames = createFrameLocationBook(net.fetchMock, { now: () => T0 });
    await frames(chunkUrl(0), { headers: AUTH });
    await frames(chunkUrl(1), { headers: AUTH });
    await frames(chunkUrl(2), { headers: { Authorization: 'Bearer bob' } });
    expect(net.appCalls()).toEqual(['frames/bmode/0?v=v1', 'frame-locations/bmode?v=v1&from=1&count=64', 'frames/bmode/2?v=v1']);
    expect(net.calls.at(-1)!.headers.get('authorization')).toBe('Bearer bob');
  });

  it('serves a Request as the service worker gets it, absolute URL and headers included', async () => {
    const net = network();
    const frames = createFrameLocationBook(net.fetchMock, { now: () => T0 });
    const page = new AbortController();
    const request = (chunk: number) => new Request(`https://demo.example.org${chunkUrl(chunk)}`, { headers: AUTH, signal: page.signal });
    await frames(request(0));
    expect(await bytesOf(await frames(request(1)))).toEqual([1]);
    expect(net.calls.map((c) => c.url)).toContain('https://demo.example.org/api/demo/records/r1/frame-locations/bmode?v=v1&from=1&count=64');
    // The page's signal (a reload aborts it) does not cancel the worker's store GET, which its cache keeps.
    expect(net.calls.at(-1)!.signal ?? null).toBeNull();
  });

  it("cancels the store's GET with the page's own request when the page gives up", async () => {
    const net = network();
    const frames = createFrameLocationBook(net.fetchMock, { now: () => T0 });
    const page = new AbortController();
    await frames(chunkUrl(0), { headers: AUTH });
    await frames(chunkUrl(1), { headers: AUTH, signal: page.signal });
    expect(net.calls.at(-1)!.url).toBe(storeUrl(1));
    expect(net.calls.at(-1)!.signal).toBe(page.signal);
  });
});

describe('a page without the frames service worker', () => {
  it('gets later chunks from the store through one batch of locations', async () => {
    const net = network({ now: Date.now });
    const client = createApiClient({ tenant: 'demo', getCredentials: () => ({ idToken: 'alice', tokenType: 'Bearer' }), onUnauthorized: () => {}, fetch: net.fetchMock });
    for (const chunk of [0, 1, 2, 3]) expect(Array.from((await client.getBytes(`records/r1/frames/bmode/${chunk}?v=v1`))!)).toEqual([chunk]);
    expect(net.appCalls()).toEqual(['frames/bmode/0?v=v1', 'frame-locations/bmode?v=v1&from=1&count=64']);
  });
});

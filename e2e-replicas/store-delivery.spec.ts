/**
 * Issue 27, "app servers authorise, the store delivers": through HAProxy and two replicas on S3
 * (s3rver), a review's frame chunks reach the browser from the bucket by signed URLs, the replicas
 * sending only the small answers that say where; the store refuses an expired or tampered URL; a
 * record of another tenant gives no URL; and a second open is served from the service worker's cache.
 */
import http from 'node:http';
import { AwsClient } from 'aws4fetch';
import { expect, test, type Page } from '@playwright/test';
import { presignGet } from '../src/server/storage/signed-url.ts';
import { shortRecordHref } from '../e2e/open-review.ts';
import { signIn, storedIdToken } from '../e2e/sign-in.ts';
import { BALANCER_PORT } from './balancer-port.ts';
import { delivery, SKIP_VARIABLE } from './control.ts';

test.skip(!!process.env[SKIP_VARIABLE], `the replicas run needs HAProxy and PostgreSQL: ${process.env[SKIP_VARIABLE]}`);

const FRAMES_LOADED = /300 B-mode and 40 angio frames (loaded|downloaded)/;
const CHUNKS = 19 + 3; // 300 B-mode and 40 angiography frames, 16 a chunk
const drawnSlice = (page: Page) => page.getByTestId('panel-canvas-bmode');

type Answer = { status: number; type: string; body: string };

/** A GET from the page (Chromium resolves *.localhost), with the signed-in user's token when `withToken`. */
async function pageGet(page: Page, url: string, withToken: boolean): Promise<Answer> {
  const authorization = withToken ? `Bearer ${await storedIdToken(page)}` : null;
  return page.evaluate(async ({ url, authorization }) => {
    const response = await fetch(url, authorization ? { headers: { authorization } } : { credentials: 'omit' });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
  }, { url, authorization });
}

/** A GET to the balancer from this process, past the page's service worker (which would answer from its cache). */
function balancerGet(path: string, authorization: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: BALANCER_PORT, path, headers: { host: `demo.localhost:${BALANCER_PORT}`, authorization } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (body += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), body }));
    });
    request.on('error', reject);
  });
}

test('frames come from the store by signed URLs, the replicas only authorise, and a second open needs neither', async ({ page }) => {
  // The frame requests the page makes: all must be answered by the service worker (its cache or what it fetched).
  const frameAnswers: { url: string; fromServiceWorker: boolean }[] = [];
  page.on('response', (response) => {
    if (/\/frames\//.test(response.url())) frameAnswers.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() });
  });
  // What the service worker asks the app (Playwright reports its requests on the context): locations
  // one chunk at a time until the first says the store delivers, then in batches (issue 27, scale).
  const askedApp = { chunks: 0, batches: 0 };
  page.context().on('request', (request) => {
    if (!request.serviceWorker()) return;
    if (/\/api\/demo\/records\/[^/]+\/frame-locations\//.test(request.url())) askedApp.batches++;
    else if (/\/api\/demo\/records\/[^/]+\/frames\//.test(request.url())) askedApp.chunks++;
  });
  await signIn(page);
  const href = await shortRecordHref(page);
  const recordId = /\/records\/([^/]+)\/review/.exec(href)![1]!;

  // 1. First open: every chunk downloaded, from the store.
  const before = await delivery();
  await page.goto(href);
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '1', { timeout: 60_000 });
  await expect(page.getByTestId('frames-status')).toHaveText(FRAMES_LOADED, { timeout: 120_000 });
  await page.keyboard.press('End');
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '300');
  const opened = await delivery();
  const storeBytes = opened.store.bytes - before.store.bytes;
  const replicaBytes = opened.replicas.bytesOut - before.replicas.bytesOut;
  const figures =
    `store: ${opened.store.served - before.store.served} GETs, ${(storeBytes / 1e6).toFixed(1)} MB; replicas: ${opened.replicas.requests - before.replicas.requests} requests, ${(replicaBytes / 1e6).toFixed(2)} MB; ` +
    `the service worker asked ${askedApp.chunks} chunk locations alone and ${askedApp.batches} batches`;
  test.info().annotations.push({ type: 'first open', description: figures });
  console.info(`  first open: ${figures}`);
  expect(opened.store.served - before.store.served).toBeGreaterThanOrEqual(CHUNKS);
  // 300 losslessly packed 512 x 512 frames are tens of megabytes; the replicas sent locations, JSON and the app's code.
  expect(storeBytes).toBeGreaterThan(20e6);
  expect(replicaBytes).toBeLessThan(storeBytes / 5);
  expect(opened.store.refused).toEqual(before.store.refused);
  // Once a location said the store delivers, the rest came in batches (chunks still being made are asked alone).
  expect(askedApp.batches).toBeGreaterThanOrEqual(1);

  // 2. What the page shows is what the store holds: each chunk the worker kept under the app's URL is
  // the frame pack the store holds, byte for byte (not content-encoded), as a fresh fetch from the store gives it.
  const images = JSON.parse((await pageGet(page, `/api/demo/records/${recordId}/images`, true)).body) as { bmode: { chunks: string[] } };
  const location = await balancerGet(`/api/demo/${images.bmode.chunks[5]}`, `Bearer ${await storedIdToken(page)}`);
  expect(location.type).toContain('application/vnd.ivus.frame-location+json');
  const { url } = JSON.parse(location.body) as { url: string };
  const comparison = await page.evaluate(async ({ appUrl, storeUrl }) => {
    const names = (await caches.keys()).filter((name) => name.startsWith('ivus-frames-'));
    const cached = names.length === 1 ? await (await caches.open(names[0]!)).match(appUrl, { ignoreVary: true }) : undefined;
    const cachedBytes = new Uint8Array(cached ? await cached.arrayBuffer() : new ArrayBuffer(0));
    const fresh = await fetch(storeUrl, { credentials: 'omit' });
    const freshBytes = new Uint8Array(await fresh.arrayBuffer());
    // A new record's chunk is a frame pack (issue 27): its magic, its header's length, the header naming its
    // frames. A demo pullback's frames follow each other, so most are sent as their residual after the
    // frame before ('IVF2' and the header's `predict`, frame-pack.ts).
    const headerLength = cachedBytes.length >= 8 ? new DataView(cachedBytes.buffer).getUint32(4, true) : 0;
    const header = headerLength ? (JSON.parse(new TextDecoder().decode(cachedBytes.subarray(8, 8 + headerLength))) as { frameLengths: number[]; predict?: boolean[] }) : null;
    return {
      caches: names.length,
      magic: String.fromCharCode(...cachedBytes.subarray(0, 4)),
      frames: header?.frameLengths.length ?? 0,
      predicted: header?.predict?.filter(Boolean).length ?? 0,
      equal: cachedBytes.length > 0 && cachedBytes.length === freshBytes.length && cachedBytes.every((b, i) => b === freshBytes[i]),
      encoding: fresh.headers.get('content-encoding'),
    };
  }, { appUrl: `/api/demo/${images.bmode.chunks[5]}`, storeUrl: url });
  expect(comparison).toMatchObject({ caches: 1, magic: 'IVF2', frames: 16, equal: true, encoding: null });
  expect(comparison.predicted).toBeGreaterThan(8);

  // 3. The store refuses a tampered URL (another chunk under the same signature, a longer life) and an expired one.
  const otherChunk = url.replace(/\/bmode\/(\d+)\.(u8\.gz|ivfp)/, (_, n: string, kind: string) => `/bmode/${String(Number(n) + 1).padStart(n.length, '0')}.${kind}`);
  const { s3 } = opened;
  const key = decodeURIComponent(new URL(url).pathname.slice(`/${s3.bucket}/`.length));
  const client = new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region, service: 's3' });
  const expired = await presignGet(client, `${s3.endpoint}/${s3.bucket}`, key, 300, new Date(Date.now() - 301_000));
  for (const bad of [otherChunk, url.replace('X-Amz-Expires=300', 'X-Amz-Expires=3000'), expired.url]) {
    const answer = await page.evaluate(async (u) => {
      try {
        const response = await fetch(u, { credentials: 'omit' });
        return { status: response.status, body: await response.text() };
      } catch (error) {
        // The store's refusal carries no CORS header for the page: the fetch fails, which is a refusal too.
        return { status: 0, body: String(error) };
      }
    }, bad);
    expect([0, 403], bad).toContain(answer.status);
  }
  const refused = (await delivery()).store.refused.slice(opened.store.refused.length).map((r) => r.code);
  expect(refused).toEqual(['SignatureDoesNotMatch', 'SignatureDoesNotMatch', 'AccessDenied']);

  // 4. No URL without a token, nor for a record the tenant does not have (acme's records are not demo's).
  const noToken = await pageGet(page, `/api/demo/${images.bmode.chunks[0]}`, false);
  const elsewhere = await pageGet(page, `/api/demo/records/00000000-0000-4000-8000-000000000000/frames/bmode/0?v=v1`, true);
  expect([noToken.status, elsewhere.status]).toEqual([401, 404]);
  expect(noToken.body + elsewhere.body).not.toContain('X-Amz-Signature');

  // 5. Second open: everything from the service worker's cache, the store not asked again.
  const beforeSecond = await delivery();
  frameAnswers.length = 0;
  await page.reload();
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '1', { timeout: 60_000 });
  await expect(page.getByTestId('frames-status')).toHaveText(FRAMES_LOADED, { timeout: 60_000 });
  await page.keyboard.press('End');
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '300');
  expect((await delivery()).store.served).toBe(beforeSecond.store.served);
  expect(frameAnswers.length).toBeGreaterThan(0);
  expect(frameAnswers.filter((a) => !a.fromServiceWorker)).toEqual([]);
});

/**
 * Issue 27: a record whose B-mode chunks come as frame packs (the console's JPEG frames, decoded
 * in the page's workers with the same libjpeg-turbo build as the server) shows exactly the gray
 * the server's decode of those frames gives; a damaged pack is a chunk the review says it could
 * not load. The demo record comes as the server's JPEG-LS packs: their gray (decoded here with the
 * server's registry) is made into JPEG packs and served in their place, and then, as the reference,
 * into the gray8 chunks of a record announced so (page.route; the service worker is blocked so the
 * page's requests are the ones routed). The codec the image lists name is loaded before any pack
 * has arrived.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { FRAME_PACK_MEDIA_TYPE } from '../src/domain/pixels/frame-pack.ts';
import { grayLevels, meanDifference } from './canvas-pixels.ts';
import { openLoadedReview, shortRecordHref } from './open-review.ts';
import { signIn } from './sign-in.ts';
import { packGrayChunk, serverGrayOfPack } from '../tests/support/frame-pack-encoders.ts';

test.use({ serviceWorkers: 'block' });

const IMAGES = /\/api\/demo\/records\/[^/]+\/images(\?|$)/;
const BMODE_CHUNK = /\/api\/demo\/records\/[^/]+\/frames\/bmode\/(\d+)(\?|$)/;

/** The server's answer to a routed request: Node (where route.fetch runs) does not resolve tenant host names. */
function fetchFromServer(route: Route) {
  const url = new URL(route.request().url());
  const host = url.host;
  url.hostname = '127.0.0.1';
  return route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
}

interface BmodeSize {
  width: number;
  height: number;
}

/** The image lists as the server sends them, the B-mode announced in `chunkFormat` (its frame size noted in `size`). */
const announce = (size: BmodeSize, chunkFormat: 'frame-pack' | 'gray8' = 'frame-pack') => async (route: Route) => {
  const response = await fetchFromServer(route);
  const images = (await response.json()) as { bmode: BmodeSize & { chunkFormat?: string } };
  images.bmode.chunkFormat = chunkFormat;
  Object.assign(size, { width: images.bmode.width, height: images.bmode.height });
  await route.fulfill({ response, json: images });
};

/** Serves each B-mode chunk as `body(index, the gray of the chunk the server sent)`. */
async function serveBmode(page: Page, contentType: string, body: (index: number, gray: Uint8Array) => Promise<Uint8Array>): Promise<void> {
  await page.route(BMODE_CHUNK, async (route) => {
    const response = await fetchFromServer(route);
    if (response.status() !== 200) return route.fulfill({ response });
    const index = Number(BMODE_CHUNK.exec(route.request().url())![1]);
    const sent = new Uint8Array(await response.body());
    const gray = response.headers()['content-type']?.startsWith(FRAME_PACK_MEDIA_TYPE) ? await serverGrayOfPack(sent) : sent;
    await route.fulfill({ status: 200, contentType, headers: { 'cache-control': 'no-store' }, body: Buffer.from(await body(index, gray)) });
  });
}

/** The B-mode canvas's gray levels at slice 1, once every frame is in and the borders are drawn. */
async function bmodeGrays(page: Page, href: string): Promise<number[]> {
  await page.goto(href);
  await expect(page.getByTestId('frames-status')).toHaveText(/300 B-mode and 40 angio frames loaded/, { timeout: 90_000 });
  await expect(page.getByTestId('strip-mla')).toBeAttached({ timeout: 60_000 });
  const canvas = page.getByTestId('panel-canvas-bmode');
  await expect(canvas).toHaveAttribute('data-drawn-slice', '1');
  return grayLevels(canvas, { imageOnly: true });
}

test('JPEG frame packs show exactly the gray the server decodes them to', async ({ page }) => {
  test.setTimeout(240_000);
  // The first visit has the server make the record's frames; packs are made from them afterwards.
  await openLoadedReview(page);
  const href = await shortRecordHref(page);
  const size = { width: 0, height: 0 };
  const packs = new Map<number, Uint8Array>();
  let packsServed = 0;
  await page.route(IMAGES, announce(size));
  await serveBmode(page, FRAME_PACK_MEDIA_TYPE, async (index, gray) => {
    const pack = await packGrayChunk('jpeg', gray, size.width, size.height);
    packs.set(index, pack);
    packsServed++;
    return pack;
  });
  const fromPacks = await bmodeGrays(page, href);
  expect(packsServed).toBe(19);

  // The same record, sent as the gray the server's registry decodes those packs to.
  await page.unrouteAll({ behavior: 'wait' });
  await page.route(IMAGES, announce(size, 'gray8'));
  await serveBmode(page, 'application/octet-stream', (index) => serverGrayOfPack(packs.get(index)!));
  const fromServerDecode = await bmodeGrays(page, href);

  expect(fromPacks.length).toBeGreaterThan(10_000);
  expect(meanDifference(fromPacks, fromServerDecode)).toBe(0);
  // Not two blank panels: the image has its speckle.
  expect(new Set(fromPacks).size).toBeGreaterThan(50);
});

test('a damaged frame pack is a chunk the review could not load, the others show', async ({ page }) => {
  test.setTimeout(180_000);
  await openLoadedReview(page);
  const href = await shortRecordHref(page);
  const size = { width: 0, height: 0 };
  await page.route(IMAGES, announce(size));
  await serveBmode(page, FRAME_PACK_MEDIA_TYPE, async (index, gray) => {
    const pack = await packGrayChunk('jpeg-ls', gray, size.width, size.height);
    // The second chunk arrives cut short.
    return index === 1 ? pack.subarray(0, pack.length - 1000) : pack;
  });
  await page.goto(href);
  await expect(page.getByTestId('frames-missing')).toHaveText('Could not load frames 17–32 (B-mode)', { timeout: 90_000 });
  await expect(page.getByTestId('frames-status')).toHaveText(/Loading 300 B-mode and 40 angio frames: 95%/, { timeout: 90_000 });
  await expect(page.getByTestId('panel-canvas-bmode')).toHaveAttribute('data-drawn-slice', '1');
});

test('the decode workers load the codec the image lists name before any frame pack has arrived', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const href = await shortRecordHref(page);
  const announced: unknown[] = [];
  await page.route(IMAGES, async (route) => {
    const response = await fetchFromServer(route);
    const images = (await response.json()) as { bmode: { packCodec?: unknown } };
    announced.push(images.bmode.packCodec);
    await route.fulfill({ response, json: images });
  });
  // No chunk ever arrives: only the lists can have said which codec the packs need.
  await page.route(/\/api\/demo\/records\/[^/]+\/frames\//, (route) => route.abort());
  const charls = page.context().waitForEvent('request', { predicate: (request) => /charlswasm_decode[^/]*\.wasm/.test(request.url()), timeout: 60_000 });
  await page.goto(href);
  await charls;
  expect(announced).toEqual([{ encoding: 'jpeg-ls', bitsStored: 8 }]);
});

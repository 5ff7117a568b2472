import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn, storedIdToken } from './sign-in.ts';

async function openShortRecord(page: Page) {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  await page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link').click();
  await expect(page).toHaveURL(/\/review$/);
}

test('the service worker downloads a record in the background and serves a revisit from its cache', async ({ page, context }) => {
  const workerFrameFetches: string[] = [];
  context.on('request', (request) => {
    if (request.serviceWorker() && request.url().includes('/frames/')) workerFrameFetches.push(request.url());
  });
  await signIn(page);
  await openShortRecord(page);
  await expect(page.getByTestId('frames-status')).toHaveText('All 300 B-mode and 40 angio frames downloaded', { timeout: 60_000 });
  // 19 B-mode chunks and 3 angio chunks went through the worker to the network.
  expect(new Set(workerFrameFetches).size).toBe(22);

  workerFrameFetches.length = 0;
  await page.getByRole('button', { name: 'Navigate back' }).click();
  await expect(page).toHaveURL(/\/records$/);
  await page.reload();
  await openShortRecord(page);
  await expect(page.getByTestId('frames-status')).toHaveText('All 300 B-mode and 40 angio frames downloaded');
  expect(workerFrameFetches).toEqual([]);

  // The page's own frame requests are answered by the worker from its cache.
  const token = await storedIdToken(page);
  const recordId = page.url().split('/records/')[1]!.split('/')[0]!;
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes(`/records/${recordId}/frames/bmode/0`)),
    page.evaluate(
      ([id, t]) => fetch(`/api/demo/records/${id}/frames/bmode/0?v=v1`, { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.arrayBuffer()),
      [recordId, token] as const,
    ),
  ]);
  expect(response.fromServiceWorker()).toBe(true);
  expect(workerFrameFetches).toEqual([]);
});

test('signing out clears the downloaded frames from the browser', async ({ page }) => {
  await signIn(page);
  await openShortRecord(page);
  await expect(page.getByTestId('frames-status')).toHaveText(/downloaded/, { timeout: 60_000 });
  // One cache per user (issuer and subject), none left of the old shared one.
  const framesCaches = () => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('ivus-frames-')));
  expect(await framesCaches()).toEqual([expect.stringMatching(/^ivus-frames-v2 http:\/\/demo\.localhost:\d+\/idp \S+$/)]);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await page.goto(`${originOf('demo')}/favicon.svg`);
  expect(await framesCaches()).toEqual([]);
});

test('noImage=true opens the review without fetching any image', async ({ page, context }) => {
  const imageRequests: string[] = [];
  context.on('request', (request) => {
    if (/\/(images|frames|lmode)\b/.test(request.url())) imageRequests.push(request.url());
  });
  await signIn(page);
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto(`${originOf('demo')}${await link.getAttribute('href')}?noImage=true`);
  await expect(page.getByTestId('frames-status')).toHaveText('Images are not loaded (noImage=true).');
  await page.waitForTimeout(500);
  expect(imageRequests).toEqual([]);
});

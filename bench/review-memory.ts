/**
 * `npm run bench:review-memory`: opens records one after another in one tab (ten reviews, through
 * the app's own navigation) and prints the page's JavaScript heap and the renderer+GPU memory after
 * each, with garbage collected first. A review that leaks its frames or textures shows as a rising
 * column. Prints figures; asserts nothing. Needs a build (`npm run build`) and /usr/bin/chromium.
 */
import { launchChromium, signedInPage, startBenchServer } from './browser-bench.ts';
import { chromiumMemoryBytes } from './chromium-memory.ts';

const PORT = 8196;
const REVIEWS = 10;

const server = await startBenchServer(PORT);
const ORIGIN = server.origin;
const browser = await launchChromium();
const page = await signedInPage(browser, ORIGIN);
const cdp = await page.context().newCDPSession(page);

async function heapBytes(): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(500);
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1).padStart(8)} MB`;
console.info('review  record                         JS heap after   renderer+GPU after   (garbage collected, back on the records list)');
const baseline = { heap: await heapBytes(), rss: chromiumMemoryBytes() };
console.info(`   0    (records list, before any review) ${mb(baseline.heap)}   ${mb(baseline.rss)}`);
for (let i = 1; i <= REVIEWS; i++) {
  // Alternate the 300-frame record and the 1,000-odd-frame third record of DEM-001.
  await page.goto(`${ORIGIN}/patients/DEM-001/records`);
  const card = page.getByTestId('record-card').filter({ hasNotText: /3,600 frames/ }).nth(i % 2);
  const label = (await card.textContent())?.match(/B-mode:\s*([\d,]+) frames/)?.[1] ?? '?';
  await card.getByRole('link').click();
  await page.getByTestId('frames-status').filter({ hasText: /frames (loaded|downloaded)/ }).waitFor({ timeout: 300_000 });
  await page.goBack();
  await page.getByTestId('record-card').first().waitFor();
  console.info(`${String(i).padStart(4)}    ${`${label} B-mode frames`.padEnd(30)} ${mb(await heapBytes())}   ${mb(chromiumMemoryBytes())}`);
}

await browser.close();
await server.stop();

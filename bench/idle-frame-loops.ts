/**
 * `node bench/idle-frame-loops.ts [--runs N] [--frames 300] [--compare <built tree>]`: the
 * requestAnimationFrame callbacks a review runs per second (issue 27), with the record's frames
 * all downloaded and the server idle: at rest for 5 s, then while playing for 2 s (from slice 1). Callbacks are
 * told apart by what asked for them: pixi's Ticker (its `_tick` reads `_requestId` and `_head`)
 * or the rest of the page. Also the renderer main thread's task time (CDP Performance metrics)
 * and the B-mode slices painted per second in each window. With --compare, the other tree is measured in the same run, alternately.
 * Prints figures; asserts nothing. Needs builds and /usr/bin/chromium. BENCH_PORT: the port.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { openDownloadedReview } from './review-page-setup.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8196);
process.env.PREGENERATE_DEMO ??= 'false';
const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const runs = Number(argAfter('--runs') ?? 1);
const frames = Number(argAfter('--frames') ?? 300);
const trees = [path.resolve('.'), ...(argAfter('--compare') ? [path.resolve(argAfter('--compare')!)] : [])];

/** In the page, before any script: counts animation-frame callbacks by who asked for them. */
function countAnimationFrames(): void {
  const counts = { pixiTicker: 0, other: 0, painted: 0 };
  // Slices the B-mode canvas shows, one after another (PanelRenderer.markDrawn).
  new MutationObserver((records) => {
    for (const r of records) if ((r.target as HTMLElement).dataset.testid === 'panel-canvas-bmode') counts.painted++;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-drawn-slice'] });
  (window as unknown as { rafCounts: typeof counts }).rafCounts = counts;
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback: FrameRequestCallback) => {
    const source = callback.toString();
    const pixi = source.includes('_requestId') && source.includes('_head');
    return request((time) => {
      if (pixi) counts.pixiTicker++;
      else counts.other++;
      callback(time);
    });
  };
}

interface Window {
  seconds: number;
  pixiTicker: number;
  other: number;
  painted: number;
  taskMs?: number;
}

async function countOver(page: Page, ms: number, during: () => Promise<void> = async () => {}): Promise<Window> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')!.value;
  const read = () => page.evaluate(() => ({ ...(window as unknown as { rafCounts: { pixiTicker: number; other: number; painted: number } }).rafCounts, at: performance.now() }));
  const tasksBefore = await taskSeconds();
  const before = await read();
  await during();
  // The window itself: nothing to wait for, it is the time over which the callbacks are counted.
  await page.waitForTimeout(ms);
  const after = await read();
  const tasksAfter = await taskSeconds();
  const seconds = (after.at - before.at) / 1000;
  return { seconds, pixiTicker: (after.pixiTicker - before.pixiTicker) / seconds, other: (after.other - before.other) / seconds, painted: (after.painted - before.painted) / seconds, taskMs: ((tasksAfter - tasksBefore) * 1000) / seconds };
}

const results = new Map<string, { idle: Window[]; playing: Window[] }>(trees.map((t) => [t, { idle: [], playing: [] }]));
for (let run = 0; run < runs; run++) {
  // Alternate which tree goes first, so that a drift of the machine's load does not favour one.
  for (const tree of run % 2 ? [...trees].reverse() : trees) {
    const server = await startBenchServer(PORT, tree);
    const browser = await launchChromium();
    try {
      const page = await openDownloadedReview(browser, server, frames, async (p) => {
        await p.addInitScript(`(${countAnimationFrames.toString()})()`);
      });
      results.get(tree)!.idle.push(await countOver(page, 5000));
      await page.keyboard.press('Home');
      await page.getByTestId('slice-indicator').filter({ hasText: /^Slice 1 \// }).waitFor();
      const playing = await countOver(page, 2000, () => page.getByRole('button', { name: 'Play', exact: true }).click());
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      results.get(tree)!.playing.push(playing);
    } finally {
      await browser.close();
      await server.stop();
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const figures = (values: number[]) => `${median(values).toFixed(1).padStart(6)} (${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)})`;
console.info(`animation-frame callbacks per second in the review of the ${frames}-frame record, frames downloaded, server idle; median (min-max) of ${runs} run(s)`);
for (const [tree, { idle, playing }] of results) {
  console.info(`\n${tree}`);
  console.info(`  idle 5 s:    pixi ticker ${figures(idle.map((w) => w.pixiTicker))}   other ${figures(idle.map((w) => w.other))}   main-thread tasks ${figures(idle.map((w) => w.taskMs!))} ms/s`);
  console.info(`  playing 2 s: pixi ticker ${figures(playing.map((w) => w.pixiTicker))}   other ${figures(playing.map((w) => w.other))}   B-mode slices painted ${figures(playing.map((w) => w.painted))}   main-thread tasks ${figures(playing.map((w) => w.taskMs!))} ms/s`);
}
process.exit(0);

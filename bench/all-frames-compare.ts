/**
 * `node bench/all-frames-compare.ts --compare <dir> [--runs N] [--frames 300|3600]`: a record whose
 * frames the server has made already, opened in a fresh profile (nothing cached): first B-mode
 * drawn and every frame in the page (the frames status says all are loaded), as ms after the
 * click; this build beside the build in <dir>, each served by its own tree's server, opened
 * alternately (A, B, A, B) so the machine's load falls on both alike. Time to all frames is where
 * a per-frame cost of decoding or delivery would show (issue 27). Both servers are warmed first
 * (the record made; its borders detected once the servers are idle) and measured idle. BENCH_PORT+1 and BENCH_PORT+2: the
 * ports. Prints figures; asserts nothing. Needs both builds and /usr/bin/chromium.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { launchChromium, signedInPage, startBenchServer, waitForServerIdle, type BenchServer } from './browser-bench.ts';
import { percentile } from './review-measures.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8195);
process.env.PREGENERATE_DEMO ??= 'false';
const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const runs = Number(argAfter('--runs') ?? 5);
const FRAMES = Number(argAfter('--frames') ?? 300);
const compareDir = argAfter('--compare');
if (!compareDir) throw new Error('usage: node bench/all-frames-compare.ts --compare <dir> [--runs N] [--frames N]');
const COUNT = FRAMES.toLocaleString('en-US');

/** A tree's server, started from that tree (its own server code and dist/web). */
async function serverOf(dir: string, port: number): Promise<BenchServer> {
  const back = process.cwd();
  process.chdir(dir);
  try {
    return await startBenchServer(port, dir);
  } finally {
    process.chdir(back);
  }
}

/** Opens the record from its card in a fresh profile: ms from the click to the B-mode drawn and to every frame loaded. */
async function open(browser: Browser, origin: string): Promise<{ bmode: number; all: number }> {
  const page = await signedInPage(browser, origin);
  try {
    await page.goto(`${origin}/patients/DEM-001/records`);
    const link = page.getByTestId('record-card').filter({ hasText: new RegExp(`B-mode:\\s*${COUNT} frames`) }).getByRole('link');
    await link.waitFor();
    await page.waitForTimeout(1000);
    await page.evaluate((count) => {
      const loaded = new RegExp(`${count} B-mode and \\d+ angio frames (loaded|downloaded)`);
      const marks: { entry: number; bmode?: number; all?: number } = { entry: performance.now() };
      (window as unknown as { allFrames: typeof marks }).allFrames = marks;
      const poll = () => {
        const canvas = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement | null;
        if (canvas?.dataset.drawnSlice && !marks.bmode) marks.bmode = performance.now();
        if (!marks.all && loaded.test(document.querySelector('[data-testid="frames-status"]')?.textContent ?? '')) marks.all = performance.now();
        if (!marks.bmode || !marks.all) requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    }, COUNT);
    await link.click();
    await page.waitForFunction(() => {
      const m = (window as unknown as { allFrames: { bmode?: number; all?: number } }).allFrames;
      return m.bmode && m.all;
    }, null, { timeout: 300_000, polling: 100 }).catch(async (error: unknown) => {
      const status = await page.getByTestId('frames-status').textContent().catch(() => null);
      throw new Error(`not all frames in after 300 s (frames status: ${status})`, { cause: error });
    });
    return await page.evaluate(() => {
      const m = (window as unknown as { allFrames: { entry: number; bmode: number; all: number } }).allFrames;
      return { bmode: m.bmode - m.entry, all: m.all - m.entry };
    });
  } finally {
    await page.context().close();
  }
}

const trees = [
  { label: 'base', dir: path.resolve(compareDir), port: PORT + 1 },
  { label: 'this', dir: process.cwd(), port: PORT + 2 },
];
const servers = await Promise.all(trees.map((tree) => serverOf(tree.dir, tree.port)));
const browser = await launchChromium();
try {
  console.info(`warming up both servers on the ${COUNT}-frame record (frames made, borders detected) ...`);
  await Promise.all(servers.map((server) => open(browser, server.origin)));
  await Promise.all(servers.map((server) => waitForServerIdle(server, 240)));
  const results = trees.map(() => [] as { bmode: number; all: number }[]);
  for (let run = 0; run < runs; run++) {
    // Alternating which goes first, so a drifting load falls on both.
    const order = run % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const figures = await open(browser, servers[i]!.origin);
      results[i]!.push(figures);
      console.info(`run ${run + 1} ${trees[i]!.label} (load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}): B-mode drawn ${figures.bmode.toFixed(0)} ms, all ${COUNT} frames ${figures.all.toFixed(0)} ms`);
    }
  }
  console.info(`\nmedians, ms after the click (record made already, fresh profile), ${runs} runs each:`);
  trees.forEach((tree, i) => {
    const median = (pick: (f: { bmode: number; all: number }) => number) => percentile(results[i]!.map(pick), 0.5).toFixed(0).padStart(6);
    console.info(`  ${tree.label.padEnd(5)} B-mode drawn ${median((f) => f.bmode)}  all frames ${median((f) => f.all)}`);
  });
} finally {
  await browser.close();
  await Promise.all(servers.map((server) => server.stop()));
}

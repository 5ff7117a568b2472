/**
 * `npm run bench:review -- --compare <dir>`: this build of the review beside another build (a git
 * worktree of an earlier commit with its own `npm run build`), in one run, interleaved: each round
 * measures both, in alternating order, so the machine's load falls on both alike. Each build is
 * served by its own tree's server (its own port and throwaway data directory), and measured from a
 * click on the 3,600-frame record's card: first frame, Play, slice change latency, L-mode
 * recompute, playback. The first open of a record nobody opened (frame generation, border
 * detection, the MLA time) is not compared: it measures the server's generator and detector, which
 * change on their own; here it only warms both servers up.
 */
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, signedInPage, startBenchServer, type BenchServer } from './browser-bench.ts';

const PORTS = { here: 8196, other: 8197 };
const roundsAt = process.argv.indexOf('--rounds');
/** Interleaved rounds (`--rounds <n>`, 3 by default): more of them steady the medians on a busy machine. */
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 3;
const SCRUB_STEPS = 200;
const LMODE_TURNS = 20;
/** The record measured: the 3,600-frame one by default; `--frames 300` takes the 300-frame one (much quicker to warm up on a loaded machine). */
const framesAt = process.argv.indexOf('--frames');
const FRAMES = framesAt >= 0 ? Number(process.argv[framesAt + 1]) : 3600;
const COUNT = FRAMES.toLocaleString('en-US');
const LOADED = new RegExp(`${COUNT} B-mode and \\d+ angio frames (loaded|downloaded)`);
const DOWNLOADED = new RegExp(`All ${COUNT} B-mode and \\d+ angio frames downloaded`);

interface Figures {
  firstFrame: number;
  play: number;
  scrubMedian: number;
  scrubP95: number;
  lmodeMedian: number;
  fps: number;
  slicesPerSecond: number;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const median = (values: number[]) => percentile(values, 0.5);

/** Starts the server of the tree in `dir` (its `src/server`, serving its `dist/web`): the bench server starts in the current directory. */
function startServerIn(dir: string, port: number): Promise<BenchServer> {
  const back = process.cwd();
  process.chdir(dir);
  try {
    // The server process is spawned (in `dir`) before this returns; only its readiness is awaited.
    return startBenchServer(port);
  } finally {
    process.chdir(back);
  }
}

function recordLink(page: Page) {
  return page.getByTestId('record-card').filter({ hasText: new RegExp(`B-mode:\\s*${COUNT} frames`) }).getByRole('link');
}

/** The first open makes the record's frames and detects its borders; measuring waits until both are done. */
async function warmUp(browser: Browser, origin: string): Promise<void> {
  const page = await signedInPage(browser, origin);
  await page.goto(`${origin}/patients/DEM-001/records`);
  await recordLink(page).click();
  await page.getByTestId('frames-status').filter({ hasText: LOADED }).waitFor({ timeout: 600_000 });
  await page.getByTestId('mla-summary').waitFor({ timeout: 900_000 });
  await page.context().close();
}

async function measure(browser: Browser, origin: string): Promise<Figures> {
  const page = await signedInPage(browser, origin);
  await page.goto(`${origin}/patients/DEM-001/records`);
  const link = recordLink(page);
  await link.waitFor();
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    const marks: { entry: number; firstFrame?: number; play?: number } = { entry: performance.now() };
    (window as unknown as { benchMarks: typeof marks }).benchMarks = marks;
    const poll = () => {
      const canvas = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement | null;
      if (canvas?.dataset.drawnSlice && !marks.firstFrame) marks.firstFrame = performance.now();
      const play = document.querySelector('button[aria-label="Play"]');
      if (play && play.getAttribute('aria-disabled') !== 'true' && !marks.play) marks.play = performance.now();
      if (!marks.firstFrame || !marks.play) requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
  await link.click();
  await page.getByTestId('frames-status').filter({ hasText: LOADED }).waitFor({ timeout: 300_000 });
  const marks = await page.evaluate(() => (window as unknown as { benchMarks: { entry: number; firstFrame?: number; play?: number } }).benchMarks);
  await page.getByTestId('frames-status').filter({ hasText: DOWNLOADED }).waitFor({ timeout: 60_000 }).catch(() => undefined);

  // As bench/review.ts measures them: a key press to the canvas showing the next slice, per step.
  const scrub = await page.evaluate(async (count) => {
    const canvas = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement;
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const expected = String(Number(canvas.dataset.drawnSlice) + 1);
      const start = performance.now();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      while (canvas.dataset.drawnSlice !== expected && performance.now() - start < 2000) await new Promise((resolve) => setTimeout(resolve, 0));
      latencies.push(performance.now() - start);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return latencies;
  }, SCRUB_STEPS);
  const lmode = await page.evaluate(async (count) => {
    const handle = document.querySelector('[data-testid="lmode-cut-handle"]') as HTMLElement;
    const measures = () => performance.getEntriesByName('ivus:lmode-recompute');
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const seen = measures().length;
      const start = performance.now();
      handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      while (measures().length === seen && performance.now() - start < 5000) await new Promise((resolve) => setTimeout(resolve, 0));
      times.push(measures().at(-1)?.duration ?? Number.NaN);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return times;
  }, LMODE_TURNS);
  await page.keyboard.press('Home');
  await page.getByTestId('slice-indicator').filter({ hasText: /^Slice 1 \// }).waitFor();
  const playback = await page.evaluate(async () => {
    const canvas = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement;
    const sliceNow = () => Number(/Slice (\d+)/.exec(document.querySelector('[data-testid="slice-indicator"]')!.textContent ?? '')?.[1]);
    (document.querySelector('button[aria-label="Play"]') as HTMLButtonElement).click();
    const startSlice = sliceNow();
    const start = performance.now();
    let painted = 0;
    let last = canvas.dataset.drawnSlice;
    while (performance.now() - start < 3000) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (canvas.dataset.drawnSlice !== last) painted++;
      last = canvas.dataset.drawnSlice;
    }
    const seconds = (performance.now() - start) / 1000;
    const advanced = sliceNow() - startSlice;
    (document.querySelector('button[aria-label="Pause"]') as HTMLButtonElement).click();
    return { fps: painted / seconds, slicesPerSecond: advanced / seconds };
  });
  await page.context().close();
  return {
    firstFrame: (marks.firstFrame ?? Number.NaN) - marks.entry,
    play: (marks.play ?? Number.NaN) - marks.entry,
    scrubMedian: median(scrub),
    scrubP95: percentile(scrub, 0.95),
    lmodeMedian: median(lmode),
    ...playback,
  };
}

export async function compareBuilds(otherDir: string): Promise<void> {
  const other = path.resolve(otherDir);
  const [here, there] = await Promise.all([startBenchServer(PORTS.here), startServerIn(other, PORTS.other)]);
  const browser = await launchChromium(['--js-flags=--expose-gc']);
  console.info(`warming up both servers (frames made, borders detected) ...`);
  await Promise.all([warmUp(browser, here.origin), warmUp(browser, there.origin)]);
  const results: { here: Figures[]; other: Figures[] } = { here: [], other: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating order: neither build always goes first on a machine whose load drifts.
    const order = round % 2 === 0 ? (['here', 'other'] as const) : (['other', 'here'] as const);
    for (const side of order) {
      const figures = await measure(browser, side === 'here' ? here.origin : there.origin);
      results[side].push(figures);
      console.info(`round ${round + 1} ${side === 'here' ? 'this build' : 'other build'}: ${JSON.stringify(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v.toFixed(2))])))}`);
    }
  }
  await browser.close();
  await Promise.all([here.stop(), there.stop()]);

  const rows: [string, keyof Figures, string][] = [
    ['route entry to first B-mode frame drawn', 'firstFrame', 'ms'],
    ['route entry to Play enabled', 'play', 'ms'],
    ['slice change latency, median', 'scrubMedian', 'ms'],
    ['slice change latency, 95th percentile', 'scrubP95', 'ms'],
    ['L-mode recompute at a new angle, median', 'lmodeMedian', 'ms'],
    ['playback: frames painted per second', 'fps', 'fps'],
    ['playback: slices advanced per second', 'slicesPerSecond', '/s'],
  ];
  console.info(`\nthe ${COUNT}-frame record, median of ${ROUNDS} interleaved rounds; this build: ${process.cwd()}, other build: ${other}`);
  console.info(`${''.padEnd(44)} ${'this build'.padStart(14)} ${'other build'.padStart(14)}  ratio`);
  for (const [label, key, unit] of rows) {
    const a = median(results.here.map((f) => f[key]));
    const b = median(results.other.map((f) => f[key]));
    console.info(`${label.padEnd(44)} ${a.toFixed(1).padStart(9)} ${unit.padEnd(4)} ${b.toFixed(1).padStart(9)} ${unit.padEnd(4)} ${(a / b).toFixed(3).padStart(6)}x`);
  }
  console.info('(the first open of a record nobody opened, MLA time included, is not compared: see the header)');
}

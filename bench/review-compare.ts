/**
 * `npm run bench:review -- --compare <dir>`: this build of the review beside another build (a git
 * worktree of an earlier commit with its own `npm run build`), in one run, interleaved: each round
 * measures both, in alternating order, so the machine's load falls on both alike. Each build is
 * served by its own tree's server (its own port and throwaway data directory), and measured from a
 * click on the 3,600-frame record's card: first frame, Play, slice change latency, L-mode
 * recompute, playback; and, in the same rounds, the raw WebGL2 page's slice changes and cine on
 * the same frames. Scrubbing and playback are measured once both servers are idle. The first open of a record nobody opened (frame generation, border
 * detection, the MLA time) is not compared: it measures the server's generator and detector, which
 * change on their own; here it only warms both servers up.
 */
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, signedInPage, startBenchServer, waitForServerIdle, type BenchServer } from './browser-bench.ts';
import { bearerToken, lmodeRecomputeTimes, measureRawPage, paintedPlayback, percentile, scrubLatencies, type RawPageFigures } from './review-measures.ts';

const PORTS = { here: 8196, other: 8197 };
const roundsAt = process.argv.indexOf('--rounds');
/** Interleaved rounds (`--rounds <n>`, 3 by default): more of them steady the medians on a busy machine. */
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 3;
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
}

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

/** What the raw page needs to ask for the same frames: the record's id and the clinician's token (read from a review). */
interface RecordAccess {
  recordId: string;
  authorization: string;
}

async function measure(browser: Browser, origin: string): Promise<{ figures: Figures; access: RecordAccess }> {
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
  const scrub = await scrubLatencies(page, '[data-testid="panel-canvas-bmode"]');
  const lmode = await lmodeRecomputeTimes(page, LMODE_TURNS);
  const playback = await paintedPlayback(page, 'review');
  const access = { recordId: new URL(page.url()).pathname.split('/records/')[1]!.split('/')[0]!, authorization: await bearerToken(page) };
  await page.context().close();
  const figures = {
    firstFrame: (marks.firstFrame ?? Number.NaN) - marks.entry,
    play: (marks.play ?? Number.NaN) - marks.entry,
    scrubMedian: median(scrub),
    scrubP95: percentile(scrub, 0.95),
    lmodeMedian: median(lmode),
    fps: playback.fps,
  };
  return { figures, access };
}

export async function compareBuilds(otherDir: string): Promise<void> {
  const other = path.resolve(otherDir);
  const [here, there] = await Promise.all([startBenchServer(PORTS.here), startServerIn(other, PORTS.other)]);
  const browser = await launchChromium(['--js-flags=--expose-gc']);
  console.info(`warming up both servers (frames made, borders detected) ...`);
  await Promise.all([warmUp(browser, here.origin), warmUp(browser, there.origin)]);
  // Playback and scrubbing are measured with both servers idle: nothing left of the first open.
  const idle = await Promise.all([waitForServerIdle(here), waitForServerIdle(there)]);
  console.info(`both servers idle (this build's after ${idle[0].waited.toFixed(0)} s, ${idle[0].cpu.toFixed(1)} CPU s; the other's after ${idle[1].waited.toFixed(0)} s, ${idle[1].cpu.toFixed(1)} CPU s)`);
  const results: { here: Figures[]; other: Figures[] } = { here: [], other: [] };
  const rawResults: RawPageFigures[] = [];
  let access: RecordAccess | null = null;
  const sides = ['here', 'other', 'raw'] as const;
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating order: none of the three always goes first on a machine whose load drifts. The raw
    // page (served by this build's server, the same frames) needs a review measured before it.
    const order = [0, 1, 2].map((i) => sides[(i + round) % 3]!).sort((a, b) => (a === 'raw' && !access ? 1 : b === 'raw' && !access ? -1 : 0));
    for (const side of order) {
      if (side === 'raw') {
        const raw = await measureRawPage('array', { origin: here.origin, ...access!, frames: FRAMES, lmodeTurns: 0 });
        rawResults.push(raw);
        console.info(`round ${round + 1} raw page: ${JSON.stringify({ scrubMedian: median(raw.scrub), scrubP95: percentile(raw.scrub, 0.95), fps: raw.playback.fps }, (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`);
        continue;
      }
      const measured = await measure(browser, side === 'here' ? here.origin : there.origin);
      if (side === 'here') access = measured.access;
      results[side].push(measured.figures);
      console.info(`round ${round + 1} ${side === 'here' ? 'this build' : 'other build'}: ${JSON.stringify(Object.fromEntries(Object.entries(measured.figures).map(([k, v]) => [k, Number(v.toFixed(2))])))}`);
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
  ];
  console.info(`\nthe ${COUNT}-frame record, median of ${ROUNDS} interleaved rounds; this build: ${process.cwd()}, other build: ${other}`);
  console.info(`${''.padEnd(44)} ${'this build'.padStart(14)} ${'other build'.padStart(14)}  ratio`);
  for (const [label, key, unit] of rows) {
    const a = median(results.here.map((f) => f[key]));
    const b = median(results.other.map((f) => f[key]));
    console.info(`${label.padEnd(44)} ${a.toFixed(1).padStart(9)} ${unit.padEnd(4)} ${b.toFixed(1).padStart(9)} ${unit.padEnd(4)} ${(a / b).toFixed(3).padStart(6)}x`);
  }
  const rawFigures: Partial<Record<keyof Figures, number>> = {
    scrubMedian: median(rawResults.map((r) => median(r.scrub))),
    scrubP95: median(rawResults.map((r) => percentile(r.scrub, 0.95))),
    fps: median(rawResults.map((r) => r.playback.fps)),
  };
  console.info(`\nbeside the raw WebGL2 page (bench/raw-webgl-page.ts, the same frames, median of ${rawResults.length} rounds)`);
  console.info(`${''.padEnd(44)} ${'raw page'.padStart(14)}  ${'this/raw'.padStart(8)}  ${'other/raw'.padStart(9)}`);
  for (const [label, key, unit] of rows) {
    const r = rawFigures[key];
    if (r === undefined) continue;
    const a = median(results.here.map((f) => f[key]));
    const b = median(results.other.map((f) => f[key]));
    console.info(`${label.padEnd(44)} ${r.toFixed(1).padStart(9)} ${unit.padEnd(4)}  ${(a / r).toFixed(3).padStart(7)}x  ${(b / r).toFixed(3).padStart(8)}x`);
  }
  console.info('goals: slice change p95 within 1.2x of the raw page; painted playback at least 0.95x its cine');
  console.info('(the first open of a record nobody opened, MLA time included, is not compared: see the header)');
}

/**
 * `node bench/review-playback-ab.ts --base <dir> [--frames 300] [--rounds 6]`: the review's painted
 * playback and browser CPU per painted frame, this tree's build (dist/web) against another build
 * (`<dir>/dist/web`, e.g. a copy of main's), each on its own idle server and browser, alternated
 * round by round in one run so that the shared machine's load falls on both alike (issue 27).
 * Frame rates swing with the machine's load; CPU per painted frame is the steadier figure.
 * `--css '<rules>'` adds a style sheet to this tree's review only: a candidate fix tried before it is built.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, startBenchServer, type BenchServer } from './browser-bench.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';
import { paintedPlayback, percentile, PLAYBACK_MS } from './review-measures.ts';
import { openDownloadedReview } from './review-page-setup.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const BASE = argument('--base');
if (!BASE) throw new Error('--base <dir>: the directory whose dist/web is the build to compare with');
const FRAMES = Number(argument('--frames') ?? 300);
const ROUNDS = Number(argument('--rounds') ?? 6);
// BENCH_PORT: engineers sharing the machine each run it on their own ports (this one and the next).
const PORT = Number(process.env.BENCH_PORT ?? 8198);
process.env.PREGENERATE_DEMO ??= 'false';

async function openReview(server: BenchServer): Promise<Page> {
  const browser = await launchChromium(['--js-flags=--expose-gc']);
  return openDownloadedReview(browser, server, FRAMES);
}

const builds = [
  { name: 'this tree', server: await startBenchServer(PORT) },
  { name: `base (${BASE})`, server: await startBenchServer(PORT + 1, path.resolve(BASE)) },
];
const pages = [];
for (const build of builds) pages.push(await openReview(build.server));
const css = argument('--css');
if (css) await pages[0]!.addStyleTag({ content: css });
const figures = builds.map(() => ({ fps: [] as number[], cpu: [] as number[] }));
for (let round = 0; round < ROUNDS; round++) {
  // Each round in the other order: neither build always plays right after the other.
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const index of order) {
    const before = descendantCpuSeconds();
    const playback = await paintedPlayback(pages[index]!, 'review');
    const cpu = descendantCpuSeconds() - before;
    figures[index]!.fps.push(playback.fps);
    figures[index]!.cpu.push((cpu * 1000) / (playback.fps * (PLAYBACK_MS / 1000)));
  }
  console.info(`round ${round + 1}: ` + builds.map((b, i) => `${b.name} ${figures[i]!.fps.at(-1)!.toFixed(1)} fps, ${figures[i]!.cpu.at(-1)!.toFixed(0)} ms CPU per painted frame`).join('; '));
}
const median = (values: number[]) => percentile(values, 0.5);
console.info(
  `\nmedian of ${ROUNDS} rounds: ` +
    builds.map((b, i) => `${b.name} ${median(figures[i]!.fps).toFixed(1)} fps, ${median(figures[i]!.cpu).toFixed(0)} ms CPU per painted frame`).join('; ') +
    `; CPU per painted frame ratio ${median(figures[0]!.cpu.map((c, r) => c / figures[1]!.cpu[r]!)).toFixed(2)}x`,
);
for (const page of pages) await page.context().browser()!.close();
for (const build of builds) await build.server.stop();

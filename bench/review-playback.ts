/**
 * `node bench/review-playback.ts [--frames 300|3600] [--rounds 3] [--profile]`: painted playback and
 * slice change latency of the review beside the raw WebGL2 page (bench/raw-webgl-page.ts), with the
 * server idle, alternated round by round in the same run so that the shared machine's load falls on
 * both alike (issue 27). Shorter than bench:review (no first open to the MLA, no memory, no L-mode
 * turns). With --profile, the review's playback is also recorded by Chromium's CPU profiler and its
 * busiest functions printed: what each played frame costs.
 */
import type { Page } from '@playwright/test';
import { launchChromium, signedInPage, startBenchServer, waitForServerIdle } from './browser-bench.ts';
import { bearerToken, measureRawPage, paintedPlayback, percentile, PLAYBACK_MS, scrubLatencies } from './review-measures.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';
import { busiestTraceEvents, hottestFunctions, type CpuProfile, type TraceEvent } from './cpu-profile.ts';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const FRAMES = argument('--frames', 300);
const ROUNDS = argument('--rounds', 3);
const PROFILE = process.argv.includes('--profile');
const TRACE = process.argv.includes('--trace');
// BENCH_PORT: engineers sharing the machine each run it on their own port.
const PORT = Number(process.env.BENCH_PORT ?? 8196);

process.env.PREGENERATE_DEMO ??= 'false';
const server = await startBenchServer(PORT);
const browser = await launchChromium(['--js-flags=--expose-gc']);
const page = await signedInPage(browser, server.origin);
await page.goto(`${server.origin}/patients/DEM-001/records`);
const link = page.getByTestId('record-card').filter({ hasText: new RegExp(`B-mode:\\s*${FRAMES.toLocaleString('en-US')} frames`) }).getByRole('link');
const href = `${server.origin}${await link.getAttribute('href')}`;
await page.goto(href);
await page
  .getByTestId('frames-status')
  .filter({ hasText: new RegExp(`All ${FRAMES.toLocaleString('en-US')} B-mode and \\d+ angio frames downloaded`) })
  .waitFor({ timeout: 600_000 });
const idle = await waitForServerIdle(server);
console.info(`record of ${FRAMES} frames loaded; server idle after ${idle.waited.toFixed(0)} s`);
const recordId = href.split('/records/')[1]!.split('/')[0]!;
const rawRecord = { origin: server.origin, recordId, authorization: await bearerToken(page), frames: FRAMES, lmodeTurns: 0 };

async function profiledPlayback(reviewPage: Page): Promise<void> {
  const session = await reviewPage.context().newCDPSession(reviewPage);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  const figures = await paintedPlayback(reviewPage, 'review');
  const { profile } = (await session.send('Profiler.stop')) as { profile: CpuProfile };
  console.info(`\nprofiled playback (${figures.fps.toFixed(1)} fps painted): busiest functions, self time`);
  for (const line of hottestFunctions(profile, 30)) console.info(`  ${line}`);
  await session.detach();
}

type Figures = { fps: number; p50: number; p95: number; cpuMsPerPainted: number };
const rows: { review: Figures; raw: Figures; rawReupload: Figures }[] = [];
const cpuMsPerPainted = (cpuSeconds: number, fps: number) => (cpuSeconds * 1000) / (fps * (PLAYBACK_MS / 1000));
for (let round = 0; round < ROUNDS; round++) {
  // From slice 1: a scrub from where playback stopped could run into the last slice.
  await page.keyboard.press('Home');
  await page.getByTestId('slice-indicator').filter({ hasText: /^Slice 1 \// }).waitFor();
  const scrub = await scrubLatencies(page, '[data-testid="panel-canvas-bmode"]');
  const cpuBefore = descendantCpuSeconds();
  const playback = await paintedPlayback(page, 'review');
  const playbackCpu = descendantCpuSeconds() - cpuBefore;
  const raw = await measureRawPage('array', rawRecord, descendantCpuSeconds);
  // The raw page that uploads each slice's bytes to one texture as it draws it, as the review's panels do.
  const rawReupload = await measureRawPage('single', rawRecord, descendantCpuSeconds);
  rows.push({
    review: { fps: playback.fps, p50: percentile(scrub, 0.5), p95: percentile(scrub, 0.95), cpuMsPerPainted: cpuMsPerPainted(playbackCpu, playback.fps) },
    raw: { fps: raw.playback.fps, p50: percentile(raw.scrub, 0.5), p95: percentile(raw.scrub, 0.95), cpuMsPerPainted: cpuMsPerPainted(raw.playbackCpuSeconds!, raw.playback.fps) },
    rawReupload: {
      fps: rawReupload.playback.fps,
      p50: percentile(rawReupload.scrub, 0.5),
      p95: percentile(rawReupload.scrub, 0.95),
      cpuMsPerPainted: cpuMsPerPainted(rawReupload.playbackCpuSeconds!, rawReupload.playback.fps),
    },
  });
  const last = rows.at(-1)!;
  console.info(
    `round ${round + 1}: painted playback ${last.review.fps.toFixed(1)} fps vs raw ${last.raw.fps.toFixed(1)} (${(last.review.fps / last.raw.fps).toFixed(2)}x); ` +
      `slice change p50 ${last.review.p50.toFixed(1)} vs ${last.raw.p50.toFixed(1)} ms, p95 ${last.review.p95.toFixed(1)} vs ${last.raw.p95.toFixed(1)} ms (${(last.review.p95 / last.raw.p95).toFixed(2)}x); ` +
      `browser CPU per painted frame ${last.review.cpuMsPerPainted.toFixed(0)} vs ${last.raw.cpuMsPerPainted.toFixed(0)} ms; ` +
      `raw page re-uploading each slice: ${last.rawReupload.fps.toFixed(1)} fps, ${last.rawReupload.cpuMsPerPainted.toFixed(0)} ms CPU per painted frame`,
  );
}
const median = (values: number[]) => percentile(values, 0.5);
console.info(
  `\nmedian of ${ROUNDS} rounds: painted playback ${median(rows.map((r) => r.review.fps / r.raw.fps)).toFixed(2)}x the raw page (goal ≥ 0.95x); ` +
    `slice change p95 ${median(rows.map((r) => r.review.p95 / r.raw.p95)).toFixed(2)}x (goal ≤ 1.2x); ` +
    `browser CPU per painted frame ${median(rows.map((r) => r.review.cpuMsPerPainted / r.raw.cpuMsPerPainted)).toFixed(2)}x`,
);
if (PROFILE) await profiledPlayback(page);
if (TRACE) {
  // Where the time goes outside the page's JavaScript too: the compositor, raster and the GPU process.
  await browser.startTracing(page, { categories: ['toplevel', 'cc', 'gpu', 'viz', 'blink', 'disabled-by-default-devtools.timeline'] });
  const figures = await paintedPlayback(page, 'review');
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  console.info(`\ntraced playback (${figures.fps.toFixed(1)} fps painted): busiest trace events by thread, total ms`);
  for (const line of busiestTraceEvents(trace.traceEvents, 40)) console.info(`  ${line}`);
}

await browser.close();
await server.stop();

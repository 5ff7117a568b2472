/**
 * `node bench/compositor-trace.ts [--frames 300] [--dump <file>]`: where a painted frame's browser CPU goes
 * outside the page's JavaScript (issue 27), on the review and on the raw WebGL2 page, each traced over
 * one playback with Chromium's cc / viz / gpu categories. Prints the GPU feature status (is
 * compositing on the GPU, i.e. SwiftShader, or in software?), the panels' geometry, per-thread
 * busiest trace events per painted frame, and the display's frames and render passes.
 * `--dump <file>`: the review's raw trace as JSON, to be read further. `--chromium-arg <flag>` (repeatable):
 * e.g. `--disable-gpu-compositing`, Chromium's software compositor, which redraws only the damage.
 */
import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { openDownloadedReview } from './review-page-setup.ts';
import { bearerToken, paintedPlayback, PLAYBACK_MS, type PlaybackKind } from './review-measures.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';
import { busiestTraceEvents, type TraceEvent } from './cpu-profile.ts';
import { rawWebglPage } from './raw-webgl-page.ts';
import { displayFrames, quadsByDamage } from './compositor-damage.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const FRAMES = Number(argument('--frames') ?? 300);
const DUMP = argument('--dump');
const PORT = Number(process.env.BENCH_PORT ?? 8197);
const CHROMIUM_ARGS = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--chromium-arg' ? [a] : []));
const CATEGORIES = ['toplevel', 'cc', 'viz', 'gpu', 'benchmark', 'disabled-by-default-viz.quads', 'disabled-by-default-cc.debug', 'disabled-by-default-viz.gpu_composite_time'];

async function gpuStatus(browser: Browser): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  const { gpu } = (await session.send('SystemInfo.getInfo')) as { gpu: { featureStatus: Record<string, string>; devices: { vendorString: string; deviceString: string }[] } };
  const status = gpu.featureStatus;
  console.info(`GPU: ${gpu.devices.map((d) => `${d.vendorString} ${d.deviceString}`).join(', ')}`);
  console.info(`  ${['gpu_compositing', 'webgl2', 'rasterization', 'canvas_oop_rasterization', 'skia_graphite', 'video_decode'].map((k) => `${k}=${status[k]}`).join('  ')}`);
}

/** The events each painted frame cost, per thread, and what the display drew. */
function summarise(label: string, events: TraceEvent[], painted: number): void {
  console.info(`\n${label}: ${painted} painted frames traced; busiest events, total ms (per painted frame)`);
  for (const line of busiestTraceEvents(events, 30)) {
    const ms = Number(line.trim().split(' ')[0]);
    console.info(`  ${line}  (${(ms / painted).toFixed(2)} ms/frame)`);
  }
  console.info(`  display frames: ${JSON.stringify(displayFrames(events))}`);
  for (const row of quadsByDamage(events).slice(0, 8)) console.info(`  damage | quads drawn: ${row}`);
  const count = (name: string) => events.filter((e) => e.name === name && (e.ph === 'X' || e.ph === 'B')).length;
  for (const name of ['Display::DrawAndSwap', 'DirectRenderer::DrawFrame', 'SkiaRenderer::SwapBuffers', 'SkiaOutputSurfaceImplOnGpu::SwapBuffers', 'SoftwareRenderer::SwapBuffers', 'DirectRenderer::DrawRenderPass'])
    console.info(`  ${name}: ${count(name)} (${(count(name) / painted).toFixed(2)} per painted frame)`);
}

async function tracePlayback(browser: Browser, page: Page, kind: PlaybackKind, label: string, dump?: string): Promise<void> {
  await paintedPlayback(page, kind);
  await browser.startTracing(page, { categories: CATEGORIES });
  const before = descendantCpuSeconds();
  const figures = await paintedPlayback(page, kind);
  const cpu = descendantCpuSeconds() - before;
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const painted = Math.round(figures.fps * (PLAYBACK_MS / 1000));
  console.info(`\n${label}: ${figures.fps.toFixed(1)} fps painted, ${figures.framesPerSecond.toFixed(1)} animation frames/s, ${((cpu * 1000) / painted).toFixed(1)} ms browser CPU per painted frame (tracing on)`);
  summarise(label, trace.traceEvents, painted);
  if (dump) fs.writeFileSync(dump, JSON.stringify(trace));
}

process.env.PREGENERATE_DEMO ??= 'false';
const server = await startBenchServer(PORT);
const browser = await launchChromium(CHROMIUM_ARGS);
await gpuStatus(browser);
const page = await openDownloadedReview(browser, server, FRAMES);
const geometry = await page.evaluate(() =>
  [...document.querySelectorAll('canvas')].map((c) => {
    const r = c.getBoundingClientRect();
    return `${c.dataset.testid ?? c.className}: css ${r.width.toFixed(0)}x${r.height.toFixed(0)} at ${r.left.toFixed(0)},${r.top.toFixed(0)}, backing ${c.width}x${c.height}`;
  }),
);
console.info(`review canvases (dpr ${await page.evaluate(() => devicePixelRatio)}):\n  ${geometry.join('\n  ')}`);
await tracePlayback(browser, page, 'review', 'review', DUMP);

const rawBrowser = await launchChromium(CHROMIUM_ARGS);
const raw = await (await rawBrowser.newContext({ viewport: { width: 1600, height: 900 }, bypassCSP: true })).newPage();
const recordId = page.url().split('/records/')[1]!.split('/')[0]!;
const authorization = await bearerToken(page);
await raw.goto(`${server.origin}/healthz`);
await raw.setContent(rawWebglPage('array'));
await raw.evaluate(
  async ({ id, authorization, frames }) => {
    const urls = Array.from({ length: Math.ceil(frames / 16) }, (_, i) => `/api/demo/records/${id}/frames/bmode/${i}?v=v1`);
    await (window as unknown as { loadFrames: (...a: unknown[]) => Promise<void> }).loadFrames(urls, frames, 512, 512, authorization);
  },
  { id: recordId, authorization, frames: FRAMES },
);
await tracePlayback(rawBrowser, raw, 'raw', 'raw page');
await rawBrowser.close();
await browser.close();
await server.stop();

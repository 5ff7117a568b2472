/**
 * `node bench/damage-ablation.ts [--frames 300] [--rounds 2] [--variants name=css ...]`: the review's painted
 * playback with parts of the page hidden by a style sheet, alternated round by round (issue 27). For
 * each: the display compositor's damage rectangle per frame (viz redraws one bounding box of all that
 * changed), quads drawn, the GPU thread's SwapBuffers ms (SwiftShader running the draws), and the
 * browser CPU per painted frame from /proc (measured in a playback without tracing).
 */
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { openDownloadedReview } from './review-page-setup.ts';
import { paintedPlayback, percentile, reviewPlaybackCpu } from './review-measures.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';
import { COMPOSITOR_CATEGORIES, displayFrames } from './compositor-damage.ts';
import type { TraceEvent } from './cpu-profile.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const FRAMES = Number(argument('--frames') ?? 300);
const ROUNDS = Number(argument('--rounds') ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 8197);
// The slice indicator stays 'visible' (off screen): paintedPlayback waits on it.
const ONLY = (selector: string) =>
  `body *{visibility:hidden!important} ${selector}{visibility:visible!important} ` +
  '[data-testid=slice-indicator]{visibility:visible!important;position:fixed!important;left:-3000px!important}';
const DEFAULT_VARIANTS: Record<string, string> = {
  review: '',
  'bmode canvas only': ONLY('[data-testid=panel-canvas-bmode]'),
  'three panel canvases only': ONLY('[data-testid^=panel-canvas-]'),
  'no moving cursors': '[data-testid=plot-cursor],[data-testid=lmode-cursor]{visibility:hidden!important}',
};
const given = process.argv.indexOf('--variants');
const variants: Record<string, string> =
  given >= 0 ? Object.fromEntries(process.argv.slice(given + 1).filter((a) => a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)])) : DEFAULT_VARIANTS;

process.env.PREGENERATE_DEMO ??= 'false';
const server = await startBenchServer(PORT);
const browser = await launchChromium();
const page = await openDownloadedReview(browser, server, FRAMES);
const names = Object.keys(variants);
const cpu: Record<string, number[]> = {};
const fps: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    await page.evaluate((css) => {
      document.getElementById('ablation')?.remove();
      const style = Object.assign(document.createElement('style'), { id: 'ablation', textContent: css });
      document.head.append(style);
    }, variants[name]!);
    await page.waitForTimeout(300);
    const playback = await reviewPlaybackCpu(page, descendantCpuSeconds);
    (cpu[name] ??= []).push(playback.cpuMsPerPainted);
    (fps[name] ??= []).push(playback.fps);
    await browser.startTracing(page, { categories: COMPOSITOR_CATEGORIES });
    await paintedPlayback(page, 'review');
    const display = displayFrames((JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents);
    console.info(
      `round ${round + 1} ${name}: ${playback.fps.toFixed(1)} fps, ${cpu[name]!.at(-1)!.toFixed(1)} ms CPU per painted frame; traced: damage ${display.medianDamage} ` +
        `(${(display.medianDamageArea / 1000).toFixed(0)} kpx), ${display.quadsPerFrame} quads, SwapBuffers ${display.swapMsPerFrame.toFixed(1)} ms/frame; ` +
        `most drawn: ${display.damageCounts.slice(0, 4).join(', ')}`,
    );
  }
}
for (const name of names) console.info(`median ${name}: ${percentile(fps[name]!, 0.5).toFixed(1)} fps, ${percentile(cpu[name]!, 0.5).toFixed(1)} ms CPU per painted frame`);
await browser.close();
await server.stop();

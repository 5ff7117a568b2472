/**
 * `node bench/static-panel-experiment.ts [--frames 300] [--rounds 2]`: what a static panel costs per painted frame
 * depending on the element that shows it (issue 27): the live WebGL canvas, hidden, an <img>, a 2D canvas.
 * The angio and L-mode canvases are replaced by a same-size stand-in (noise) while the review plays.
 */
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { openDownloadedReview } from './review-page-setup.ts';
import { percentile, reviewPlaybackCpu } from './review-measures.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';

const arg = (name: string) => { const at = process.argv.indexOf(name); return at >= 0 ? process.argv[at + 1] : undefined; };
const FRAMES = Number(arg('--frames') ?? 300);
const ROUNDS = Number(arg('--rounds') ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 8197);
process.env.PREGENERATE_DEMO ??= 'false';
const server = await startBenchServer(PORT);
const browser = await launchChromium();
const page = await openDownloadedReview(browser, server, FRAMES);
const variants = (arg('--variants') ?? 'webgl,hidden,img,canvas2d,canvas2d-sw,bitmaprenderer').split(',');
const cpu: Record<string, number[]> = {};
const fps: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    await page.evaluate(async (variant) => {
      for (const old of document.querySelectorAll('[data-standin]')) old.remove();
      for (const kind of ['angio', 'lmode']) {
        const canvas = document.querySelector(`[data-testid=panel-canvas-${kind}]`) as HTMLCanvasElement;
        canvas.style.visibility = variant === 'webgl' || variant.includes('opacity') ? '' : 'hidden';
        canvas.style.opacity = variant.includes('opacity') ? '0' : '';
        if (variant === 'webgl' || variant === 'hidden' || variant === 'opacity0') continue;
        const rect = canvas.getBoundingClientRect();
        const source = document.createElement('canvas');
        source.width = canvas.width; source.height = canvas.height;
        const ctx = source.getContext('2d')!;
        const data = ctx.createImageData(source.width, source.height);
        for (let i = 0; i < data.data.length; i += 4) { const v = (Math.random() * 255) | 0; data.data[i] = data.data[i + 1] = data.data[i + 2] = v; data.data[i + 3] = 255; }
        ctx.putImageData(data, 0, 0);
        let standin: HTMLElement;
        if (variant === 'img') {
          const blob = await new Promise<Blob>((r) => source.toBlob((b) => r(b!)));
          const img = document.createElement('img');
          img.src = URL.createObjectURL(blob);
          await img.decode();
          standin = img;
        } else if (variant.startsWith('bitmaprenderer')) {
          const c = document.createElement('canvas'); c.width = source.width; c.height = source.height;
          c.getContext('bitmaprenderer')!.transferFromImageBitmap(await createImageBitmap(source));
          standin = c;
        } else {
          const c = document.createElement('canvas'); c.width = source.width; c.height = source.height;
          c.getContext('2d', { willReadFrequently: variant === 'canvas2d-sw' })!.drawImage(source, 0, 0);
          standin = c;
        }
        standin.dataset.standin = variant;
        Object.assign(standin.style, { position: 'absolute', left: '0', top: '0', width: `${rect.width}px`, height: `${rect.height}px`, display: 'block' });
        canvas.parentElement!.insertBefore(standin, canvas);
      }
    }, variant);
    await page.waitForTimeout(400);
    const playback = await reviewPlaybackCpu(page, descendantCpuSeconds);
    (cpu[variant] ??= []).push(playback.cpuMsPerPainted);
    (fps[variant] ??= []).push(playback.fps);
    console.info(`round ${round + 1} ${variant}: ${playback.fps.toFixed(1)} fps, ${cpu[variant]!.at(-1)!.toFixed(1)} ms CPU per painted frame`);
  }
}
for (const v of variants) console.info(`median ${v}: ${percentile(fps[v]!, 0.5).toFixed(1)} fps, ${percentile(cpu[v]!, 0.5).toFixed(1)} ms CPU per painted frame`);
await browser.close();
await server.stop();

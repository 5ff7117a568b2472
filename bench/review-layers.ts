/**
 * `node bench/review-layers.ts [--frames 300] [--css '<rules>'] [--ablate <selector>…]`: what the review composites and repaints while it
 * plays (issue 27): the composited layers Chromium made for the review (size, owner, why), and
 * with `--ablate <selector>…` the CPU each painted frame costs with one part hidden at a time.
 * `--css '<rules>'` adds a style sheet first: which layers a candidate change would leave, before it is built.
 * Under SwiftShader the compositor draws every layer again, on the CPU, in each painted frame.
 */
import type { CDPSession } from '@playwright/test';
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { openDownloadedReview } from './review-page-setup.ts';
import { paintedPlayback, PLAYBACK_MS } from './review-measures.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';

const at = process.argv.indexOf('--frames');
const FRAMES = at >= 0 ? Number(process.argv[at + 1]) : 300;
// BENCH_PORT: engineers sharing the machine each run it on their own port.
const PORT = Number(process.env.BENCH_PORT ?? 8197);

interface Layer {
  layerId: string;
  parentLayerId?: string;
  backendNodeId?: number;
  width: number;
  height: number;
  offsetX: number;
  offsetY: number;
  drawsContent: boolean;
}

process.env.PREGENERATE_DEMO ??= 'false';
const server = await startBenchServer(PORT);
const browser = await launchChromium();
const page = await openDownloadedReview(browser, server, FRAMES);
const css = process.argv.indexOf('--css');
if (css >= 0) await page.addStyleTag({ content: process.argv[css + 1]! });

const session: CDPSession = await page.context().newCDPSession(page);
await session.send('DOM.getDocument', { depth: -1 });
let layers: Layer[] = [];
session.on('LayerTree.layerTreeDidChange', (event: { layers?: Layer[] }) => {
  if (event.layers) layers = event.layers;
});
await session.send('LayerTree.enable');
await page.waitForTimeout(1000);
const figures = await paintedPlayback(page, 'review');
await page.waitForTimeout(300);

async function describe(backendNodeId: number | undefined): Promise<string> {
  if (backendNodeId === undefined) return '(no element)';
  try {
    const { node } = (await session.send('DOM.describeNode', { backendNodeId })) as { node: { nodeName: string; attributes?: string[] } };
    const attributes = node.attributes ?? [];
    const pick = (name: string) => {
      const index = attributes.indexOf(name);
      return index >= 0 ? `${name}="${attributes[index + 1]!.slice(0, 40)}"` : '';
    };
    return [node.nodeName.toLowerCase(), pick('data-testid'), pick('aria-label'), pick('class')].filter(Boolean).join(' ');
  } catch {
    return `(node ${backendNodeId})`;
  }
}

console.info(`playback ${figures.fps.toFixed(1)} fps painted; ${layers.length} layers, ${layers.filter((l) => l.drawsContent).length} drawing content`);
let area = 0;
for (const layer of layers) {
  if (!layer.drawsContent) continue;
  area += layer.width * layer.height;
  const { compositingReasons } = (await session.send('LayerTree.compositingReasons', { layerId: layer.layerId }).catch(() => ({}))) as { compositingReasons?: string[] };
  const reasons = compositingReasons?.length ? ` [${compositingReasons.join(', ')}]` : '';
  console.info(
    `  ${String(layer.width).padStart(5)}x${String(layer.height).padEnd(5)} at ${layer.offsetX},${layer.offsetY}  ${await describe(layer.backendNodeId)}${reasons}`,
  );
}
console.info(`layers drawing content cover ${(area / (1600 * 900)).toFixed(2)}x the viewport`);

// --ablate: the CPU each painted frame costs with one part of the review hidden at a time.
if (process.argv.includes('--ablate')) {
  const parts = ['none', ...process.argv.slice(process.argv.indexOf('--ablate') + 1).filter((a) => !a.startsWith('--'))];
  for (const selector of [...parts, 'none']) {
    const hide = (on: boolean) =>
      page.evaluate(({ selector, on }) => {
        if (selector === 'none') return 0;
        const elements = [...document.querySelectorAll(selector)] as HTMLElement[];
        for (const element of elements) element.style.visibility = on ? 'hidden' : '';
        return elements.length;
      }, { selector, on });
    const count = await hide(true);
    await page.waitForTimeout(300);
    const before = descendantCpuSeconds();
    const playback = await paintedPlayback(page, 'review');
    const cpu = descendantCpuSeconds() - before;
    await hide(false);
    console.info(`  hidden ${selector} (${count}): ${playback.fps.toFixed(1)} fps, ${((cpu * 1000) / (playback.fps * (PLAYBACK_MS / 1000))).toFixed(0)} ms CPU per painted frame`);
  }
}
await browser.close();
await server.stop();

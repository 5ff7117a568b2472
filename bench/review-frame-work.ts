/**
 * `node bench/review-frame-work.ts [--root <dir>] [--frames 300] [--what react,dom,profile,trace]`:
 * what the review does for each painted frame of playback (issue 27), with the server idle.
 * - react: commits per painted frame, and which components rendered how often (a minimal React
 *   DevTools hook counts the fibers that performed work in each commit);
 * - dom: DOM mutations per painted frame, by element (its nearest test id) and attribute;
 * - profile: Chromium's CPU profile of playback, busiest functions by self and by total time;
 * - trace: style recalcs, layouts (and those forced inside script), paints, by thread and by the
 *   elements whose changes invalidated style or layout;
 * - layers: the compositor's layers (size, the element that owns each) and how often each is
 *   repainted per painted frame (CDP LayerTree.layerPainted).
 * `--root`: a directory whose dist/web is the build to measure; build it unminified
 * (`npx vite build --minify false --outDir <dir>/dist/web --emptyOutDir`) for readable names.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { busiestTraceEvents, hottestFunctions, type CpuProfile, type TraceEvent } from './cpu-profile.ts';
import { paintedPlayback } from './review-measures.ts';
import { openDownloadedReview } from './review-page-setup.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const ROOT = path.resolve(argument('--root') ?? process.cwd());
const FRAMES = Number(argument('--frames') ?? 300);
const WHAT = new Set((argument('--what') ?? 'react,dom,profile,trace,layers').split(','));
const PORT = Number(process.env.BENCH_PORT ?? 8198);
process.env.PREGENERATE_DEMO ??= 'false';

/** In the page before React loads: counts commits and the components that rendered in each, while `on`. */
function installCommitCounter(): void {
  type Fiber = { tag: number; type: unknown; flags: number; alternate: Fiber | null; child: Fiber | null; sibling: Fiber | null };
  const work = { on: false, commits: 0, renders: {} as Record<string, number> };
  (window as unknown as { __frameWork: typeof work }).__frameWork = work;
  const nameOf = (fiber: Fiber): string => {
    const type = fiber.type as { displayName?: string; name?: string; render?: { name?: string; displayName?: string } } | null;
    return type?.displayName || type?.name || type?.render?.displayName || type?.render?.name || '(anonymous)';
  };
  // Function, class, forwardRef and simple memo components; a memo's inner component is its child.
  const COMPONENT_TAGS = new Set([0, 1, 11, 15]);
  const visit = (fiber: Fiber) => {
    const previous = fiber.alternate;
    const rendered = !previous || (fiber.flags & 1) === 1; // PerformedWork
    if (rendered && COMPONENT_TAGS.has(fiber.tag)) work.renders[nameOf(fiber)] = (work.renders[nameOf(fiber)] ?? 0) + 1;
    // Children reused as they were (a bailed-out subtree) did not render in this commit.
    if (previous && fiber.child === previous.child) return;
    for (let child = fiber.child; child; child = child.sibling) visit(child);
  };
  const renderers = new Map<number, unknown>();
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers,
    inject(renderer: unknown) {
      renderers.set(renderers.size + 1, renderer);
      return renderers.size;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      if (!work.on) return;
      work.commits++;
      visit(root.current);
    },
  };
}

const server = await startBenchServer(PORT, ROOT);
const browser = await launchChromium();
const page: Page = await openDownloadedReview(browser, server, FRAMES, async (p) => {
  await p.context().addInitScript(installCommitCounter);
});
console.info(`review of ${FRAMES} frames open (${ROOT}), server idle`);

const perFrame = (n: number, painted: number) => (n / painted).toFixed(2);
const paintedFrames = (fps: number) => fps * 3;

if (WHAT.has('react') || WHAT.has('dom')) {
  await page.evaluate(() => {
    const w = window as unknown as { __frameWork: { on: boolean; commits: number; renders: Record<string, number> }; __mutations: Record<string, number>; __observer: MutationObserver };
    w.__frameWork.on = true;
    w.__frameWork.commits = 0;
    w.__frameWork.renders = {};
    w.__mutations = {};
    const describe = (node: Node | null): string => {
      const element = node instanceof Element ? node : (node?.parentElement ?? null);
      const owner = element?.closest('[data-testid]');
      const own = element ? `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}` : '?';
      return `${owner?.getAttribute('data-testid') ?? '(no test id)'} > ${own}`;
    };
    w.__observer = new MutationObserver((records) => {
      for (const record of records) {
        const key = `${describe(record.target)} ${record.type}${record.attributeName ? ':' + record.attributeName : ''}`;
        w.__mutations[key] = (w.__mutations[key] ?? 0) + 1;
      }
    });
    w.__observer.observe(document.body, { subtree: true, attributes: true, characterData: true, childList: true });
  });
  const playback = await paintedPlayback(page, 'review');
  const result = await page.evaluate(() => {
    const w = window as unknown as { __frameWork: { on: boolean; commits: number; renders: Record<string, number> }; __mutations: Record<string, number>; __observer: MutationObserver };
    w.__frameWork.on = false;
    w.__observer.disconnect();
    return { commits: w.__frameWork.commits, renders: w.__frameWork.renders, mutations: w.__mutations };
  });
  const painted = paintedFrames(playback.fps);
  console.info(`\nplayback ${playback.fps.toFixed(1)} fps painted (${playback.framesPerSecond.toFixed(1)} animation frames/s): ${perFrame(result.commits, painted)} React commits per painted frame`);
  if (WHAT.has('react')) {
    console.info('components rendered per painted frame:');
    for (const [name, n] of Object.entries(result.renders).sort((a, b) => b[1] - a[1]).slice(0, 60)) console.info(`  ${perFrame(n, painted).padStart(7)}  ${name}`);
  }
  if (WHAT.has('dom')) {
    console.info('DOM mutations per painted frame (nearest test id > element, kind):');
    for (const [key, n] of Object.entries(result.mutations).sort((a, b) => b[1] - a[1]).slice(0, 60)) console.info(`  ${perFrame(n, painted).padStart(7)}  ${key}`);
  }
}

if (WHAT.has('profile')) {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  const playback = await paintedPlayback(page, 'review');
  const { profile } = (await session.send('Profiler.stop')) as { profile: CpuProfile };
  // The page's main thread busy in JavaScript (neither idle, nor the browser's own work, "program"): per second of playback and per painted frame.
  const idle = new Set(profile.nodes.filter((n) => ['(idle)', '(program)', '(root)'].includes(n.callFrame.functionName)).map((n) => n.id));
  const scriptMs = profile.samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : (profile.timeDeltas[i] ?? 0) / 1000), 0);
  console.info(`\nJavaScript on the main thread: ${(scriptMs / 3).toFixed(0)} ms per second of playback, ${(scriptMs / paintedFrames(playback.fps)).toFixed(2)} ms per painted frame`);
  console.info(`profiled playback (${playback.fps.toFixed(1)} fps painted): busiest functions, self time`);
  for (const line of hottestFunctions(profile, 40)) console.info(`  ${line}`);
  console.info('busiest functions, total time (self and callees; per painted frame)');
  for (const line of totalTimes(profile, 50, paintedFrames(playback.fps))) console.info(`  ${line}`);
  await session.detach();
}

if (WHAT.has('trace')) {
  await browser.startTracing(page, {
    categories: ['toplevel', 'cc', 'gpu', 'viz', 'blink', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking'],
  });
  const playback = await paintedPlayback(page, 'review');
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: (TraceEvent & { args?: Record<string, unknown> })[] };
  const painted = paintedFrames(playback.fps);
  console.info(`\ntraced playback (${playback.fps.toFixed(1)} fps painted): busiest trace events by thread, total ms`);
  for (const line of busiestTraceEvents(trace.traceEvents, 40)) console.info(`  ${line}`);
  summariseRendering(trace.traceEvents, painted);
}

if (WHAT.has('layers')) {
  type Layer = { layerId: string; backendNodeId?: number; width: number; height: number; drawsContent: boolean; paintCount: number; compositingReasons?: string[] };
  const session = await page.context().newCDPSession(page);
  await session.send('DOM.enable');
  await session.send('DOM.getDocument', { depth: -1 });
  let layers: Layer[] = [];
  session.on('LayerTree.layerTreeDidChange', (event: { layers?: Layer[] }) => {
    if (event.layers) layers = event.layers;
  });
  const painted = new Map<string, number>();
  session.on('LayerTree.layerPainted', (event: { layerId: string }) => painted.set(event.layerId, (painted.get(event.layerId) ?? 0) + 1));
  await session.send('LayerTree.enable');
  const playback = await paintedPlayback(page, 'review');
  const frames = paintedFrames(playback.fps);
  console.info(`\ncompositor layers during playback (${playback.fps.toFixed(1)} fps painted): ${layers.length} layers, ${layers.filter((l) => l.drawsContent).length} drawing content`);
  const describe = async (layer: Layer) => {
    if (!layer.backendNodeId) return '(no element)';
    try {
      const { node } = (await session.send('DOM.describeNode', { backendNodeId: layer.backendNodeId })) as { node: { nodeName: string; attributes?: string[] } };
      const attributes = node.attributes ?? [];
      const attribute = (name: string) => attributes[attributes.indexOf(name) + 1];
      return `${node.nodeName.toLowerCase()}${attributes.includes('data-testid') ? `[${attribute('data-testid')}]` : ''}${attributes.includes('class') ? '.' + attribute('class')!.split(' ')[0] : ''}`;
    } catch {
      return '(gone)';
    }
  };
  const rows = [];
  for (const layer of layers.filter((l) => l.drawsContent)) rows.push({ layer, name: await describe(layer), paints: painted.get(layer.layerId) ?? 0 });
  // Why Chromium made each layer (will-change, overlap with a canvas, ...): the layers that need not exist.
  const reasonsOf = async (layer: Layer) => {
    const { compositingReasons } = (await session.send('LayerTree.compositingReasons', { layerId: layer.layerId }).catch(() => ({}))) as { compositingReasons?: string[] };
    return compositingReasons?.length ? `  [${compositingReasons.join('; ')}]` : '';
  };
  for (const row of rows.sort((a, b) => b.paints - a.paints || b.layer.width * b.layer.height - a.layer.width * a.layer.height)) {
    console.info(`  ${perFrame(row.paints, frames).padStart(6)} paints/frame  ${String(row.layer.width).padStart(5)}x${String(row.layer.height).padEnd(5)} ${row.name}${await reasonsOf(row.layer)}`);
  }
  const area = rows.reduce((sum, row) => sum + row.layer.width * row.layer.height, 0);
  console.info(`  layers drawing content: ${rows.length}, ${(area / 1e6).toFixed(2)} Mpx (the compositor blends each again in every painted frame)`);
  await session.send('LayerTree.disable');
  await session.detach();
}

await browser.close();
await server.stop();

/** Total (inclusive) time by function, recursion counted once, busiest first. */
function totalTimes(profile: CpuProfile, count: number, painted: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'}  ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + ms);
    }
  });
  return [...totals]
    .filter(([key]) => !key.startsWith('(root)') && !key.startsWith('(program)') && !key.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms ${(ms / painted).toFixed(2).padStart(6)} ms/frame  ${key}`);
}

/** Style, layout and paint on the page's main thread: per painted frame, forced ones, and what invalidated them. */
function summariseRendering(events: (TraceEvent & { args?: Record<string, unknown> })[], painted: number): void {
  const mainThreads = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => mainThreads.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
  const scripts = onMain.filter((e) => ['FunctionCall', 'FireAnimationFrame', 'EventDispatch', 'TimerFire', 'RunMicrotasks', 'v8.callFunction'].includes(e.name));
  const inScript = (e: TraceEvent) => scripts.some((s) => s.pid === e.pid && s.tid === e.tid && s.ts <= e.ts && e.ts + (e.dur ?? 0) <= s.ts + (s.dur ?? 0));
  for (const name of ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit']) {
    const all = onMain.filter((e) => e.name === name);
    const forced = all.filter(inScript);
    const ms = all.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0);
    const forcedMs = forced.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0);
    const elements = name === 'UpdateLayoutTree' ? all.reduce((sum, e) => sum + Number((e.args?.elementCount as number | undefined) ?? 0), 0) : 0;
    console.info(
      `  ${name.padEnd(17)} ${perFrame(all.length, painted)} per painted frame, ${(ms / painted).toFixed(2)} ms/frame` +
        (forced.length ? `; forced inside script: ${forced.length} (${forcedMs.toFixed(1)} ms)` : '; none forced inside script') +
        (elements ? `; ${perFrame(elements, painted)} elements restyled per frame` : ''),
    );
  }
  const invalidations = new Map<string, number>();
  for (const e of events) {
    if (!e.name.endsWith('InvalidationTracking')) continue;
    const data = (e.args?.data ?? {}) as { nodeName?: string; reason?: string; invalidatedSelectorId?: string; changedAttribute?: string };
    const key = `${e.name.replace('InvalidationTracking', '')}: ${data.nodeName ?? '?'} (${data.reason ?? data.changedAttribute ?? data.invalidatedSelectorId ?? ''})`;
    invalidations.set(key, (invalidations.get(key) ?? 0) + 1);
  }
  console.info('what invalidated style and layout, per painted frame (node, reason):');
  for (const [key, n] of [...invalidations].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.info(`  ${perFrame(n, painted).padStart(7)}  ${key}`);
}

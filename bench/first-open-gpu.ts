/**
 * `node bench/first-open-gpu.ts [--runs N] [--dir <built tree>] [--no-trace]`: what the browser's GPU process
 * and renderer do from the click on a record nobody opened to Play enabled (issue 27): the page's
 * WebGL calls (contexts made, shaders compiled, programs linked, textures uploaded and their sizes,
 * readbacks, canvas resizes, draws), and a Chromium trace (toplevel, gpu, viz, gpu.service) summed
 * by process, thread and event by self time (thread CPU where the trace has it). Diagnosis: the
 * tracing and the call counting slow the page; for what runs, not for figures.
 * TRACE_CATEGORIES=a,b adds trace categories (e.g. disabled-by-default-devtools.timeline.invalidationTracking);
 * TRACE_DUMP=<file> writes the trace events.
 * Prints figures; asserts nothing. Needs a build and /usr/bin/chromium. BENCH_PORT: the port.
 */
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, startBenchServer } from './browser-bench.ts';
import { demoAccounts } from '../src/server/seed/demo-accounts.ts';
import type { TraceEvent } from './cpu-profile.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8196);
process.env.PREGENERATE_DEMO ??= 'false';
const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const runs = Number(argAfter('--runs') ?? 1);
const dir = path.resolve(argAfter('--dir') ?? process.cwd());
const trace = !process.argv.includes('--no-trace');
/** CPU seconds of every thread of the browser's processes under this bench, by process type and thread name. */
function browserThreads(serverPid: number): Map<string, number> {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const under = (pid: number, root: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  const threads = new Map<string, number>();
  for (const pid of parent.keys()) {
    if (pid === serverPid || under(pid, serverPid) || !under(pid, process.pid)) continue;
    try {
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!commandLine.includes('chrom')) continue;
      const type = /--type=([\w-]+)/.exec(commandLine)?.[1] ?? 'browser';
      for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
        const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '#');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${type} / ${name}`;
        threads.set(key, (threads.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
      }
    } catch {
      // Ended meanwhile.
    }
  }
  return threads;
}

const CATEGORIES = ['toplevel', 'gpu', 'viz', 'cc', 'disabled-by-default-gpu.service', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'blink.user_timing', 'blink.animations', ...(process.env.TRACE_CATEGORIES ?? '').split(',').filter(Boolean)];

/** In the page, before any script: counts the WebGL work. */
function countGl(): void {
  type Log = { contexts: string[]; compiles: number; links: number; shaders: string[]; uploads: string[]; resizes: string[]; calls: Record<string, number> };
  const log: Log = { contexts: [], compiles: 0, links: 0, shaders: [], uploads: [], resizes: [], calls: {} };
  (window as unknown as { glLog: Log }).glLog = log;
  // When the DOM first shows Play enabled, and when the B-mode canvas first shows an image (not polled: observed).
  new MutationObserver(() => {
    const play = document.querySelector('button[aria-label="Play"]');
    if (play && play.getAttribute('aria-disabled') !== 'true' && !log.contexts.some((c) => c.startsWith('Play'))) log.contexts.push(`Play enabled in the DOM @${performance.now().toFixed(0)}`);
    const bmode = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement | null;
    if (bmode?.dataset.drawnSlice && !log.contexts.some((c) => c.startsWith('B-mode'))) {
      log.contexts.push(`B-mode drawn in the DOM @${performance.now().toFixed(0)}`);
      // Animations running while the frames load: each one makes the compositor draw every frame.
      setTimeout(() => log.contexts.push(`animations 300 ms after: ${document.getAnimations().map((a) => `${(a as CSSAnimation).animationName ?? a.constructor.name} on ${((a.effect as KeyframeEffect | null)?.target as HTMLElement | null)?.outerHTML.slice(0, 120) ?? '?'}`).join('; ')}`), 300);
    }
  }).observe(document, { subtree: true, attributes: true, childList: true, attributeFilter: ['aria-disabled', 'data-drawn-slice'] });
  // Every DOM change (what makes the compositor draw a frame), as "time what".
  const mutations: string[] = [];
  (window as unknown as { mutations: string[] }).mutations = mutations;
  const describe = (n: Node) => (n instanceof Element ? `${n.tagName.toLowerCase()}${n.getAttribute('data-testid') ? `[${n.getAttribute('data-testid')}]` : ''}${n.getAttribute('aria-label') ? `[${n.getAttribute('aria-label')}]` : ''}${n.id ? `#${n.id}` : ''}` : n.nodeName);
  new MutationObserver((records) => {
    const at = performance.now().toFixed(0);
    for (const r of records) mutations.push(`${at} ${r.type} ${describe(r.target)}${r.attributeName ? ` @${r.attributeName}` : ''}${r.type === 'childList' ? ` +${[...r.addedNodes].map(describe).join(',')} -${r.removedNodes.length}` : ''}${r.type === 'characterData' ? ` "${String(r.target.textContent).slice(0, 40)}" in ${describe(r.target.parentNode!)}` : ''}`);
  }).observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, attributes?: unknown) {
    if (/webgl/.test(type)) log.contexts.push(`${type} on ${this.dataset.testid ?? (this.isConnected ? 'a canvas in the page' : 'a detached canvas')} ${this.width}x${this.height} ${JSON.stringify(attributes ?? {})} @${performance.now().toFixed(0)}`);
    return (getContext as (this: HTMLCanvasElement, t: string, a?: unknown) => RenderingContext | null).call(this, type, attributes);
  } as typeof HTMLCanvasElement.prototype.getContext;
  for (const side of ['width', 'height'] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, side)!;
    Object.defineProperty(HTMLCanvasElement.prototype, side, {
      configurable: true,
      get: descriptor.get,
      set(this: HTMLCanvasElement, value: number) {
        if (value !== descriptor.get!.call(this)) log.resizes.push(`${this.dataset.testid ?? '?'} ${side}=${value} @${performance.now().toFixed(0)}`);
        descriptor.set!.call(this, value);
      },
    });
  }
  for (const prototype of [WebGL2RenderingContext.prototype, WebGLRenderingContext.prototype] as unknown as Record<string, (...a: unknown[]) => unknown>[]) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = Object.getOwnPropertyDescriptor(prototype, name)?.value as ((...a: unknown[]) => unknown) | undefined;
      if (typeof method !== 'function') continue;
      prototype[name] = function (this: unknown, ...a: unknown[]) {
        log.calls[name] = (log.calls[name] ?? 0) + 1;
        if (name === 'compileShader') log.compiles++;
        if (name === 'linkProgram') log.links++;
        if (name === 'shaderSource') log.shaders.push(`${String(a[1]).length} chars, ${(String(a[1]).match(/\bif\s*\(/g) ?? []).length} ifs @${performance.now().toFixed(0)}${process.env.GL_STACKS && String(a[1]).length > 2500 ? ` from ${new Error().stack!.split('\n').slice(2, 16).map((l) => l.trim().replace(/https?:\/\/[^/]+\/assets\//, '')).join(' < ')}` : ''}`);
        if (name === 'texImage2D' || name === 'texSubImage2D' || name === 'texStorage2D') log.uploads.push(`${name} ${a.length >= 8 ? `${String(a[3])}x${String(a[4])}` : 'from an image'} @${performance.now().toFixed(0)}`);
        return method.apply(this, a);
      };
    }
  }
}

/** Self time (thread CPU where given) of complete events, by process, thread and name. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && (e.name === 'process_name' || e.name === 'thread_name')) names.set(e.name === 'process_name' ? `${e.pid}` : `${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const byThread = new Map<string, (TraceEvent & { tdur?: number; tts?: number })[]>();
  for (const e of events) if (e.ph === 'X' && e.dur !== undefined) (byThread.get(`${e.pid}:${e.tid}`) ?? byThread.set(`${e.pid}:${e.tid}`, []).get(`${e.pid}:${e.tid}`)!).push(e);
  const totals = new Map<string, number>();
  for (const [thread, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const stack: { end: number; key: string; self: number }[] = [];
    const close = (until: number) => {
      while (stack.length && stack.at(-1)!.end <= until) {
        const done = stack.pop()!;
        totals.set(done.key, (totals.get(done.key) ?? 0) + done.self);
      }
    };
    for (const e of list) {
      close(e.ts);
      const cost = (e.tdur ?? e.dur!) / 1000;
      if (stack.length) stack.at(-1)!.self -= cost;
      const pid = thread.split(':')[0]!;
      stack.push({ end: e.ts + e.dur!, key: `${(names.get(pid) ?? pid).padEnd(16)} ${(names.get(thread) ?? thread).padEnd(22)} ${e.name}`, self: cost });
    }
    close(Number.POSITIVE_INFINITY);
  }
  return totals;
}

for (let run = 0; run < runs; run++) {
  const server = await startBenchServer(PORT, dir);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    await context.addInitScript(`const process = { env: { GL_STACKS: ${JSON.stringify(process.env.GL_STACKS ?? '')} } }; (${countGl.toString()})()`);
    const page = await context.newPage();
    const account = demoAccounts('demo')[1]!;
    await page.goto(`${server.origin}/patients`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/patients/);
    await page.goto(`${server.origin}/patients/DEM-001/records`);
    const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*3,600 frames/ }).getByRole('link');
    await link.waitFor();
    await page.waitForTimeout(1500);
    await page.evaluate(() => {
      const log = (window as unknown as { glLog: { calls: Record<string, number> } }).glLog;
      (window as unknown as { before: string }).before = JSON.stringify(log);
    });
    if (trace) await browser.startTracing(page, { categories: CATEGORIES });
    const threadsAtClick = browserThreads(server.pid);
    // A trace event at the click, so the composited frames can be set against the page's clock.
    const clickAt = await page.evaluate(() => {
      performance.mark('ivus-bench-click');
      return performance.now();
    });
    await link.click();
    await page.waitForFunction(() => {
      const play = document.querySelector('button[aria-label="Play"]');
      return play && play.getAttribute('aria-disabled') !== 'true';
    }, null, { timeout: 120_000, polling: 'raf' });
    const playAt = await page.evaluate(() => performance.now());
    const threadsAtPlay = browserThreads(server.pid);
    const events = trace ? (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents : [];
    const log = await page.evaluate(() => (window as unknown as { glLog: unknown; before: string }).glLog);
    if (process.env.MUTATIONS) {
      const mutations = await page.evaluate(() => (window as unknown as { mutations: string[] }).mutations);
      console.info(mutations.filter((m) => Number(m.split(' ')[0]) >= clickAt - 5 && Number(m.split(' ')[0]) <= playAt).join('\n'));
    }
    console.info(`\nrun ${run + 1} (${dir}): Play ${(playAt - clickAt).toFixed(0)} ms after the click (counting${trace ? ' and tracing' : ''} on)`);
    const spent = [...threadsAtPlay].map(([k, v]) => [k, v - (threadsAtClick.get(k) ?? 0)] as const).filter(([, v]) => v >= 0.01).sort((a, b) => b[1] - a[1]);
    const cpuOf = (type: string) => spent.filter(([k]) => k.startsWith(type)).reduce((sum, [, v]) => sum + v, 0);
    console.info(`  CPU-s click to Play: GPU process ${cpuOf('gpu-process').toFixed(2)}, renderer ${cpuOf('renderer').toFixed(2)}`);
    console.info(`  click at ${clickAt.toFixed(0)} ms of the page; browser CPU-s by thread, click to Play: ${spent.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
    console.info(JSON.stringify(log, null, 1).replace(/\n\s*/g, ' ').replace(/("\w+": \[)/g, '\n  $1').slice(0, 20000));
    if (trace) {
      const totals = [...selfTimes(events)].sort((a, b) => b[1] - a[1]);
      const byProcess = new Map<string, number>();
      for (const [key, ms] of totals) byProcess.set(key.slice(0, 16), (byProcess.get(key.slice(0, 16)) ?? 0) + ms);
      console.info(`  traced self ms by process: ${[...byProcess].map(([p, ms]) => `${p.trim()} ${ms.toFixed(0)}`).join(', ')}`);
      for (const [key, ms] of totals.slice(0, 45)) console.info(`  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
      // Each Display::DrawAndSwap is one frame the GPU process composited (a full-viewport redraw under SwiftShader).
      const click = events.find((e) => e.name === 'ivus-bench-click');
      // Up to Play enabled in the DOM (observed), not to the poll that saw it: the other panels start right after.
      const domPlay = Number(/Play enabled in the DOM @(\d+)/.exec(JSON.stringify(log))?.[1] ?? playAt);
      if (click) {
        const playTs = click.ts + (domPlay - clickAt) * 1000;
        const frames = events.filter((e) => e.name === 'Display::DrawAndSwap' && e.ph === 'X' && e.ts >= click.ts && e.ts <= playTs).map((e) => (clickAt + (e.ts - click.ts) / 1000).toFixed(0));
        console.info(`  composited frames, click to Play in the DOM (@${domPlay.toFixed(0)}): ${frames.length} (at page ms ${frames.join(', ')})`);
        // CSS transitions and animations started in the window: each one on the compositor draws a frame every refresh while it runs.
        const started = events.filter((e) => e.name === 'Animation' && e.ph === 'b' && e.ts >= click.ts && e.ts <= playTs).map((e) => {
          const data = (e.args as { data?: { displayName?: string; nodeName?: string } } | undefined)?.data;
          return `${data?.displayName ?? '?'} on ${(data?.nodeName ?? '?').replace(/ class='[^']*'/, '')} @${(clickAt + (e.ts - click.ts) / 1000).toFixed(0)}`;
        });
        console.info(`  CSS transitions/animations started, click to Play in the DOM: ${started.length}${started.length ? ` (${started.join('; ')})` : ''}`);
      }
      if (process.env.TRACE_DUMP) fs.writeFileSync(process.env.TRACE_DUMP, JSON.stringify(events));
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

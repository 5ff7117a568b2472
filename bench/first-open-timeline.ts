/**
 * `node bench/first-open-timeline.ts [--runs N] [--compare <dir>] [--profile]`: where a first open's time goes
 * up to Play enabled (issue 27, goal < 2 s), on the 3,600-frame record nobody opened: the click,
 * the review's code, the image lists, each frame chunk's request and answer, the page's marks
 * (first chunk stored, WebGL start and ready, first image), B-mode drawn, Play enabled and the
 * angio panel's first image drawn (its chunk comes after Play's on a first open), as ms
 * after the click. Each run is a fresh server (nothing made) and a fresh profile (nothing cached).
 * With --compare, runs alternate between the build in <dir> (its own server code and dist, e.g.
 * an exported tree of an earlier commit) and this tree, A, B, A, B, and medians are printed for
 * each. With --to-mla, each run also waits for the first MLA shown (provisional or final; issue 23,
 * which must not get later). The server's side comes from its IMAGING_TIMELINE_FILE (trees that
 * write one): each demo chunk asked for (and at which priority), its render started on a frame
 * worker, rendered, encoded and stored; the page's long tasks (> 50 ms) are listed with it.
 * With --profile, the page's busiest functions from the click to the first B-mode image (the
 * profiler slows the page: for where the time goes, not for figures; use an unminified build).
 * With --server-profile, the server runs under `node --cpu-prof` and each of its threads' busiest
 * functions from the click to Play enabled are printed (the main thread, the frame workers; the
 * profiler slows it: for where the CPU goes, not for figures).
 * Prints figures; asserts nothing. Needs a build and /usr/bin/chromium. BENCH_PORT: the port.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, signedInPage, startBenchServer } from './browser-bench.ts';
import { percentile } from './review-measures.ts';
import { hottestFunctions, hottestFunctionsBetween, type CpuProfile } from './cpu-profile.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8195);
process.env.PREGENERATE_DEMO ??= 'false';
const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const runs = Number(argAfter('--runs') ?? 1);
const compareDir = argAfter('--compare');
const toMla = process.argv.includes('--to-mla');
// The page's main-thread CPU profile from the click to the first B-mode image (slows the page: diagnosis, not figures).
const profileFirstFrame = process.argv.includes('--profile');
const profileServer = process.argv.includes('--server-profile');
const trees = compareDir ? [{ label: 'base', dir: path.resolve(compareDir) }, { label: 'this', dir: process.cwd() }] : [{ label: 'this', dir: process.cwd() }];

interface Timeline {
  bmode: number;
  play: number;
  lines: string[];
  /** CPU seconds (all threads) from the click to Play seen by the bench (polled every 100 ms): the server's, and the browser's processes'. */
  cpu: { server: number; browser: number };
  /** The server's CPU seconds from the click to Play by thread name (MainThread, each worker pool, libuv-worker: zlib and files, V8Worker: GC and compiling). */
  serverThreads: Record<string, number>;
  /** The browser's CPU seconds from the click to Play by process type (renderer, gpu-process, utility: the network, browser). */
  browserProcesses: Record<string, number>;
  /** The page's marks (ms after the click): the first B-mode frame stored alone (trees that store it so) and its whole chunk stored. */
  stored: { frame?: number; chunk?: number };
  /** The angio panel's first image drawn, ms after the click (undefined when it drew none within 30 s). */
  angio?: number;
  /** The first MLA shown (provisional or final), ms after the click; with --to-mla only. */
  mla?: number;
  /** The page's busiest functions from the click to the first B-mode image; with --profile only. */
  profile?: string[];
  /** Each server thread's busy ms and busiest functions from the click to Play; with --server-profile only. */
  serverProfile?: string[];
}

/** In the page, from the click: polls every animation frame for the B-mode drawn and Play enabled. */
function watch(): void {
  const marks: { entry: number; bmode?: number; play?: number; angio?: number; mla?: number; longTasks: [number, number][] } = { entry: performance.now(), longTasks: [] };
  (window as unknown as { timeline: typeof marks }).timeline = marks;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) marks.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask' });
  const poll = () => {
    // The results block's MLA tile, provisional or final, or the summary saying there is none.
    if (!marks.mla && document.querySelector('[data-testid="result-mla"][data-slice], [data-testid="mla-summary"]')) marks.mla = performance.now();
    const canvas = document.querySelector('[data-testid="panel-canvas-bmode"]') as HTMLCanvasElement | null;
    if (canvas?.dataset.drawnSlice && !marks.bmode) marks.bmode = performance.now();
    const angio = document.querySelector('[data-testid="panel-canvas-angio"]') as HTMLCanvasElement | null;
    if (angio?.dataset.drawnSlice && !marks.angio) marks.angio = performance.now();
    const play = document.querySelector('button[aria-label="Play"]');
    if (play && play.getAttribute('aria-disabled') !== 'true' && !marks.play) marks.play = performance.now();
    if (!marks.bmode || !marks.play || !marks.angio || !marks.mla) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** In the page: the requests and marks after the click, as lines "start–end what". */
function collect(): { bmode: number; play: number; lines: string[]; clickEpochMs: number; stored: { frame?: number; chunk?: number } } {
  const { entry, bmode, play, longTasks } = (window as unknown as { timeline: { entry: number; bmode: number; play: number; longTasks: [number, number][] } }).timeline;
  const at = (t: number) => (t - entry).toFixed(0).padStart(6);
  const lines: string[] = [];
  for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    if (e.startTime < entry || e.startTime > play + 50) continue;
    const url = new URL(e.name);
    const what = url.pathname.replace(/^\/api\/records\/[^/]+/, '…').replace(/^\/assets\//, '');
    lines.push(`${at(e.startTime)} – ${at(e.responseEnd)}  ${what} (${(e.encodedBodySize / 1024).toFixed(0)} KB)`);
  }
  for (const m of performance.getEntriesByType('mark')) if (m.startTime >= entry && m.startTime <= play + 50) lines.push(`${at(m.startTime)}           mark ${m.name}`);
  for (const [start, duration] of longTasks) if (start <= play + 50) lines.push(`${at(start)} – ${at(start + duration)}  page long task ${duration.toFixed(0)} ms`);
  lines.push(`${at(bmode)}           B-mode drawn`, `${at(play)}           Play enabled`);
  const markAt = (name: string) => {
    const found = performance.getEntriesByName(name, 'mark').find((m) => m.startTime >= entry);
    return found ? found.startTime - entry : undefined;
  };
  const stored = { frame: markAt('ivus:first-frame-stored'), chunk: markAt('ivus:first-chunk-stored') };
  return { bmode: bmode - entry, play: play - entry, lines, clickEpochMs: performance.timeOrigin + entry, stored };
}

/** The server's chunk events up to Play, as lines like the page's (ms after the click). */
function serverLines(file: string, clickEpochMs: number, playMs: number): string[] {
  if (!fs.existsSync(file)) return [];
  const events = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { at: number; event: string; series?: string; chunk?: number; priority?: string });
  return events
    .map((e) => ({ ...e, ms: e.at - clickEpochMs }))
    .filter((e) => e.ms <= playMs + 50)
    .map((e) => `${e.ms.toFixed(0).padStart(6)}           server ${e.event} ${e.series ?? ''}/${e.chunk ?? ''}${e.priority ? ` (${e.priority})` : ''}`);
}

const threadLine = (threads: Record<string, number>) =>
  Object.entries(threads)
    .sort((a, b) => b[1] - a[1])
    .map(([name, seconds]) => `${name} ${seconds.toFixed(2)}`)
    .join(', ');

const byTime = (a: string, b: string) => Number(a.slice(0, 6)) - Number(b.slice(0, 6));

/**
 * CPU seconds used so far by the server process and by every other process under this bench (the
 * browser's): on 2 cores shared with other work, wall times follow the load; the CPU a first open
 * costs does not.
 */
function cpuSeconds(serverPid: number): { server: number; browser: number; serverThreads: Map<string, number>; browserProcesses: Map<string, number> } {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const under = (pid: number, root: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let browser = 0;
  const hz = 100;
  const browserProcesses = new Map<string, number>();
  for (const [pid, t] of ticks) {
    if (pid === serverPid || under(pid, serverPid) || !under(pid, process.pid)) continue;
    browser += t;
    let kind = 'other';
    try {
      // Chromium rewrites its children's command line as one string: looked for as text.
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const type = /--type=([\w-]+)/.exec(commandLine)?.[1];
      const service = /--utility-sub-type=[\w.]*?(\w+)\b/.exec(commandLine)?.[1];
      kind = type === undefined ? (commandLine.includes('chrom') ? 'browser' : 'other') : service ? `${type} ${service}` : type;
    } catch {
      // The process ended meanwhile.
    }
    browserProcesses.set(kind, (browserProcesses.get(kind) ?? 0) + t / hz);
  }
  const serverThreads = new Map<string, number>();
  try {
    for (const task of fs.readdirSync(`/proc/${serverPid}/task`)) {
      try {
        const stat = fs.readFileSync(`/proc/${serverPid}/task/${task}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        serverThreads.set(name, (serverThreads.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / hz);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // The server ended meanwhile.
  }
  return { server: (ticks.get(serverPid) ?? 0) / hz, browser: browser / hz, serverThreads, browserProcesses };
}

async function firstOpen(dir: string, port: number): Promise<Timeline> {
  const timelineFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'first-open-')), 'imaging.jsonl');
  process.env.IMAGING_TIMELINE_FILE = timelineFile;
  const profileDir = path.join(path.dirname(timelineFile), 'server-profile');
  const nodeOptions = process.env.NODE_OPTIONS;
  if (profileServer) process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --cpu-prof --cpu-prof-dir=${profileDir}`;
  const server = await startBenchServer(port, dir).finally(() => {
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  });
  let window: { fromUs: number; toUs: number } | undefined;
  const browser = await launchChromium();
  try {
    const page = await signedInPage(browser, server.origin);
    await page.goto(`${server.origin}/patients/DEM-001/records`);
    const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*3,600 frames/ }).getByRole('link');
    await link.waitFor();
    await page.waitForTimeout(1000);
    await page.evaluate(watch);
    const cpuAtClick = cpuSeconds(server.pid);
    const session = profileFirstFrame ? await page.context().newCDPSession(page) : null;
    if (session) {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 200 });
      await session.send('Profiler.start');
    }
    await link.click();
    let profile: string[] | undefined;
    if (session) {
      await page.waitForFunction(() => (window as unknown as { timeline?: { bmode?: number } }).timeline?.bmode, null, { timeout: 120_000, polling: 50 });
      profile = hottestFunctions(((await session.send('Profiler.stop')) as { profile: CpuProfile }).profile, 25);
    }
    await page.waitForFunction(() => {
      const t = (window as unknown as { timeline?: { bmode?: number; play?: number } }).timeline;
      return t?.bmode && t.play;
    }, null, { timeout: 120_000, polling: 100 });
    const cpuAtPlay = cpuSeconds(server.pid);
    const cpu = { server: cpuAtPlay.server - cpuAtClick.server, browser: cpuAtPlay.browser - cpuAtClick.browser };
    // Threads that ended before Play are missed (none of the server's do in a first open).
    const serverThreads = Object.fromEntries([...cpuAtPlay.serverThreads].map(([name, seconds]) => [name, seconds - (cpuAtClick.serverThreads.get(name) ?? 0)]));
    const browserProcesses = Object.fromEntries([...cpuAtPlay.browserProcesses].map(([kind, seconds]) => [kind, seconds - (cpuAtClick.browserProcesses.get(kind) ?? 0)]));
    const { clickEpochMs, ...seen } = await page.evaluate(collect);
    // The profiles' clock is the system's monotonic one (process.hrtime); the page's is the epoch.
    const epochMinusMonotonicUs = Date.now() * 1000 - Number(process.hrtime.bigint() / 1000n);
    window = { fromUs: clickEpochMs * 1000 - epochMinusMonotonicUs, toUs: (clickEpochMs + seen.play) * 1000 - epochMinusMonotonicUs };
    // The angio panel starts only after Play: its first image comes after the timeline above.
    await page.waitForFunction(() => (window as unknown as { timeline?: { angio?: number } }).timeline?.angio, null, { timeout: 30_000, polling: 20 }).catch(() => undefined);
    const angio = await page.evaluate(() => {
      const t = (window as unknown as { timeline: { entry: number; angio?: number } }).timeline;
      return t.angio === undefined ? undefined : t.angio - t.entry;
    });
    const timeline = { ...seen, angio, cpu, serverThreads, browserProcesses, profile, lines: [...seen.lines, ...serverLines(timelineFile, clickEpochMs, seen.play)].sort(byTime) };
    if (!toMla) return timeline;
    await page.waitForFunction(() => (window as unknown as { timeline?: { mla?: number } }).timeline?.mla, null, { timeout: 300_000, polling: 200 });
    const mla = await page.evaluate(() => {
      const t = (window as unknown as { timeline: { entry: number; mla: number } }).timeline;
      return t.mla - t.entry;
    });
    return { ...timeline, mla };
  } finally {
    await browser.close();
    await server.stop();
    if (profileServer && window) lastServerProfile = serverProfileLines(profileDir, window.fromUs, window.toUs);
    fs.rmSync(path.dirname(timelineFile), { recursive: true, force: true });
  }
}

let lastServerProfile: string[] | undefined;

/** Each server thread's profile (its file name ends in the thread's number: 0 the main thread) from the click to Play. */
function serverProfileLines(dir: string, fromUs: number, toUs: number): string[] {
  if (!fs.existsSync(dir)) return ['(no server profile written)'];
  const lines: string[] = [];
  let totalMs = 0;
  for (const file of fs.readdirSync(dir).sort()) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const { busyMs, lines: hottest } = hottestFunctionsBetween(profile, fromUs, toUs, 12);
    if (busyMs < 1) continue;
    totalMs += busyMs;
    const thread = /\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1] ?? '?';
    lines.push(`thread ${thread}${thread === '0' ? ' (main)' : ''}: busy ${busyMs.toFixed(0)} ms`, ...hottest.map((line) => `  ${line}`));
  }
  return [`all threads: busy ${totalMs.toFixed(0)} ms (JS threads only; zlib and file I/O on libuv's pool are not sampled)`, ...lines];
}

const results = new Map<string, Timeline[]>(trees.map((tree) => [tree.label, []]));
for (let run = 0; run < runs; run++) {
  for (const tree of trees) {
    // The server's code is the tree's own (startBenchServer resolves it from the working directory).
    const previous = process.cwd();
    process.chdir(tree.dir);
    const timeline = await firstOpen(tree.dir, PORT).finally(() => process.chdir(previous));
    timeline.serverProfile = lastServerProfile;
    lastServerProfile = undefined;
    results.get(tree.label)!.push(timeline);
    console.info(`\n${tree.label} run ${run + 1} (load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}): B-mode drawn ${timeline.bmode.toFixed(0)} ms, Play enabled ${timeline.play.toFixed(0)} ms after the click, angio drawn ${timeline.angio?.toFixed(0) ?? 'never'} ms, CPU to Play: server ${timeline.cpu.server.toFixed(2)} s, browser ${timeline.cpu.browser.toFixed(2)} s${timeline.mla === undefined ? '' : `, first MLA ${timeline.mla.toFixed(0)} ms`}`);
    console.info(`  server CPU-s to Play by thread: ${threadLine(timeline.serverThreads)}; browser by process: ${threadLine(timeline.browserProcesses)}`);
    for (const line of timeline.lines) console.info(`  ${line}`);
    if (timeline.serverProfile) console.info(`  the server's threads, click to Play enabled, by self time:\n${timeline.serverProfile.map((line) => `    ${line}`).join('\n')}`);
    if (timeline.profile) console.info(`  the page's main thread, click to the first B-mode image, by self time:\n${timeline.profile.map((line) => `    ${line}`).join('\n')}`);
  }
}
console.info('\nmedians, ms after the click on the record nobody opened:');
for (const [label, timelines] of results) {
  const median = (pick: (t: Timeline) => number | undefined) => percentile(timelines.map((t) => pick(t) ?? Number.NaN), 0.5).toFixed(0).padStart(6);
  // The first B-mode image in the store: its frame alone where the tree stores it so, else its whole chunk.
  const names = [...new Set(timelines.flatMap((t) => Object.keys(t.serverThreads)))];
  const threadMedians = Object.fromEntries(names.map((name) => [name, percentile(timelines.map((t) => t.serverThreads[name] ?? 0), 0.5)]));
  const kinds = [...new Set(timelines.flatMap((t) => Object.keys(t.browserProcesses)))];
  const processMedians = Object.fromEntries(kinds.map((kind) => [kind, percentile(timelines.map((t) => t.browserProcesses[kind] ?? 0), 0.5)]));
  console.info(`  ${label.padEnd(5)} server CPU-s to Play by thread (medians): ${threadLine(threadMedians)}; browser by process: ${threadLine(processMedians)}`);
  console.info(`  ${label.padEnd(5)} B-mode drawn ${median((t) => t.bmode)}  Play enabled ${median((t) => t.play)}  angio drawn ${median((t) => t.angio)}  first image stored ${median((t) => t.stored.frame ?? t.stored.chunk)}, its chunk ${median((t) => t.stored.chunk)}  CPU-s to Play: server ${percentile(timelines.map((t) => t.cpu.server), 0.5).toFixed(2)}, browser ${percentile(timelines.map((t) => t.cpu.browser), 0.5).toFixed(2)}${toMla ? `  first MLA ${median((t) => t.mla)}` : ''}  (${timelines.length} runs)`);
}

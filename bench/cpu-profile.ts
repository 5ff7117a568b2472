/** Chromium's CPU profile (Profiler.stop of the DevTools protocol), summed by function. */
export interface CpuProfile {
  /** Node's profiles (--cpu-prof): the first and last sample's time, µs on the system's monotonic clock (process.hrtime). */
  startTime?: number;
  endTime?: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time, as "ms  share  name  file:line", busiest first. */
export function hottestFunctions(profile: CpuProfile, count: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const key = `${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
  });
  return [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

/**
 * A Node thread's profile (--cpu-prof) between two times on the monotonic clock (µs, as
 * process.hrtime.bigint() / 1000n): its busy ms (idle left out) and busiest functions by self time.
 */
export function hottestFunctionsBetween(profile: CpuProfile, fromUs: number, toUs: number, count: number): { busyMs: number; lines: string[] } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  let busyMs = 0;
  let at = profile.startTime ?? 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time up to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = byNode.get(id)!.callFrame;
    if (at < fromUs || at > toUs || frame.functionName === '(idle)') return;
    const key = `${frame.functionName || '(anonymous)'}  ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
    busyMs += ms;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
  });
  const lines = [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms ${((ms / Math.max(busyMs, 1e-9)) * 100).toFixed(1).padStart(5)}%  ${key}`);
  return { busyMs, lines };
}

/** One event of a Chromium trace (the JSON trace format). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** Complete events summed by thread and name (self and children alike), busiest first, with their count. */
export function busiestTraceEvents(events: TraceEvent[], count: number): string[] {
  const threadNames = new Map<string, string>();
  for (const event of events) if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '?');
  const totals = new Map<string, { ms: number; n: number }>();
  for (const event of events) {
    if (event.ph !== 'X' || !event.dur) continue;
    const key = `${(threadNames.get(`${event.pid}:${event.tid}`) ?? `${event.pid}:${event.tid}`).padEnd(24)} ${event.name}`;
    const total = totals.get(key) ?? { ms: 0, n: 0 };
    total.ms += event.dur / 1000;
    total.n += 1;
    totals.set(key, total);
  }
  return [...totals]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, count)
    .map(([key, { ms, n }]) => `${ms.toFixed(1).padStart(8)} ms ${String(n).padStart(6)}x  ${key}`);
}

/**
 * One autocannon run at a fixed number of connections for a fixed time, with its figures taken from
 * every response (latency with sub-millisecond resolution, of every status, per request path) and
 * the CPU each process group used meanwhile.
 */
import { createRequire } from 'node:module';
import autocannon, { type Client, type Instance, type RequestSpec } from 'autocannon';
import { machineBusySeconds } from './cluster.ts';

// autocannon 9 appends every response body to a string (`body += chunk`), which for the 3 MB binary
// frame chunks means decoding ~1 GB/s as UTF-8 in the load generator, on the same 2 cores as the
// servers. Bodies are only kept for requests that read them (an `onResponse`, as the saves have).
const require = createRequire(import.meta.url);
type PendingQueue = { peek(): { req?: RequestSpec } | undefined; addBody(data: Buffer): void };
const Queue = require('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: PendingQueue };
const keepBody = Queue.prototype.addBody;
Queue.prototype.addBody = function addBody(this: PendingQueue, data: Buffer) {
  if (typeof this.peek()?.req?.onResponse === 'function') keepBody.call(this, data);
};

export type CpuProbes = Record<string, () => number>;

export type LoadResult = {
  seconds: number;
  responses: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Connection errors and timeouts (no response at all). */
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** Response bytes on the wire (headers and body, gzip as sent) per second, in MB (10^6 bytes). */
  mbps: number;
  /** Cores busy on average during the run, per process group, plus `other` (the rest of the machine). */
  cores: Record<string, number>;
  /** Latencies per request path (query string included), in ms. */
  perPath: Map<string, number[]>;
};

export type LoadOptions = {
  port: number;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  requests?: RequestSpec[];
  setupClient?: (client: Client) => void;
  probes: CpuProbes;
};

let current: Instance | null = null;

/** Stops the run in progress (Ctrl-C). */
export function stopCurrentLoad(): void {
  current?.stop();
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const perPath = new Map<string, number[]>();
  let bytes = 0;
  const statuses: Record<string, number> = {};
  const cpuBefore = Object.fromEntries(Object.entries(options.probes).map(([name, probe]) => [name, probe()]));
  const clientBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const started = performance.now();
  const instance = autocannon({
    url: `http://127.0.0.1:${options.port}`,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
    headers: options.headers,
    ...(options.requests ? { requests: options.requests } : {}),
    ...(options.setupClient ? { setupClient: options.setupClient } : {}),
  });
  current = instance;
  instance.on('response', (client, statusCode, resBytes, responseTime) => {
    latencies.push(responseTime);
    bytes += resBytes;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    // With one request in flight per connection, the iterator still points at the request just answered.
    const path = client.requestIterator?.currentRequest?.path ?? '?';
    let list = perPath.get(path);
    if (!list) perPath.set(path, (list = []));
    list.push(responseTime);
  });
  const result = await instance;
  current = null;
  const seconds = (performance.now() - started) / 1000;
  const cores: Record<string, number> = {};
  let ours = 0;
  for (const [name, probe] of Object.entries(options.probes)) {
    const used = probe() - cpuBefore[name]!;
    ours += used;
    cores[name] = used / seconds;
  }
  const client = process.cpuUsage(clientBefore);
  const clientSeconds = (client.user + client.system) / 1e6;
  ours += clientSeconds;
  cores['load generator'] = clientSeconds / seconds;
  cores.other = Math.max(0, machineBusySeconds() - machineBefore - ours) / seconds;
  latencies.sort((a, b) => a - b);
  for (const list of perPath.values()) list.sort((a, b) => a - b);
  const non2xx = Object.entries(statuses).reduce((sum, [status, count]) => (status.startsWith('2') ? sum : sum + count), 0);
  return {
    seconds,
    responses: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx,
    statuses,
    mbps: bytes / seconds / 1e6,
    cores,
    perPath,
  };
}

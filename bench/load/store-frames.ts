/**
 * bench:load, frame chunks delivered by the object store (issue 27): a replica on S3 storage (s3rver
 * in a process of its own) answers each chunk with a signed URL, and the client fetches the bytes
 * from the store. Measured three ways in the same run as the app-sent bytes and the static file
 * server: the app's location answers alone, the store's signed GETs alone, and the whole chain a
 * browser makes per chunk (location, then store), which is "frame delivery through the product".
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import type { Client } from 'autocannon';
import { startReplica, stopChild, type Cleanup } from '../../tests/support/cluster.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { cpuSeconds, machineBusySeconds } from './cluster.ts';
import { percentile, type CpuProbes, type LoadResult } from './run-load.ts';

type S3Child = { child: ChildProcess; port: number; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };

function startS3Child(publicUrlTemplate: string, cleanup: Cleanup): Promise<S3Child> {
  const child = spawn(process.execPath, ['bench/load/s3-child.ts', publicUrlTemplate], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add('stop s3rver', () => stopChild(child, 3000));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const ready = JSON.parse(line) as Omit<S3Child, 'child'>;
        if (typeof ready.port === 'number') resolve({ child, ...ready });
      } catch {
        // not the ready line
      }
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
}

/** One GET on a keep-alive agent: status and whole body. */
function fetchOn(agent: http.Agent, port: number, pathName: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ agent, host: '127.0.0.1', port, path: pathName, headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export type ChainResult = { rps: number; p50: number; p99: number; errors: number; mbps: number; cores: Record<string, number> };

/** `connections` clients, each asking the app where a chunk is and then fetching it from the store, for `seconds`. */
async function chainLoad(appPort: number, headers: Record<string, string>, chunkPaths: string[], connections: number, seconds: number, probes: CpuProbes): Promise<ChainResult> {
  const appAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const storeAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const before = Object.fromEntries(Object.entries(probes).map(([name, probe]) => [name, probe()]));
  const clientBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = async (first: number) => {
    for (let k = first; performance.now() < deadline; k++) {
      const begun = performance.now();
      try {
        const location = await fetchOn(appAgent, appPort, chunkPaths[k % chunkPaths.length]!, headers);
        if (location.status !== 200) throw new Error(`location ${location.status}`);
        const url = new URL((JSON.parse(location.body.toString()) as { url: string }).url);
        const chunk = await fetchOn(storeAgent, Number(url.port), url.pathname + url.search);
        if (chunk.status !== 200) throw new Error(`store ${chunk.status}`);
        bytes += chunk.body.length;
        latencies.push(performance.now() - begun);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => client(i)));
  const elapsed = (performance.now() - started) / 1000;
  appAgent.destroy();
  storeAgent.destroy();
  const cores: Record<string, number> = {};
  let ours = 0;
  for (const [name, probe] of Object.entries(probes)) {
    const used = probe() - before[name]!;
    ours += used;
    cores[name] = used / elapsed;
  }
  const used = process.cpuUsage(clientBefore);
  cores['load generator'] = (used.user + used.system) / 1e6 / elapsed;
  cores.other = Math.max(0, machineBusySeconds() - machineBefore - ours - (used.user + used.system) / 1e6) / elapsed;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, mbps: bytes / elapsed / 1e6, cores };
}

export type SignedDeliveryOptions = {
  root: string;
  /** The replicas' environment (PostgreSQL, tenant template...): the S3 replica gets the same plus its bucket. */
  env: Record<string, string>;
  cleanup: Cleanup;
  headers: Record<string, string>;
  chunkPaths: string[];
  connections: number;
  seconds: number;
  /** bench:load's measure (warm-up, then the run) on a port. */
  measure: (port: number, probes: CpuProbes, load: { setupClient?: (client: Client) => void; headers?: Record<string, string> }) => Promise<LoadResult>;
  /** Each connection walks the chunks in order from a chunk of its own (as bench:load's frame scenario). */
  clientsOver: (paths: string[]) => (client: Client) => void;
};

export type SignedDelivery = { location: LoadResult; store: LoadResult; product: ChainResult; generationSeconds: number };

export async function measureSignedDelivery(options: SignedDeliveryOptions): Promise<SignedDelivery> {
  const s3 = await startS3Child(options.env.PUBLIC_URL_TEMPLATE ?? 'http://{tenant}.localhost', options.cleanup);
  const port = await freePort();
  const env = {
    ...options.env,
    DATA_DIR: path.join(options.root, 'data-s3'),
    STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    // URLs gathered once and replayed for the whole run: they must outlive it.
    S3_SIGNED_URL_SECONDS: '3600',
  };
  const replica = await startReplica('replica S3', port, env, path.join(options.root, 'replica-s3.log'), options.cleanup);
  const probes: CpuProbes = { 'S3 replica': () => cpuSeconds(replica.child.pid!), s3rver: () => cpuSeconds(s3.child.pid!) };

  // The record's chunks made into the bucket (the demo generator), and one signed URL per chunk.
  const begun = performance.now();
  const agent = new http.Agent({ keepAlive: true });
  const storePaths: string[] = [];
  for (const chunkPath of options.chunkPaths) {
    const answer = await fetchOn(agent, port, chunkPath, options.headers);
    if (answer.status !== 200) throw new Error(`signed frame location: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
    const url = new URL((JSON.parse(answer.body.toString()) as { url: string }).url);
    storePaths.push(url.pathname + url.search);
  }
  agent.destroy();
  const generationSeconds = (performance.now() - begun) / 1000;

  const location = await options.measure(port, probes, { setupClient: options.clientsOver(options.chunkPaths) });
  const store = await options.measure(s3.port, probes, { setupClient: options.clientsOver(storePaths), headers: {} });
  const product = await chainLoad(port, options.headers, options.chunkPaths, options.connections, options.seconds, probes);
  return { location, store, product, generationSeconds };
}

/** The signed-URL rows beside the app-sent bytes and the static file server of the same run. */
export function printSignedDelivery(result: SignedDelivery, appSends: LoadResult | undefined, staticFiles: LoadResult | undefined, framesPerChunk: number): void {
  const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const ratio = (rps: number) => (staticFiles ? `${(rps / staticFiles.rps).toFixed(2)}x` : '-');
  console.info(
    `\n2b. Frame chunks with signed URLs (STORAGE=s3, FRAMES_FROM_STORE): the app answers where, the store (s3rver, one Node process) sends the bytes; ` +
      `chunks made into the bucket in ${result.generationSeconds.toFixed(1)} s. Goal: the whole chain >= 0.95x the static file server`,
  );
  const line = (cells: string[]) => console.info(`  ${cells[0]!.padEnd(44)}${cells.slice(1).map((c) => c.padStart(10)).join('')}`);
  line(['', 'chunks/s', 'p50 ms', 'p99 ms', 'errors', 'MB/s', 'frames/s', 'vs static']);
  const row = (label: string, r: { rps: number; p50: number; p99: number; errors: number; mbps: number }) =>
    line([label, fixed(r.rps), fixed(r.p50, 1), fixed(r.p99, 1), String(r.errors), fixed(r.mbps, 1), fixed(r.rps * framesPerChunk), ratio(r.rps)]);
  if (staticFiles) row('static file server (same bytes)', staticFiles);
  if (appSends) row('1 replica sends the bytes (today)', appSends);
  row('1 replica answers signed locations only', result.location);
  row('store alone, signed GETs (s3rver)', result.store);
  row('through the product: location + store GET', result.product);
  const cores = (c: Record<string, number>) => Object.entries(c).filter(([, v]) => v >= 0.005).map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ');
  console.info(`  CPU cores busy, locations: ${cores(result.location.cores)}; store: ${cores(result.store.cores)}; chain: ${cores(result.product.cores)}`);
  console.info('  (s3rver is a test double written in JavaScript that reads each object and its metadata from disk per GET: a real S3, MinIO or a CDN in front sends far faster; the location rate is what the replicas themselves can hand out.)');
}

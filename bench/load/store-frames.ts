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
import { startCdnDelivery, type CdnDelivery } from './cdn-frames.ts';
import { cpuSeconds, machineBusySeconds } from './cluster.ts';
import { percentile, type CpuProbes, type LoadResult } from './run-load.ts';

type S3Child = { child: ChildProcess; port: number; endpoint: string; origin: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };

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

/** The batch route's path for chunks from..from+count-1 of the series a chunk path names. */
function batchPathOf(chunkPath: string, from: number, count: number): string {
  return chunkPath.replace(/\/frames\/(bmode|angio)\/\d+\?v=([^&]*)$/, `/frame-locations/$1?v=$2&from=${from}&count=${count}`);
}

/**
 * A stored record's steady state before any run: its whole imaging made, angiography included, so
 * its 'complete' marker is in the bucket and a batch of locations lists the chunks without a HEAD
 * per chunk, as for an imported record or a demo record opened before. Asking for the record has the
 * replica make the rest (records.ts: the images route prepares it); the marker is then looked for in the bucket.
 */
async function untilImagingComplete(agent: http.Agent, port: number, chunkPath: string, headers: Record<string, string>, s3: S3Child): Promise<void> {
  const parts = /^\/api\/([^/]+)\/records\/([^/]+)\/frames\/[a-z]+\/\d+\?v=([^&]+)$/.exec(chunkPath);
  if (!parts) throw new Error(`not a chunk path: ${chunkPath}`);
  const [, tenant, id, version] = parts;
  const opened = await fetchOn(agent, port, `/api/${tenant}/records/${id}/images`, headers);
  if (opened.status !== 200) throw new Error(`record images: ${opened.status}`);
  const marker = new URL(`${s3.origin}/${s3.bucket}/${tenant}/${id}/${decodeURIComponent(version!)}/complete`);
  const deadline = Date.now() + 300_000;
  while ((await fetchOn(agent, Number(marker.port), marker.pathname)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the record imaging was not complete within 300 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * What each client of chainLoad does per chunk: today's chain (the app's location of the chunk, then
 * the store's GET); a batch of `size` locations from the app (fewer at the series' end), then the
 * store's GET of each; or plain GETs of `paths` on `port` (the static file server, through this same
 * client code, so that the chains' ratio to it measures the chain and not the client).
 */
type ChainMode = { kind: 'per-chunk' } | { kind: 'batch'; size: number } | { kind: 'plain'; port: number; paths: string[] };

/**
 * `connections` clients for `seconds`, each walking the chunks in order from a chunk of its own as
 * `mode` says. A chunk's time includes its share of waiting for its batch (the first chunk of a
 * batch waits for the whole batch answer).
 */
async function chainLoad(
  appPort: number,
  headers: Record<string, string>,
  chunkPaths: string[],
  connections: number,
  seconds: number,
  probes: CpuProbes,
  mode: ChainMode = { kind: 'per-chunk' },
): Promise<ChainResult> {
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
  const storeGet = async (url: URL, begun: number) => {
    const chunk = await fetchOn(storeAgent, Number(url.port), url.pathname + url.search);
    if (chunk.status !== 200) throw new Error(`store ${chunk.status}`);
    bytes += chunk.body.length;
    latencies.push(performance.now() - begun);
  };
  const batchClient = async (first: number, size: number) => {
    for (let k = first % chunkPaths.length; performance.now() < deadline; ) {
      let begun = performance.now();
      const count = Math.min(size, chunkPaths.length - k);
      try {
        const answer = await fetchOn(appAgent, appPort, batchPathOf(chunkPaths[0]!, k, count), headers);
        if (answer.status !== 200) throw new Error(`batch ${answer.status}`);
        const { locations } = JSON.parse(answer.body.toString()) as { locations: { url?: string }[] };
        for (const location of locations) {
          if (performance.now() >= deadline) break;
          try {
            if (!location.url) throw new Error('not ready');
            await storeGet(new URL(location.url), begun);
          } catch {
            errors++;
          }
          begun = performance.now();
        }
      } catch {
        errors++;
      }
      k = (k + count) % chunkPaths.length;
    }
  };
  const plainClient = async (first: number, port: number, paths: string[]) => {
    for (let k = first; performance.now() < deadline; k++) {
      const begun = performance.now();
      try {
        const chunk = await fetchOn(storeAgent, port, paths[k % paths.length]!);
        if (chunk.status !== 200) throw new Error(`plain ${chunk.status}`);
        bytes += chunk.body.length;
        latencies.push(performance.now() - begun);
      } catch {
        errors++;
      }
    }
  };
  const client = async (first: number) => {
    if (mode.kind === 'batch') return batchClient(first, mode.size);
    if (mode.kind === 'plain') return plainClient(first, mode.port, mode.paths);
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
  /** Chunks per batch of locations, one chain measured for each (the page asks 64). */
  batchSizes: number[];
  /** The static file server of the same run, measured once more after the chains. */
  measureStatic?: () => Promise<LoadResult>;
  /** The static file server and its paths for the same chunks: GET through the chains' own client, before and after them. */
  staticFiles?: { port: number; paths: string[] };
  /** 1 + the further rounds of chains between static runs through the same client (the first is the one printed in full). */
  rounds: number;
};

export type SignedDelivery = {
  location: LoadResult;
  store: LoadResult;
  product: ChainResult;
  /** The chain with batches of locations, by chunks per batch. */
  batched: { size: number; result: ChainResult }[];
  /** The static file server measured again right after the chains, so the ratios compare neighbours in time. */
  staticAfter: LoadResult | null;
  /** The static file server through the chains' own client, just before and just after them. */
  staticByClient: ChainResult[];
  /**
   * More rounds of the same (static through this client, per-chunk chain, each batch size, static
   * again), each chain's rate over its round's static mean: on a shared machine the rate swings
   * between minutes, a ratio within a round far less.
   */
  roundRatios: { perChunk: number; batched: number[]; store: number; cdn: number[]; cdnAlone: number }[];
  generationSeconds: number;
  /** Through the frames CDN (deploy/cdn), when nginx is installed: the chains by batch size, and its GETs alone. */
  cdn: { delivery: CdnDelivery; batched: { size: number; result: ChainResult }[]; alone: ChainResult } | null;
};

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
  let probes: CpuProbes = { 'S3 replica': () => cpuSeconds(replica.child.pid!), s3rver: () => cpuSeconds(s3.child.pid!) };

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
  await untilImagingComplete(agent, port, options.chunkPaths[0]!, options.headers, s3);
  agent.destroy();
  const generationSeconds = (performance.now() - begun) / 1000;
  const cdnDelivery = await startCdnDelivery({ root: options.root, env, s3, cleanup: options.cleanup, headers: options.headers, chunkPaths: options.chunkPaths, batchPathOf, fetchOn });
  if (cdnDelivery) probes = { ...probes, ...cdnDelivery.probes };

  const location = await options.measure(port, probes, { setupClient: options.clientsOver(options.chunkPaths) });
  const store = await options.measure(s3.port, probes, { setupClient: options.clientsOver(storePaths), headers: {} });
  const chainVia = (appPort: number, mode?: ChainMode) => chainLoad(appPort, options.headers, options.chunkPaths, options.connections, options.seconds, probes, mode);
  const chain = (mode?: ChainMode) => chainVia(port, mode);
  const plain = async () => (options.staticFiles ? [await chain({ kind: 'plain', ...options.staticFiles })] : []);
  // Neighbours in time on a shared machine: the static server through the same client before and after the chains.
  const staticByClient = await plain();
  const product = await chain();
  const batched: { size: number; result: ChainResult }[] = [];
  // A batch never runs past the series' end: asked for more than the record has, it is the whole record.
  for (const size of options.batchSizes.map((n) => Math.min(n, options.chunkPaths.length))) batched.push({ size, result: await chain({ kind: 'batch', size }) });
  // The product's chain through the CDN (a batch of its URLs from the replica, then its GETs), and its GETs alone.
  const cdnChains = async () => {
    if (!cdnDelivery) return null;
    const chains: { size: number; result: ChainResult }[] = [];
    for (const { size } of batched) chains.push({ size, result: await chainVia(cdnDelivery.replicaPort, { kind: 'batch', size }) });
    return { chains, alone: await chain({ kind: 'plain', port: cdnDelivery.cdnPort, paths: cdnDelivery.cdnPaths }) };
  };
  const cdnFirst = await cdnChains();
  staticByClient.push(...(await plain()));
  const roundRatios = [];
  const sizes = batched.map((b) => b.size);
  if (options.staticFiles) {
    const ratioOf = (rps: number, around: ChainResult[]) => rps / ((around[0]!.rps + around[1]!.rps) / 2);
    // The store's own rate through this client: the ceiling of any chain that ends in its GETs.
    const storeByClient = () => chain({ kind: 'plain', port: s3.port, paths: storePaths });
    for (let round = 1; round < options.rounds; round++) {
      const before = await plain();
      const perChunk = await chain();
      const chains = [];
      for (const size of sizes) chains.push(await chain({ kind: 'batch', size }));
      const storeRate = await storeByClient();
      const between = await plain();
      const around = [...before, ...between];
      // The CDN's rows in a bracket of their own (the static run between the blocks, and one after them).
      const viaCdn = await cdnChains();
      const cdnAround = viaCdn ? [...between, ...(await plain())] : around;
      roundRatios.push({
        perChunk: ratioOf(perChunk.rps, around),
        batched: chains.map((c) => ratioOf(c.rps, around)),
        store: ratioOf(storeRate.rps, around),
        cdn: viaCdn ? viaCdn.chains.map((c) => ratioOf(c.result.rps, cdnAround)) : [],
        cdnAlone: viaCdn ? ratioOf(viaCdn.alone.rps, cdnAround) : NaN,
      });
    }
  }
  const staticAfter = options.measureStatic ? await options.measureStatic() : null;
  const cdn = cdnDelivery && cdnFirst ? { delivery: cdnDelivery, batched: cdnFirst.chains, alone: cdnFirst.alone } : null;
  return { location, store, product, batched, staticAfter, staticByClient, roundRatios, generationSeconds, cdn };
}

/** The signed-URL rows beside the app-sent bytes and the static file server of the same run. */
export function printSignedDelivery(result: SignedDelivery, appSends: LoadResult | undefined, staticFiles: LoadResult | undefined, framesPerChunk: number): void {
  const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  // Against the static file server measured right after the chains when it was, else the earlier row.
  const reference = result.staticAfter ?? staticFiles;
  const ratio = (rps: number) => (reference ? `${(rps / reference.rps).toFixed(2)}x` : '-');
  console.info(
    `\n2b. Frame chunks with signed URLs (STORAGE=s3, FRAMES_FROM_STORE): the app answers where, the store (s3rver, one Node process) sends the bytes; ` +
      `the record's imaging made into the bucket in ${result.generationSeconds.toFixed(1)} s. Goal: the whole chain >= 0.95x the static file server`,
  );
  const line = (cells: string[]) => console.info(`  ${cells[0]!.padEnd(44)}${cells.slice(1).map((c) => c.padStart(10)).join('')}`);
  line(['', 'chunks/s', 'p50 ms', 'p99 ms', 'errors', 'MB/s', 'frames/s', 'vs static']);
  const row = (label: string, r: { rps: number; p50: number; p99: number; errors: number; mbps: number }) =>
    line([label, fixed(r.rps), fixed(r.p50, 1), fixed(r.p99, 1), String(r.errors), fixed(r.mbps, 1), fixed(r.rps * framesPerChunk), ratio(r.rps)]);
  if (staticFiles) row('static file server (same bytes)', staticFiles);
  if (result.staticAfter) row('static file server, again after the chains', result.staticAfter);
  if (appSends) row('1 replica sends the bytes (today)', appSends);
  row('1 replica answers signed locations only', result.location);
  row('store alone, signed GETs (s3rver)', result.store);
  row('through the product: location + store GET', result.product);
  for (const { size, result: chain } of result.batched) row(`through the product: 1 batch per ${size} + store GETs`, chain);
  for (const { size, result: chain } of result.cdn?.batched ?? []) row(`through the CDN: 1 batch per ${size} + CDN GETs`, chain);
  if (result.cdn) row('CDN alone, signed GETs (nginx cache hits)', result.cdn.alone);
  if (result.staticByClient.length) {
    // The chains against the static server through the very same client code, measured just before and after them.
    const [before, after] = result.staticByClient;
    const reference = after ? (before!.rps + after.rps) / 2 : before!.rps;
    const same = (label: string, r: ChainResult) =>
      line([label, fixed(r.rps), fixed(r.p50, 1), fixed(r.p99, 1), String(r.errors), fixed(r.mbps, 1), fixed(r.rps * framesPerChunk), `${(r.rps / reference).toFixed(2)}x`]);
    console.info('  The same, each against the static file server through the chains\' own client (the mean of its runs just before and after them):');
    for (const [i, r] of result.staticByClient.entries()) same(`static files, this client, ${i ? 'after' : 'before'}`, r);
    same('chain: location + store GET', result.product);
    for (const { size, result: chain } of result.batched) same(`chain: 1 batch per ${size} + store GETs`, chain);
    for (const { size, result: chain } of result.cdn?.batched ?? []) same(`chain: 1 batch per ${size} + CDN GETs`, chain);
    if (result.cdn) same('CDN alone, signed GETs', result.cdn.alone);
  }
  if (result.roundRatios.length > 0) {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const sizes = result.batched.map((b) => b.size);
    const text = (values: number[]) => `${values.map((v) => v.toFixed(2)).join(' / ')} (median ${median(values).toFixed(2)}x)`;
    console.info(`  Rounds after the first (${result.roundRatios.length}), each over its own round's static file server through this client:`);
    console.info(`    store alone, signed GETs (the chains' ceiling): ${text(result.roundRatios.map((r) => r.store))}`);
    console.info(`    location + store GET: ${text(result.roundRatios.map((r) => r.perChunk))}`);
    for (const [i, size] of sizes.entries()) console.info(`    1 batch per ${size} + store GETs: ${text(result.roundRatios.map((r) => r.batched[i]!))}`);
    if (result.cdn) {
      console.info(`    CDN alone, signed GETs (nginx cache hits): ${text(result.roundRatios.map((r) => r.cdnAlone))}`);
      for (const [i, size] of sizes.entries()) console.info(`    through the CDN, 1 batch per ${size} + CDN GETs: ${text(result.roundRatios.map((r) => r.cdn[i]!))}`);
    }
  }
  const cores = (c: Record<string, number>) => Object.entries(c).filter(([, v]) => v >= 0.005).map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ');
  console.info(`  CPU cores busy, locations: ${cores(result.location.cores)}; store: ${cores(result.store.cores)}; chain: ${cores(result.product.cores)}`);
  for (const { size, result: chain } of result.batched) console.info(`  CPU cores busy, chain with batches of ${size}: ${cores(chain.cores)}`);
  if (result.cdn) {
    const { delivery } = result.cdn;
    console.info(`  The CDN: deploy/cdn (nginx + njs: its master and ${delivery.nginxWorkers} child processes, workers and cache manager), its cache filled by one pass over the record's ${delivery.cdnPaths.length} chunks in ${delivery.fillSeconds.toFixed(1)} s before these runs.`);
    for (const { size, result: chain } of result.cdn.batched) console.info(`  CPU cores busy, through the CDN with batches of ${size}: ${cores(chain.cores)}`);
    console.info(`  CPU cores busy, CDN alone: ${cores(result.cdn.alone.cores)}`);
  } else console.info('  (No CDN rows: Debian\'s nginx and libnginx-mod-http-js are not installed.)');
  console.info('  (s3rver is a test double written in JavaScript that reads each object and its metadata from disk per GET: a real S3, MinIO or a CDN in front sends far faster; the location rate is what the replicas themselves can hand out.)');
}

/**
 * bench:load, frame chunks through the frames CDN (issue 27): the shipped deploy/cdn config (nginx +
 * njs) in front of the same bucket, and a replica with FRAME_CDN_URL that hands out its signed URLs.
 * The cache is filled by one pass over the record first (a CDN serves every chunk from its cache
 * after the first fetch), so the rows measure what a CDN does at scale: hits.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { frameCorsOriginPattern } from '../../src/server/storage/frame-cors.ts';
import { cdnAvailable, startCdn } from '../../tests/support/cdn-server.ts';
import { startReplica, type Cleanup } from '../../tests/support/cluster.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { cpuSeconds } from './cluster.ts';
import type { CpuProbes } from './run-load.ts';

export type CdnDelivery = {
  /** The replica that hands out CDN URLs. */
  replicaPort: number;
  cdnPort: number;
  /** Path and query of one CDN URL per chunk, for GETs of the CDN alone. */
  cdnPaths: string[];
  probes: CpuProbes;
  /** The first pass: every chunk fetched once through the CDN from the bucket. */
  fillSeconds: number;
  nginxWorkers: number;
};

export type CdnDeliveryOptions = {
  root: string;
  /** The S3 replica's environment: the CDN replica gets the same (same database, same bucket) plus the CDN. */
  env: Record<string, string>;
  s3: { origin: string; bucket: string };
  cleanup: Cleanup;
  headers: Record<string, string>;
  chunkPaths: string[];
  batchPathOf: (chunkPath: string, from: number, count: number) => string;
  fetchOn: (agent: http.Agent, port: number, pathName: string, headers?: Record<string, string>) => Promise<{ status: number; body: Buffer }>;
};

/** The CDN and its replica, the cache filled; null (with a notice) without nginx and njs. */
export async function startCdnDelivery(options: CdnDeliveryOptions): Promise<CdnDelivery | null> {
  if (!cdnAvailable()) return null;
  const key = randomBytes(32).toString('base64');
  const cdn = await startCdn({ origin: options.s3.origin, bucket: options.s3.bucket, allowedOriginPattern: frameCorsOriginPattern(options.env.PUBLIC_URL_TEMPLATE ?? 'http://{tenant}.localhost'), key });
  options.cleanup.add('stop the frames CDN', () => cdn.stop());
  const replicaPort = await freePort();
  const env = { ...options.env, DATA_DIR: path.join(options.root, 'data-cdn'), FRAME_CDN_URL: cdn.url, FRAME_CDN_KEY: key };
  const replica = await startReplica('replica CDN', replicaPort, env, path.join(options.root, 'replica-cdn.log'), options.cleanup);

  const begun = performance.now();
  const appAgent = new http.Agent({ keepAlive: true });
  const cdnAgent = new http.Agent({ keepAlive: true });
  const answer = await options.fetchOn(appAgent, replicaPort, options.batchPathOf(options.chunkPaths[0]!, 0, Math.min(256, options.chunkPaths.length)), options.headers);
  if (answer.status !== 200) throw new Error(`CDN frame locations: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
  const { locations } = JSON.parse(answer.body.toString()) as { locations: { chunk: number; url?: string }[] };
  const cdnPaths: string[] = [];
  for (const location of locations) {
    if (!location.url) throw new Error(`chunk ${location.chunk} is not in the bucket`);
    const url = new URL(location.url);
    const first = await options.fetchOn(cdnAgent, cdn.port, url.pathname + url.search);
    if (first.status !== 200) throw new Error(`CDN GET of chunk ${location.chunk}: ${first.status}`);
    cdnPaths.push(url.pathname + url.search);
  }
  appAgent.destroy();
  cdnAgent.destroy();
  const fillSeconds = (performance.now() - begun) / 1000;
  const workers = () => nginxWorkers(cdn.pid);
  return {
    replicaPort,
    cdnPort: cdn.port,
    cdnPaths,
    fillSeconds,
    nginxWorkers: workers().length,
    probes: { 'CDN replica': () => cpuSeconds(replica.child.pid!), 'CDN (nginx)': () => cpuSeconds(cdn.pid) + workers().reduce((sum, pid) => sum + cpuSeconds(pid), 0) },
  };
}

/** nginx's child processes (workers, cache manager and loader): the children of its master. */
function nginxWorkers(master: number): number[] {
  const workers: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === master) workers.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return workers;
}

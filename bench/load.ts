/**
 * `npm run bench:load [-- --seconds 10 --connections 100]`: the server under load, one replica and
 * two behind a load balancer, on loopback. Starts a throw-away PostgreSQL cluster, two real server
 * processes (`node src/server/server.ts`) sharing it and one DATA_DIR (with PostgreSQL the data
 * directory is not locked, and the local file store writes beside and renames), and HAProxy in
 * front (round robin per request, no stickiness). Three scenarios, each at the same concurrency for
 * the same time: the patient list of the 10,000-patient tenant, frame chunks of a record whose
 * imaging is already stored, and annotation saves. Prints figures; asserts nothing. Every process
 * and directory it made is removed at the end, also on Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import type { Client } from 'autocannon';
import { annotationId, type AnnotationManifest } from '../src/domain/annotations/manifest.ts';
import { RecordImagesSchema } from '../src/domain/images.ts';
import { KeyEncryptionKey } from '../src/server/crypto/key-encryption-key.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { annotationVersions, records } from '../src/server/db/schema.ts';
import { unlockServerSecrets } from '../src/server/db/secrets-startup.ts';
import { findUserByEmail } from '../src/server/db/tenants.ts';
import { chunkKey, framePackKey } from '../src/server/imaging/record-imaging.ts';
import { LARGE_TENANT } from '../src/server/seed/demo-accounts.ts';
import { freePort } from '../tests/support/free-port.ts';
import { mintIdToken } from '../tests/support/mint-token.ts';
import { Cleanup, findBinary, get, startPostgres, startReplica, type Replica } from '../tests/support/cluster.ts';
import { cpuSeconds, postgresCpuSeconds, startBalancer, startJsonReady } from './load/cluster.ts';
import { percentile, runLoad, stopCurrentLoad, type CpuProbes, type LoadResult } from './load/run-load.ts';
import { measureSignedDelivery, printSignedDelivery } from './load/store-frames.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '2' },
    // Chunks per batch of frame locations for the store chain (comma-separated; the page asks 64).
    batch: { type: 'string', default: '64' },
    // Further rounds of the store chains between static runs (their ratios swing less than their rates on a shared machine).
    rounds: { type: 'string', default: '0' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const WARMUP_SECONDS = Number(args.warmup);
const TENANT = LARGE_TENANT.id;

const cleanup = new Cleanup();
cleanup.installSignalHandlers(stopCurrentLoad);

type Target = { replicas: number; via: string; port: number; probes: CpuProbes };
type Row = { target: Target; result: LoadResult };

// ---------------------------------------------------------------------------------------------
// Printing

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function coresText(cores: Record<string, number>): string {
  return Object.entries(cores)
    .filter(([, value]) => value >= 0.005)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ');
}

function statusText(result: LoadResult): string {
  const odd = Object.entries(result.statuses).filter(([status]) => !status.startsWith('2'));
  return odd.length ? odd.map(([status, count]) => `${status} x${count}`).join(', ') : '';
}

/**
 * One table per scenario: the two-replica row compares itself with the one-replica row through the
 * same balancer (requests/s ratio, p99 ratio).
 */
function printTable(title: string, rows: Row[], extra?: { header: string; value: (row: Row) => string }) {
  console.info(`\n${title}`);
  const head = ['replicas', 'via', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx', 'MB/s', ...(extra ? [extra.header] : []), '2 vs 1 (req/s, p99)'];
  const widths = [8, 13, 8, 8, 8, 8, 7, 8, 8, ...(extra ? [Math.max(10, extra.header.length)] : []), 20];
  const line = (cells: string[]) => console.info(cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' '));
  line(head);
  const base = rows.find((row) => row.target.replicas === 1 && row.target.via === 'haproxy');
  for (const row of rows) {
    const { result, target } = row;
    const ratio = target.replicas === 2 && base ? `${(result.rps / base.result.rps).toFixed(2)}x, ${(result.p99 / base.result.p99).toFixed(2)}x` : '';
    line([
      String(target.replicas || '-'),
      target.via,
      fixed(result.rps, 0),
      fixed(result.p50),
      fixed(result.p99),
      fixed(result.max, 0),
      String(result.errors),
      String(result.non2xx),
      fixed(result.mbps, 1),
      ...(extra ? [extra.value(row)] : []),
      ratio,
    ]);
  }
  for (const { target, result } of rows) {
    const statuses = statusText(result);
    console.info(`  ${`${target.replicas || '-'} ${target.via}`.padEnd(22)} CPU cores busy: ${coresText(result.cores)}${statuses ? `; non-2xx: ${statuses}` : ''}${result.timeouts ? `; timeouts: ${result.timeouts}` : ''}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Setting up: PostgreSQL, two replicas, the balancer, a token

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-load-'));
// The postgres user must reach root/pg (PostgreSQL refuses to run as root).
fs.chmodSync(root, 0o711);
cleanup.add(`remove ${root}`, () => fs.rmSync(root, { recursive: true, force: true }));

async function main() {
  const [pgPort, portA, portB, lbOne, lbTwo] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const postgres = startPostgres(root, pgPort, cleanup);
  if (!postgres) {
    console.warn('NOTICE: no PostgreSQL binaries (initdb, pg_ctl) found: the load bench needs PostgreSQL for replicas and is skipped.');
    return;
  }
  const versionOf = (binary: string | null, flag: string) => (binary ? execFileSync(binary, [flag], { encoding: 'utf8' }).split('\n')[0]!.trim() : 'not installed');
  console.info(`load bench: ${CONNECTIONS} connections, ${SECONDS} s per run (after ${WARMUP_SECONDS} s of warm-up), on ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.info(`Node ${process.version}; ${versionOf(findBinary('postgres', ['/usr/local/bin']), '--version')}; ${versionOf(findBinary('haproxy', ['/usr/sbin']), '-v')}`);

  const kek = KeyEncryptionKey.generate().encode();
  const dataDir = path.join(root, 'data');
  // Tenants are host names: requests say `Host: large.localhost:<balancer port>` whichever port they go to.
  const host = `${TENANT}.localhost:${lbTwo}`;
  const origin = `http://${host}`;
  const env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL_TEMPLATE: `http://{tenant}.localhost:${lbTwo}`,
    DATABASE_URL: postgres.url,
    KEY_ENCRYPTION_KEY: kek,
    DATA_DIR: dataDir,
    STORAGE: 'local',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    SEED_LARGE_TENANT: 'true',
    PREGENERATE_DEMO: 'false',
    // Every load connection comes from 127.0.0.1 (directly or through HAProxy): no per-address cap.
    MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
  let started = performance.now();
  // One after the other: the first migrates and seeds, the second finds everything done.
  const replicaA = await startReplica('replica A', portA, env, path.join(root, 'replica-a.log'), cleanup);
  console.info(`replica A (pid ${replicaA.child.pid}, port ${portA}) ready in ${((performance.now() - started) / 1000).toFixed(1)} s (migrated, seeded ${LARGE_TENANT.patientCount.toLocaleString('en')} patients)`);
  started = performance.now();
  const replicaB = await startReplica('replica B', portB, env, path.join(root, 'replica-b.log'), cleanup);
  console.info(`replica B (pid ${replicaB.child.pid}, port ${portB}) ready in ${((performance.now() - started) / 1000).toFixed(1)} s; both on PostgreSQL ${postgres.url.replace(/^postgres:\/\/[^@]*@/, '')}, DATA_DIR ${dataDir}`);

  const database = await openDatabase({ kind: 'postgres', url: postgres.url });
  cleanup.add('close the bench database pool', () => database.close());
  const { db } = database;
  await unlockServerSecrets({ keyEncryptionKey: KeyEncryptionKey.parse(kek), databaseUrl: postgres.url, dataDir }, db);
  const clinician = await findUserByEmail(db, TENANT, `clinician@${TENANT}.test`);
  const authorization = `Bearer ${await mintIdToken(db, TENANT, origin, { sub: clinician!.id, expiresIn: '2h' })}`;
  const headers = { host, authorization, 'accept-encoding': 'gzip' };

  const balancer = await startBalancer(root, { one: lbOne, two: lbTwo }, [portA, portB], cleanup);
  if (balancer) console.info(`HAProxy (pid ${balancer.child.pid}) round robin on ${lbTwo} -> ${portA}, ${portB}; on ${lbOne} -> ${portA} only`);
  else console.warn('NOTICE: HAProxy is not installed (Debian: apt-get install -y haproxy): only one replica, directly, is measured.');

  const pgProbe = () => postgresCpuSeconds(postgres.postmasterPid());
  const serverProbe = (...replicas: Replica[]) => () => replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid!), 0);
  const both = serverProbe(replicaA, replicaB);
  const probes = (extra: CpuProbes = {}): CpuProbes => ({
    servers: both,
    postgres: pgProbe,
    ...(balancer ? { haproxy: () => cpuSeconds(balancer.child.pid!) } : {}),
    ...extra,
  });
  const targets: Target[] = [
    { replicas: 1, via: 'direct', port: portA, probes: probes() },
    ...(balancer
      ? [
          { replicas: 1, via: 'haproxy', port: lbOne, probes: probes() },
          { replicas: 2, via: 'haproxy', port: lbTwo, probes: probes() },
        ]
      : []),
  ];
  for (const target of targets) {
    const answer = await get(target.port, `/api/${TENANT}/patients`, headers);
    if (answer.status !== 200) throw new Error(`patient list through ${target.via}:${target.port} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
  }

  const measure = async (target: Target, options: Omit<Parameters<typeof runLoad>[0], 'port' | 'connections' | 'seconds' | 'probes' | 'headers'> & { headers?: Record<string, string> }) => {
    const common = { port: target.port, connections: CONNECTIONS, headers: headers, probes: target.probes, ...options };
    if (WARMUP_SECONDS > 0) await runLoad({ ...common, seconds: WARMUP_SECONDS });
    return runLoad({ ...common, seconds: SECONDS });
  };

  // -------------------------------------------------------------------------------------------
  // 1. The patient list: the queries the patients screen makes (as bench/patients.ts), in turn.

  const cases: [string, Record<string, string>][] = [
    ['first page', {}],
    ['page 200 of 50', { page: '200', pageSize: '50' }],
    ['sort by records', { sort: 'recordCount', order: 'desc' }],
    ['sort by latest, page 150', { sort: 'latestRecordDate', order: 'desc', page: '150' }],
    ['search "garcia"', { search: 'garcia' }],
    ['search "LAR-0042"', { search: 'LAR-0042' }],
  ];
  const listPath = (query: Record<string, string>) => `/api/${TENANT}/patients${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
  const listRows: Row[] = [];
  for (const target of targets) {
    listRows.push({ target, result: await measure(target, { requests: cases.map(([, query]) => ({ path: listPath(query) })) }) });
  }
  printTable(
    `1. Patient list of "${TENANT}" (${LARGE_TENANT.patientCount.toLocaleString('en')} patients): ${cases.length} queries in turn per connection. Goal: p99 < 50 ms at 100 concurrent`,
    listRows,
  );
  console.info(`  per query, p50 / p99 ms:${''.padEnd(4)}${listRows.map((r) => `${r.target.replicas} ${r.target.via}`.padStart(22)).join('')}`);
  for (const [label, query] of cases) {
    const cells = listRows.map(({ result }) => {
      const list = result.perPath.get(listPath(query)) ?? [];
      return `${fixed(percentile(list, 0.5))} / ${fixed(percentile(list, 0.99))}`.padStart(22);
    });
    console.info(`    ${label.padEnd(26)}${cells.join('')}`);
  }

  // -------------------------------------------------------------------------------------------
  // 2. Frame chunks of a record whose imaging is stored (the 300-frame record of the first patient).

  const [frameRecord] = await db
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.tenantId, TENANT), eq(records.bmodeFrameCount, 300)))
    .limit(1);
  const imagesAnswer = await get(portA, `/api/${TENANT}/records/${frameRecord!.id}/images`, headers);
  const images = RecordImagesSchema.parse(JSON.parse(imagesAnswer.body.toString()));
  const chunkPaths = images.bmode.chunks.map((chunk) => `/api/${TENANT}/${chunk}`);
  const frameBytes = images.bmode.width * images.bmode.height;
  const warmPass = async (port: number) => {
    const begun = performance.now();
    let next = 0;
    let wire = 0;
    const worker = async () => {
      while (next < chunkPaths.length) {
        const answer = await get(port, chunkPaths[next++]!, headers);
        if (answer.status !== 200) throw new Error(`frame chunk: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
        wire += answer.body.length;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    return { seconds: (performance.now() - begun) / 1000, wire };
  };
  const generated = await warmPass(portA);
  const fromStore = await warmPass(portB);
  console.info(
    `\n(frames: record ${frameRecord!.id}, ${images.bmode.count} frames of ${images.bmode.width}x${images.bmode.height} in ${chunkPaths.length} chunks, ` +
      `${(generated.wire / 1e6).toFixed(1)} MB on the wire in all; generated and stored through replica A in ${generated.seconds.toFixed(1)} s, ` +
      `then read from the shared store through replica B in ${fromStore.seconds.toFixed(2)} s)`,
  );
  // Each connection walks the record's chunks in order, starting at a chunk of its own.
  const frameClients = (paths: string[]) => {
    let nextClient = 0;
    return (client: Client) => {
      const k = nextClient++ % paths.length;
      client.setRequests([...paths.slice(k), ...paths.slice(0, k)].map((p) => ({ path: p })));
    };
  };
  const frameRows: Row[] = [];
  for (const target of targets) frameRows.push({ target, result: await measure(target, { setupClient: frameClients(chunkPaths) }) });
  // The ceiling of this machine: a plain static-file server (bench/frames-server.ts) sending the same stored bytes.
  const staticServer = await startJsonReady(['bench/frames-server.ts', 'static', path.join(dataDir, 'files')], cleanup, 'static file server');
  // The stored files the product sends: frame packs (gzip chunks for a record made before them).
  const storedKey = images.bmode.chunkFormat === 'frame-pack' ? framePackKey : chunkKey;
  const staticPaths = chunkPaths.map((_, i) => `/${storedKey({ tenantId: TENANT, id: frameRecord!.id, imagingVersion: images.version }, 'bmode', i)}`);
  const staticTarget: Target = { replicas: 0, via: 'static files', port: staticServer.port, probes: { 'static server': () => cpuSeconds(staticServer.child.pid!), servers: both, postgres: pgProbe } };
  frameRows.push({ target: staticTarget, result: await measure(staticTarget, { setupClient: frameClients(staticPaths), headers: {} }) });
  const framesPerChunk = images.bmode.count / chunkPaths.length;
  printTable(
    `2. Frame chunks (GET /api/${TENANT}/records/{id}/frames/bmode/{chunk}, as stored: frame packs, ~${((generated.wire / chunkPaths.length) / 1e6).toFixed(1)} MB each). ` +
      'Goal: limited by the network, not the server ("static files": a plain Node file server sending the same bytes)',
    frameRows,
    { header: 'frames/s', value: ({ result }) => fixed((result.rps - result.non2xx / result.seconds) * framesPerChunk, 0) },
  );
  for (const { target, result } of frameRows) {
    const served = (result.rps - result.non2xx / result.seconds) * framesPerChunk;
    console.info(`  ${`${target.replicas || '-'} ${target.via}`.padEnd(22)} ${fixed((served * frameBytes) / 1e6, 0)} MB/s of decoded frames (${(frameBytes / 1024).toFixed(0)} KiB each)`);
  }
  // The same chunks delivered by the object store with signed URLs (issue 27), beside the rows above.
  const signed = await measureSignedDelivery({
    root,
    env,
    cleanup,
    headers,
    chunkPaths,
    connections: CONNECTIONS,
    seconds: SECONDS,
    measure: (port, extra, load) => measure({ replicas: 1, via: 's3', port, probes: probes(extra) }, load),
    clientsOver: frameClients,
    batchSizes: args.batch.split(',').map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 256),
    measureStatic: () => measure(staticTarget, { setupClient: frameClients(staticPaths), headers: {} }),
    staticFiles: { port: staticServer.port, paths: staticPaths },
    rounds: 1 + Math.max(0, Number(args.rounds) || 0),
  });
  printSignedDelivery(signed, frameRows.find((r) => r.target.via === 'direct')?.result, frameRows.find((r) => r.target.via === 'static files')?.result, framesPerChunk);

  // -------------------------------------------------------------------------------------------
  // 3. Annotation saves: each connection saves on a record of its own, on the version it saved last.

  const saveRecords = await db
    .select({ id: records.id, patientId: records.patientId })
    .from(records)
    .where(eq(records.tenantId, TENANT))
    .orderBy(records.patientId, records.id)
    .limit(CONNECTIONS * (targets.length * 2 + 1) + 100);
  const slice = 5;
  const color = '#FFE411';
  const manifest: AnnotationManifest = {
    ruler: [{ id: annotationId(slice, 'ruler', 'A', color), slice, color, label: 'A', hideLabel: false, startX: 10, startY: 20, endX: 110, endY: 20 }],
    area: [],
    text: [{ id: annotationId(slice, 'text', 'B', color), slice, color, label: 'B', hideLabel: false, text: 'calcified plaque', origin: { x: 300, y: 40 } }],
    angle: [],
    lastAnnotationSlice: slice,
  };
  const manifestJson = JSON.stringify(manifest);
  const boundary = `----ivus-bench-load-${randomBytes(8).toString('hex')}`;
  const multipart = (fields: Record<string, string>) =>
    Buffer.from(
      Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="manifest.json"\r\nContent-Type: application/json\r\n\r\n${manifestJson}\r\n--${boundary}--\r\n`,
    );
  let nextRecord = 0;
  const saveClient = (client: Client) => {
    const record = saveRecords[nextRecord++ % saveRecords.length]!;
    const state = { version: 0 };
    client.setRequests([
      {
        method: 'POST',
        path: `/api/${TENANT}/records`,
        setupRequest: (request) => ({
          ...request,
          method: 'POST',
          path: `/api/${TENANT}/records?status=${state.version === 0 ? 'new' : 'saved'}`,
          headers: { ...request.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: multipart({ recordId: record.id, patientId: record.patientId, baseVersion: String(state.version) }),
        }),
        onResponse: (status, body) => {
          // 201: the next save builds on the version just made; 409 (someone else saved): on theirs.
          if (status === 201) state.version = (JSON.parse(body) as { version: number }).version;
          else if (status === 409) state.version = (JSON.parse(body) as { latestVersion: number }).latestVersion;
        },
      },
    ]);
  };
  const saveRows: Row[] = [];
  for (const target of targets) saveRows.push({ target, result: await measure(target, { setupClient: saveClient }) });
  printTable(
    `3. Annotation saves (POST /api/${TENANT}/records, multipart manifest of ${manifestJson.length} bytes): each connection on a record of its own, so 409 conflicts are not expected (counted in non-2xx)`,
    saveRows,
    { header: '409s', value: ({ result }) => String(result.statuses['409'] ?? 0) },
  );
  const [stored] = await db.select({ count: sql<number>`count(*)::int` }).from(annotationVersions).where(eq(annotationVersions.tenantId, TENANT));
  const created = saveRows.reduce((sum, { result }) => sum + (result.statuses['201'] ?? 0), 0);
  console.info(`  versions stored: ${stored!.count.toLocaleString('en')} (201 answers counted in the measured runs: ${created.toLocaleString('en')}; the warm-up runs saved the rest)`);

  console.info(
    `\nNotes: latencies are per response, from the request written to the last byte read, all statuses included; "max ms" is the slowest. ` +
      'The load generator (autocannon) runs on the same cores as the servers, PostgreSQL and HAProxy, so its CPU (shown) is taken from them; ' +
      '"other" is the rest of the machine meanwhile. Figures on a shared 2-core machine are noisy: compare rows of one run, not runs.',
  );
}

try {
  await main();
} catch (error) {
  console.error(`\nload bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup.run();
}

/**
 * Global setup of the replicas run (playwright.replicas.config.ts): a throw-away PostgreSQL, a real
 * S3-compatible server (s3rver), two replicas of `src/server/server.ts` sharing both (each with a
 * DATA_DIR of its own, as on separate machines), and HAProxy in front of them on the balancer port the tests' baseURL names. It runs in
 * the Playwright runner's process, which keeps the replicas as its children for the whole run and
 * serves the tests a loopback endpoint to kill and restart them (e2e-replicas/control.ts).
 * Answers the teardown, which stops everything and removes the run's directory.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { KeyEncryptionKey } from '../src/server/crypto/key-encryption-key.ts';
import { Cleanup, findHaproxy, hasPostgresBinaries, startHaproxy, startPostgres, startReplica, type Postgres, type Replica } from '../tests/support/cluster.ts';
import { freePort } from '../tests/support/free-port.ts';
import { startS3Server } from '../tests/support/s3-server.ts';
import { frameCorsConfiguration } from '../src/server/storage/frame-cors.ts';
import { BALANCER_PORT } from './balancer-port.ts';
import { CONTROL_URL_VARIABLE, SKIP_VARIABLE, type ReplicaName, type ReplicaState } from './control.ts';

/** HAProxy's health checks: a dead replica leaves the rotation after 2 failed checks, a restarted one joins after 2 good ones. */
const CHECK_INTER_MS = 500;

function haproxyConfig(root: string, replicaPorts: Record<ReplicaName, number>): string {
  return [
    'global',
    '  maxconn 1024',
    // The setup asks this socket whether a restarted replica is back in the rotation.
    `  stats socket ${path.join(root, 'haproxy.sock')} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  option forwardfor',
    '  timeout connect 2s',
    // A live replica busy generating a first open's frames on a loaded machine answered /healthz in
    // just over the default (inter, 500 ms): both were taken out and the page got HAProxy's 503. A
    // killed replica refuses the connection at once, so this does not slow noticing a crash.
    '  timeout check 5s',
    '  timeout client 120s',
    // Uploads and first frame generation are long requests (README: Deployment, the proxy).
    '  timeout server 120s',
    '  timeout http-keep-alive 10s',
    // A request whose replica has just died is sent to the other one: up to 3 more attempts, each
    // to another server (redispatch on every retry: with no stickiness any replica will do).
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    `frontend balancer`,
    `  bind 127.0.0.1:${BALANCER_PORT}`,
    '  default_backend replicas',
    'backend replicas',
    // Round robin per request, no stickiness: consecutive requests of one page go to both replicas.
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    // Only a connection failure (nothing was sent) is retried for a request that changes something:
    // a save or an upload the dead replica may already have applied is never sent twice by the
    // balancer. GET and HEAD are idempotent and are retried on an empty answer as well.
    '  http-request disable-l7-retry unless METH_GET',
    `  default-server check inter ${CHECK_INTER_MS} fall 2 rise 2`,
    `  server a 127.0.0.1:${replicaPorts.a}`,
    `  server b 127.0.0.1:${replicaPorts.b}`,
    '',
  ].join('\n');
}

/** One command on HAProxy's stats socket (a line of text in, the answer until it closes). */
function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socket, () => connection.end(`${command}\n`));
    let answer = '';
    connection.on('data', (part) => (answer += part.toString()));
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
  });
}

/** Waits until HAProxy's health checks have put the replica back in the rotation. */
async function waitUntilInRotation(socket: string, name: ReplicaName, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // `show stat` is CSV: pxname,svname,...; the status is the 18th field.
    const line = (await haproxyCommand(socket, 'show stat')).split('\n').find((l) => l.startsWith(`replicas,${name},`));
    if (line?.split(',')[17] === 'UP') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`HAProxy did not put replica ${name} back in rotation within ${timeoutMs / 1000} s`);
}

/** The replicas backend's totals from `show stat` (CSV with a `# pxname,svname,...` header): requests answered and bytes sent. */
function backendStats(csv: string): { requests: number; bytesOut: number } {
  const [header = '', ...rows] = csv.split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const row = rows.find((line) => line.startsWith('replicas,BACKEND,'))?.split(',') ?? [];
  const field = (name: string) => Number(row[columns.indexOf(name)] ?? 0);
  return { requests: field('req_tot') || field('stot'), bytesOut: field('bout') };
}

function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return 0;
  }
}

const alive = (replica: Replica) => replica.child.exitCode === null && replica.child.signalCode === null;

function killNow(replica: Replica): Promise<void> {
  if (!alive(replica)) return Promise.resolve();
  return new Promise((resolve) => {
    replica.child.once('exit', () => resolve());
    replica.child.kill('SIGKILL');
  });
}

export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const missing = [findHaproxy() ? null : 'HAProxy (Debian: apt-get install -y haproxy)', hasPostgresBinaries() ? null : 'PostgreSQL (initdb, pg_ctl)'].filter(Boolean);
  if (missing.length) {
    const reason = `not installed: ${missing.join(', ')}`;
    console.warn(`NOTICE: the replicas end-to-end run is skipped: ${reason}.`);
    process.env[SKIP_VARIABLE] = reason;
    return undefined;
  }

  const started = performance.now();
  const cleanup = new Cleanup();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-e2e-replicas-'));
  // The postgres user must reach root/pg (PostgreSQL refuses to run as root).
  fs.chmodSync(root, 0o711);
  cleanup.add(`remove ${root}`, () => fs.rmSync(root, { recursive: true, force: true }));
  // The logs outlive the run's directory, beside the run's other results.
  const logsDir = path.join(config.projects[0]?.outputDir ?? 'test-results', 'logs');
  cleanup.add('keep the logs', () => {
    fs.mkdirSync(logsDir, { recursive: true });
    for (const file of ['replica-a.log', 'replica-b.log', 'haproxy.log', 'pg/server.log']) {
      if (fs.existsSync(path.join(root, file))) fs.copyFileSync(path.join(root, file), path.join(logsDir, path.basename(file)));
    }
  });

  const replicas = new Map<ReplicaName, Replica>();
  let postgres: Postgres | null = null;
  // Last resort when the runner exits without teardown (an uncaught error, a second Ctrl-C): nothing may keep running.
  const onExit = () => {
    for (const replica of replicas.values()) if (alive(replica)) replica.child.kill('SIGKILL');
    try {
      postgres?.stopNow();
    } catch {
      // already stopped
    }
  };
  process.once('exit', onExit);
  cleanup.add('forget the exit handler', () => void process.off('exit', onExit));

  try {
    const [pgPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
    postgres = startPostgres(root, pgPort, cleanup)!;
    // The bucket lets the tenants' pages read it (CORS), as an operator sets it up for FRAMES_FROM_STORE.
    const s3 = await startS3Server({ corsConfiguration: frameCorsConfiguration(`http://{tenant}.localhost:${BALANCER_PORT}`) });
    cleanup.add('stop s3rver', () => s3.stop());

    const env: Record<string, string> = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PUBLIC_URL_TEMPLATE: `http://{tenant}.localhost:${BALANCER_PORT}`,
      TRUST_PROXY: 'true',
      DATABASE_URL: postgres.url,
      KEY_ENCRYPTION_KEY: KeyEncryptionKey.generate().encode(),
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      // The demo tenants as `npm start` seeds them, without the 10,000-patient one.
      SEED_DEMO: 'true',
      SEED_LARGE_TENANT: 'false',
      LOG_LEVEL: 'warn',
      // The durable job queue (src/server/jobs) takes over a dead replica's job once its heartbeat is
      // this old, looking this often: the shortest it allows, so that the run stays short.
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_SUPERVISE_SECONDS: '2',
    };
    const ports: Record<ReplicaName, number> = { a: portA, b: portB };
    const start = async (name: ReplicaName, readyWithinMs?: number) => {
      // Nothing shared on disk: an upload in transit is staged in the bucket for whichever replica decodes it.
      const replicaEnv = { ...env, DATA_DIR: path.join(root, `data-${name}`) };
      const replica = await startReplica(`replica ${name}`, ports[name], replicaEnv, path.join(root, `replica-${name}.log`), cleanup, readyWithinMs);
      replicas.set(name, replica);
      return replica;
    };
    // One after the other: the first migrates and seeds, the second finds everything done.
    await start('a');
    await start('b');
    const socket = path.join(root, 'haproxy.sock');
    await startHaproxy(root, haproxyConfig(root, ports), BALANCER_PORT, cleanup);
    await Promise.all([waitUntilInRotation(socket, 'a'), waitUntilInRotation(socket, 'b')]);

    const state = (name: ReplicaName): ReplicaState => {
      const replica = replicas.get(name)!;
      return { name, port: replica.port, pid: replica.child.pid ?? null, alive: alive(replica) };
    };
    const actions: Record<string, (name: ReplicaName) => Promise<object>> = {
      kill: async (name) => {
        await killNow(replicas.get(name)!);
        return state(name);
      },
      start: async (name) => {
        if (!alive(replicas.get(name)!)) await start(name, 60_000);
        await waitUntilInRotation(socket, name);
        return state(name);
      },
    };
    const control = http.createServer((request, response) => {
      const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(request.url ?? '/', 'http://control');
      const match = /^\/replicas\/(a|b|busiest)\/(kill|start)$/.exec(url.pathname);
      void (async () => {
        if (request.method === 'GET' && url.pathname === '/replicas') return answer(200, [state('a'), state('b')]);
        if (request.method === 'GET' && url.pathname === '/delivery') {
          // Who delivered what: the store's presigned GETs (bytes served, refusals) and what the replicas sent through HAProxy.
          const replicas = backendStats(await haproxyCommand(socket, 'show stat'));
          return answer(200, { store: s3.presignedGets(), replicas, s3: { endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
        }
        if (request.method !== 'POST' || !match) return answer(404, { error: 'not_found' });
        let name = match[1] as ReplicaName | 'busiest';
        let extra = {};
        if (name === 'busiest') {
          const before = { a: cpuSeconds(replicas.get('a')!.child.pid), b: cpuSeconds(replicas.get('b')!.child.pid) };
          await new Promise((resolve) => setTimeout(resolve, 500));
          const used = { a: cpuSeconds(replicas.get('a')!.child.pid) - before.a, b: cpuSeconds(replicas.get('b')!.child.pid) - before.b };
          name = used.a >= used.b ? 'a' : 'b';
          extra = { cpuSeconds: used };
        }
        answer(200, { ...(await actions[match[2]!]!(name)), ...extra });
      })().catch((error: unknown) => answer(500, { error: (error as Error).message }));
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
    cleanup.add('stop the control endpoint', () => new Promise<void>((resolve) => control.close(() => resolve())));
    // Workers are started after global setup and inherit the runner's environment.
    process.env[CONTROL_URL_VARIABLE] = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

    console.info(
      `replicas run: HAProxy on ${BALANCER_PORT} -> replicas a (${portA}), b (${portB}); PostgreSQL ${pgPort}; s3rver ${s3.endpoint}; ` +
        `ready in ${((performance.now() - started) / 1000).toFixed(1)} s; logs in ${logsDir}`,
    );
  } catch (error) {
    await cleanup.run();
    throw error;
  }
  return () => cleanup.run();
}

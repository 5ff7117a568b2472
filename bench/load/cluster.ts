/**
 * The processes bench/load.ts measures: a throw-away PostgreSQL cluster, real server processes
 * (`src/server/server.ts`) and an HAProxy in front of them, each started as a child process, plus
 * the clean-up that stops every one of them and removes their directories, also on Ctrl-C.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';

const CLOCK_TICKS_PER_S = 100;

/** Stops and removes what the bench started, newest first; runs once, on the normal end, an error or a signal. */
export class Cleanup {
  private readonly steps: { label: string; run: () => void | Promise<void> }[] = [];
  private running: Promise<void> | null = null;

  add(label: string, run: () => void | Promise<void>): void {
    this.steps.push({ label, run });
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          console.error(`clean-up: ${step.label}: ${(error as Error).message}`);
        }
      }
    })();
    return this.running;
  }

  /** Ctrl-C (and SIGTERM) cleans up before exiting; `onSignal` stops the load run first. */
  installSignalHandlers(onSignal: () => void): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: stopping and cleaning up...`);
        onSignal();
        void this.run().finally(() => process.exit(130));
      });
    }
  }
}

export function findBinary(name: string, dirs: string[]): string | null {
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('which', [name], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

const PG_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

export type Postgres = { url: string; dataDir: string; postmasterPid: () => number | null };

/**
 * A throw-away cluster, as tests/server/postgres-global-setup.ts starts it (as the `postgres`
 * user when run as root: PostgreSQL refuses root), with room for the replicas' pools.
 */
export function startPostgres(root: string, port: number, cleanup: Cleanup): Postgres | null {
  const initdb = findBinary('initdb', PG_DIRS);
  const pgCtl = findBinary('pg_ctl', PG_DIRS);
  if (!initdb || !pgCtl) return null;
  const asRoot = process.getuid?.() === 0;
  const run = (binary: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], { stdio: 'pipe' }) : execFileSync(binary, args, { stdio: 'pipe' });
  const dir = path.join(root, 'pg');
  fs.mkdirSync(dir);
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'data');
  run(initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  cleanup.add('stop PostgreSQL', () => {
    if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) run(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
  });
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100`;
  run(pgCtl, ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-o', options, 'start']);
  const postmasterPid = () => {
    try {
      return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dataDir, postmasterPid };
}

export type Replica = { name: string; port: number; child: ChildProcess; logFile: string };

function logTail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function get(port: number, pathName: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathName, headers, agent: false }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts), headers: response.headers }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(120_000, () => request.destroy(new Error(`GET ${pathName}: no answer in 120 s`)));
  });
}

/** Polls /healthz until the process answers, or fails with the tail of its log when it exits first. */
async function waitUntilHealthy(name: string, port: number, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`${name} exited with ${exited} before it was ready:\n${logTail(logFile)}`);
    try {
      if ((await get(port, '/healthz')).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${logTail(logFile)}`);
}

/** SIGTERM (the server's graceful shutdown), then SIGKILL if it is still there after `graceMs`. */
function stopChild(child: ChildProcess, graceMs = 12_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** One real server process (`node src/server/server.ts`), its output in `logFile`. */
export async function startReplica(name: string, port: number, env: Record<string, string>, logFile: string, cleanup: Cleanup): Promise<Replica> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['src/server/server.ts'], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  cleanup.add(`stop ${name}`, () => stopChild(child));
  // The first start migrates and seeds 10,000 patients.
  await waitUntilHealthy(name, port, child, logFile, 180_000);
  return { name, port, child, logFile };
}

/** A helper process that prints one JSON line with its port when ready (bench/frames-server.ts static mode). */
export function startJsonReady(args: string[], cleanup: Cleanup, label: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add(`stop ${label}`, () => stopChild(child, 3000));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const message = JSON.parse(line) as { port?: number };
        if (typeof message.port === 'number') resolve({ child, port: message.port });
      } catch {
        // not the ready line
      }
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
  });
}

export type Balancer = { child: ChildProcess; ports: { one: number; two: number } };

/**
 * HAProxy in HTTP mode, round robin per request, no stickiness, keep-alive on both sides:
 * port `two` spreads over both replicas, port `one` sends everything to the first, so the one- and
 * two-replica figures both include the same balancer hop. Null when HAProxy is not installed.
 */
export async function startBalancer(root: string, ports: { one: number; two: number }, replicaPorts: [number, number], cleanup: Cleanup): Promise<Balancer | null> {
  const haproxy = findBinary('haproxy', ['/usr/sbin', '/usr/local/sbin']);
  if (!haproxy) return null;
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  timeout connect 5s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-keep-alive 60s',
    `frontend two_replicas`,
    `  bind 127.0.0.1:${ports.two}`,
    '  default_backend replicas',
    `frontend one_replica`,
    `  bind 127.0.0.1:${ports.one}`,
    '  default_backend first_replica',
    'backend replicas',
    '  balance roundrobin',
    `  server a 127.0.0.1:${replicaPorts[0]}`,
    `  server b 127.0.0.1:${replicaPorts[1]}`,
    'backend first_replica',
    `  server a 127.0.0.1:${replicaPorts[0]}`,
    '',
  ].join('\n');
  const file = path.join(root, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const logFile = path.join(root, 'haproxy.log');
  const log = fs.openSync(logFile, 'a');
  // -db: stay in the foreground, so the child is HAProxy itself and stopping it stops the balancer.
  const child = spawn(haproxy, ['-db', '-f', file], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  cleanup.add('stop HAProxy', () => stopChild(child, 3000));
  await waitUntilHealthy('HAProxy', ports.two, child, logFile, 10_000);
  return { child, ports };
}

/** CPU seconds a process has used (all its threads), plus those of its reaped children. */
export function cpuSeconds(pid: number, withChildren = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17; the fields after comm start at field 3.
    const own = Number(fields[11]) + Number(fields[12]);
    const children = withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return (own + children) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** CPU seconds of the PostgreSQL cluster: the postmaster, its live backends and those that ended. */
export function postgresCpuSeconds(postmaster: number | null): number {
  if (!postmaster) return 0;
  let total = cpuSeconds(postmaster, true);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine (every process, ours and others'), from /proc/stat. */
export function machineBusySeconds(): number {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const busy = values.reduce((sum, v, i) => (i === 3 || i === 4 || i > 7 ? sum : sum + v), 0);
  return busy / CLOCK_TICKS_PER_S;
}

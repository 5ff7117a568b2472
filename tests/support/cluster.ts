/**
 * Processes a multi-replica run is made of, each started as a child process: a throw-away
 * PostgreSQL cluster, real server processes (`src/server/server.ts`) and an HAProxy in front of
 * them, plus the clean-up that stops every one of them and removes their directories, also on
 * Ctrl-C. Shared by the load bench (bench/load.ts) and the replicas end-to-end run
 * (e2e-replicas/cluster-setup.ts).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** Stops and removes what was started, newest first; runs once, on the normal end, an error or a signal. */
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

  /** Ctrl-C (and SIGTERM) cleans up before exiting; `onSignal` stops the caller's own work first. */
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
const HAPROXY_DIRS = ['/usr/sbin', '/usr/local/sbin'];

/** Whether initdb and pg_ctl are installed (else a run that needs PostgreSQL is skipped). */
export const hasPostgresBinaries = () => !!findBinary('initdb', PG_DIRS) && !!findBinary('pg_ctl', PG_DIRS);
export const findHaproxy = () => findBinary('haproxy', HAPROXY_DIRS);

export type Postgres = {
  url: string;
  dataDir: string;
  postmasterPid: () => number | null;
  /** `pg_ctl -m immediate stop`, synchronous (usable in an 'exit' handler); nothing when it is not running. */
  stopNow: () => void;
};

/**
 * A throw-away cluster, as tests/server/postgres-global-setup.ts starts it (as the `postgres`
 * user when run as root: PostgreSQL refuses root), with room for the replicas' pools. `root` must
 * be reachable by the postgres user (mode 0711). Null when the binaries are not installed.
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
  const stopNow = () => {
    if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) run(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
  };
  cleanup.add('stop PostgreSQL', stopNow);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100`;
  run(pgCtl, ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-o', options, 'start']);
  const postmasterPid = () => {
    try {
      return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dataDir, postmasterPid, stopNow };
}

export type Replica = { name: string; port: number; child: ChildProcess; logFile: string };

export function logTail(file: string, lines = 30): string {
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
export async function waitUntilHealthy(name: string, port: number, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
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
export function stopChild(child: ChildProcess, graceMs = 12_000): Promise<void> {
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

/**
 * One real server process (`node src/server/server.ts`), its output appended to `logFile` (so a
 * restarted replica's log follows its previous life's). The first start of a cluster migrates and
 * seeds, hence the long default wait.
 */
export async function startReplica(name: string, port: number, env: Record<string, string>, logFile: string, cleanup: Cleanup, readyWithinMs = 180_000): Promise<Replica> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['src/server/server.ts'], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  cleanup.add(`stop ${name}`, () => stopChild(child));
  await waitUntilHealthy(name, port, child, logFile, readyWithinMs);
  return { name, port, child, logFile };
}

/**
 * HAProxy in the foreground (`-db`, so the child is HAProxy itself and stopping it stops the
 * balancer) with the given configuration, ready once `readyPort` answers /healthz (the config must
 * route that port to a live server). Null when HAProxy is not installed.
 */
export async function startHaproxy(root: string, config: string, readyPort: number, cleanup: Cleanup): Promise<ChildProcess | null> {
  const haproxy = findHaproxy();
  if (!haproxy) return null;
  const file = path.join(root, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const logFile = path.join(root, 'haproxy.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(haproxy, ['-db', '-f', file], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  cleanup.add('stop HAProxy', () => stopChild(child, 3000));
  await waitUntilHealthy('HAProxy', readyPort, child, logFile, 10_000);
  return child;
}

/**
 * The real server (`node src/server/server.ts`, embedded PGlite database in a data directory of its
 * own) as a child process for the kill faults: started and waited for until /healthz answers,
 * SIGKILLed, started again on the same data directory (optionally with the killed server's pid
 * given to another live process meanwhile), on a temporary data directory removed afterwards.
 *
 * Every child process is SIGKILLed and every data directory removed in `finally` blocks (and any
 * child still running when this process exits is killed then), so a failed run leaves no server
 * behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from './http.ts';
import { freePort } from '../free-port.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'src/server/server.ts');
/** A first start migrates and seeds; a start after a kill also lets PGlite recover. Generous: the machine is shared. */
const START_DEADLINE_MS = 120_000;

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Whatever happens to this process, no server it started outlives it. */
function killChildrenOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
  });
}

export class ServerProcess {
  readonly port: number;
  readonly dataDir: string;
  readonly pid: number;
  private readonly child: ChildProcess;
  private output = '';
  private readonly exited: Promise<void>;
  private hasExited = false;
  private exitDescription = '';

  private constructor(child: ChildProcess, port: number, dataDir: string) {
    this.child = child;
    this.port = port;
    this.dataDir = dataDir;
    this.pid = child.pid!;
    const keep = (chunk: Buffer) => {
      // The last few KiB are enough to say why a start failed.
      this.output = (this.output + chunk.toString('utf8')).slice(-8192);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.hasExited = true;
        this.exitDescription = signal ? `killed by ${signal}` : `exit code ${code}`;
        liveChildren.delete(child);
        resolve();
      });
    });
  }

  /** Starts `node src/server/server.ts` on the data directory and waits until /healthz answers. */
  static async start(dataDir: string, port: number): Promise<ServerProcess> {
    killChildrenOnExit();
    const env: Record<string, string> = {
      // Only what the server needs: nothing of this process's own settings (a DATABASE_URL, a test's NODE_ENV) leaks in.
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      TMPDIR: os.tmpdir(),
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      IMAGING_WORKERS: '1',
      PREGENERATE_DEMO: 'false',
      SEED_DEMO: 'true',
    };
    const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid === undefined) {
      const error = await new Promise<Error>((resolve) => child.once('error', resolve));
      throw new Error(`the server could not be spawned: ${error.message}`);
    }
    liveChildren.add(child);
    const server = new ServerProcess(child, port, dataDir);
    try {
      await server.waitUntilHealthy();
    } catch (error) {
      await server.kill();
      throw error;
    }
    return server;
  }

  private async waitUntilHealthy(): Promise<void> {
    const deadline = performance.now() + START_DEADLINE_MS;
    while (performance.now() < deadline) {
      if (this.hasExited) throw new Error(`the server stopped (${this.exitDescription}) before it answered /healthz:\n${this.output.trim()}`);
      const answer = await send(this.port, { path: '/healthz', host: `127.0.0.1:${this.port}`, timeoutMs: 2000 }).catch(() => null);
      if (answer?.status === 200) return;
      await sleep(100);
    }
    throw new Error(`the server did not answer /healthz within ${START_DEADLINE_MS / 1000} s:\n${this.output.trim()}`);
  }

  /** SIGKILL at once (synchronous: for the very moment a request's body is written). */
  killNow(): void {
    if (!this.hasExited) this.child.kill('SIGKILL');
  }

  /** SIGKILL, then waits until the process is gone (and reaped, so its pid is free). */
  async kill(): Promise<void> {
    this.killNow();
    await this.exited;
  }

  get lastOutput(): string {
    return this.output.trim();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every file under a directory (relative paths, sorted). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The pid named by the lock file a killed server left in its data directory (first line), or null when none is left. */
function lockOwner(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8').split('\n')[0]!.trim());
  } catch {
    return null;
  }
}

/**
 * A live process that is not a server (an idle node), to stand for whoever got a killed server's
 * pid meanwhile; killed once the next server has started.
 */
async function startBystander(): Promise<ChildProcess> {
  killChildrenOnExit();
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  // Its threads too: wait until node has started them (they are what a reused pid most often is in a container).
  for (let i = 0; i < 100 && fs.readdirSync(`/proc/${child.pid}/task`).length < 2; i++) await sleep(10);
  return child;
}

/**
 * How a restart finds the killed server's lock file: as it was left, or with its pid given out
 * again meanwhile, to another live process or to a thread of one. (After a crash of a container,
 * the restarted one hands out the same small pids again: the server's old pid is then often
 * another process's, or one of the threads, which share the pid space.) Emulated by writing the
 * bystander's pid or thread id in place of the killed server's, keeping the rest of the file.
 */
export type PidReuse = 'none' | 'process' | 'thread';

/** Starts the server again on the killed server's data directory and port; throws when it does not start. */
export async function restartAfterKill(victim: ServerProcess, reuse: PidReuse): Promise<{ server: ServerProcess; note: string }> {
  await victim.kill();
  const lockPath = path.join(victim.dataDir, 'server.lock');
  const left = lockOwner(victim.dataDir) === victim.pid;
  let note = left ? 'the lock file left by the killed process was taken over' : 'the killed process left no lock file';
  // /proc tells processes from threads and their start times: the pid-reuse emulation is for Linux.
  const reusing = left && reuse !== 'none' && process.platform === 'linux';
  const bystander = reusing ? await startBystander() : null;
  try {
    if (bystander) {
      const tids = fs.readdirSync(`/proc/${bystander.pid}/task`).map(Number).filter((tid) => tid !== bystander.pid);
      const reused = reuse === 'thread' && tids.length > 0 ? tids[0]! : bystander.pid!;
      const lines = fs.readFileSync(lockPath, 'utf8').split('\n');
      fs.writeFileSync(lockPath, [String(reused), ...lines.slice(1)].join('\n'));
      note = `the lock file left by the killed process, its pid given meanwhile to a live ${reuse === 'thread' && reused !== bystander.pid ? 'thread' : 'process'} (${reused}), was taken over`;
    }
    return { server: await ServerProcess.start(victim.dataDir, victim.port), note };
  } finally {
    if (bystander) {
      bystander.kill('SIGKILL');
      if (bystander.exitCode === null && bystander.signalCode === null) await new Promise((resolve) => bystander.once('exit', resolve));
    }
  }
}

export const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs a fault on a fresh data directory and port; the server is killed and the directory removed whatever happens. */
export async function withDataDir(prefix: string, body: (context: { dataDir: string; port: number; servers: ServerProcess[] }) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const servers: ServerProcess[] = [];
  try {
    await body({ dataDir, port: await freePort(), servers });
  } finally {
    for (const server of servers) await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

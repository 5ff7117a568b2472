/**
 * What the browser benchmarks share: the built product on its own port and a throwaway data
 * directory, headless Debian Chromium with SwiftShader WebGL2, and a signed-in demo clinician.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { demoAccounts } from '../src/server/seed/demo-accounts.ts';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export interface BenchServer {
  origin: string;
  /** The server process: its CPU time (every thread's) is read from /proc. */
  pid: number;
  /** Its throwaway DATA_DIR (stored files under files/). */
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Builds the web app if there is no build, then starts the server and waits until it listens.
 * `cwd`: where the server looks for its dist/web (another build of the page, for an A/B run).
 * For diagnosis: BENCH_SERVER_NODE_ARGS, Node flags for the server (e.g. `--trace-gc`, which
 * NODE_OPTIONS refuses), and BENCH_SERVER_STDOUT, a file the server's output is appended to.
 */
export async function startBenchServer(port: number, cwd = process.cwd()): Promise<BenchServer> {
  if (!fs.existsSync(path.join(cwd, 'dist/web/index.html'))) execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-'));
  const server: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), path.resolve('src/server/server.ts')], {
    cwd,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Whatever happens in the benchmark, the server does not outlive it.
  process.on('exit', () => server.kill('SIGINT'));
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      if (process.env.BENCH_SERVER_STDOUT) fs.appendFileSync(process.env.BENCH_SERVER_STDOUT, d);
      if (d.toString().includes('Press Ctrl-C')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`the server stopped before it was ready (exit ${code})`)));
  });
  return {
    origin: `http://demo.localhost:${port}`,
    pid: server.pid!,
    dataDir,
    async stop() {
      server.kill('SIGINT');
      await new Promise((resolve) => server.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** BENCH_CHROMIUM_ARGS: more flags for every bench browser, space-separated (e.g. `--disable-gpu-compositing`). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const fromEnvironment = (process.env.BENCH_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...extraArgs, ...fromEnvironment, ...CHROMIUM_ARGS] });
}

/** A fresh browser profile with the demo clinician signed in, on the patients list. */
export async function signedInPage(browser: Browser, origin: string): Promise<Page> {
  const account = demoAccounts('demo')[1]!;
  const page = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  await page.goto(`${origin}/patients`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/patients/);
  return page;
}

/** CPU seconds a process has used, all its threads (user + system, from /proc). */
export function processCpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until the server is idle: under 5% of a core over two seconds in a row, i.e. no frame
 * generation or border detection left from a first open. Playback and scrubbing measured while the
 * server still worked would share the machine's two cores with it. Returns the seconds waited and
 * the server's CPU seconds in that time (printed: how much work the measurement would have met).
 */
export async function waitForServerIdle(server: Pick<BenchServer, 'pid'>, maxSeconds = 900): Promise<{ waited: number; cpu: number }> {
  const start = performance.now();
  const cpuAtStart = processCpuSeconds(server.pid);
  let quiet = 0;
  while (quiet < 2 && performance.now() - start < maxSeconds * 1000) {
    const before = processCpuSeconds(server.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    quiet = processCpuSeconds(server.pid) - before < 0.05 ? quiet + 1 : 0;
  }
  return { waited: (performance.now() - start) / 1000, cpu: processCpuSeconds(server.pid) - cpuAtStart };
}

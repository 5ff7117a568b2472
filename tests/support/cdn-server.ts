/**
 * The frames CDN for the tests and bench:load: Debian's nginx with njs, run from the project's own
 * config (deploy/cdn/nginx.conf.template + verify.js) on a free port with a throw-away cache, in
 * front of a store's unsigned origin (s3rver's own port). Absent binaries make `cdnAvailable()`
 * false (the tests skip, with one notice), as with Orthanc and HAProxy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export const NGINX_BINARY = '/usr/sbin/nginx';
export const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
const CDN_DIR = path.resolve(import.meta.dirname, '../../deploy/cdn');
const STARTUP_TIMEOUT_MS = 15_000;

export type CdnOptions = {
  /** The store's origin the CDN fetches misses from, unsigned: `http://host:port`. */
  origin: string;
  bucket: string;
  /** The tenants' CORS origins, as frameCorsOriginPattern makes them. */
  allowedOriginPattern: string;
  /** FRAME_CDN_KEY. */
  key: string;
};

export type CdnHandle = { url: string; port: number; pid: number; child: ChildProcess; stateDir: string; stop(): Promise<void> };

let noticePrinted = false;

/** Whether Debian's nginx and libnginx-mod-http-js are installed (prints the skip notice once when not). */
export function cdnAvailable(): boolean {
  const present = fs.existsSync(NGINX_BINARY) && fs.existsSync(NJS_MODULE);
  if (!present && !noticePrinted) {
    noticePrinted = true;
    console.warn("\nNOTICE: Debian's nginx/libnginx-mod-http-js is not installed: the frames CDN tests are skipped.\n");
  }
  return present;
}

/** The shipped template with its placeholders filled in; an unknown placeholder is an error, not an empty string. */
export function renderCdnConfig(values: Record<string, string>): string {
  const template = fs.readFileSync(path.join(CDN_DIR, 'nginx.conf.template'), 'utf8');
  return template.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for \${${name}} in the CDN config`);
    return value;
  });
}

export async function startCdn(options: CdnOptions): Promise<CdnHandle> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-cdn-'));
  // Started as root, nginx's workers run as an unprivileged user, who must reach the cache inside.
  fs.chmodSync(stateDir, 0o755);
  const port = await freePort();
  const origin = new URL(options.origin);
  const config = renderCdnConfig({
    NJS_MODULE,
    STATE_DIR: stateDir,
    CDN_DIR,
    LISTEN: `127.0.0.1:${port}`,
    ORIGIN_HOST: origin.host,
    ORIGIN_PATH: `/${encodeURIComponent(options.bucket)}/`,
    ALLOWED_ORIGIN_REGEX: options.allowedOriginPattern,
    CACHE_MAX_SIZE: '2g',
  });
  const file = path.join(stateDir, 'nginx.conf');
  fs.writeFileSync(file, config);
  const log = fs.openSync(path.join(stateDir, 'nginx.log'), 'a');
  const child = spawn(NGINX_BINARY, ['-e', 'stderr', '-p', stateDir, '-c', file, '-g', 'daemon off;'], {
    stdio: ['ignore', log, log],
    env: { PATH: process.env.PATH ?? '', FRAME_CDN_KEY: options.key },
  });
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const output = fs.readFileSync(path.join(stateDir, 'nginx.log'), 'utf8');
      await stop();
      throw new Error(`the frames CDN (nginx) did not start: ${output.slice(-1000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `http://127.0.0.1:${port}`, port, pid: child.pid!, child, stateDir, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

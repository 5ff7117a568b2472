/**
 * `npm run bench:pacs`: the PACS features of issue 17 against a real PACS (Debian's Orthanc with its
 * DICOMweb plugin, started by tests/support/orthanc.ts; skipped with a notice when it is not
 * installed). A 1,000-frame 512 x 512 uncompressed pullback (about 262 MB) and a 1,000-frame JPEG
 * baseline copy (another patient and study) are stored in Orthanc through its REST API; then, on a
 * real server in this process (real HTTP port): a PACS connection made by a demo administrator,
 * each series pulled with NDJSON progress (first progress line, retrieval MB/s, the result line after
 * the header check, the whole pull to a finished record in frames per second) while the process's
 * RSS is sampled every 50 ms (the retrieval streams to disk: its peak RSS growth stays far below the
 * file's size), and "Send to PACS" for the uncompressed record (border detection of its 1,000 frames
 * first, timed apart, then the SR and PDF made and stored with STOW-RS). Prints figures; asserts
 * nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, tenantOrigin } from '../src/server/config.ts';
import { KeyEncryptionKey } from '../src/server/crypto/key-encryption-key.ts';
import { unlockServerSecrets } from '../src/server/db/secrets-startup.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { findUserByEmail } from '../src/server/db/tenants.ts';
import { DEMO_TENANTS } from '../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../src/server/seed/seed.ts';
import { LocalDirectoryStore } from '../src/server/storage/local-directory-store.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { mintIdToken } from '../tests/support/mint-token.ts';
import { startOrthanc, type OrthancHandle } from '../tests/support/orthanc.ts';
import { writeUncompressedPullback } from './large-dicom.ts';

/** The server listens on a random port, and requests name the tenant's host without one (`Host: demo.localhost`). */
const BENCH_URL_TEMPLATE = 'http://{tenant}.localhost';
const HOST = 'demo.localhost';

const FRAMES = 1000;
const SIZE = 512;
const DISTINCT = 30;
const RSS_EVERY_MS = 50;
const POLL_MS = 50;
/** Longest wait for an import or the border detection before the bench gives up. */
const WAIT_LIMIT_MS = 15 * 60_000;
const ORTHANC_USER = 'bench';
const ORTHANC_PASSWORD = 'bench-secret';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-pacs-'));

type Series = { label: string; file: string; studyUid: string; seriesUid: string };

function writeUncompressed(file: string): Series {
  const fixture = writeUncompressedPullback(file, { frames: FRAMES, size: SIZE, distinct: DISTINCT, patientId: 'BENCH-PACS-RAW' });
  return { label: 'uncompressed', file, studyUid: fixture.studyUid, seriesUid: fixture.seriesUid };
}

function writeJpeg(file: string): Series {
  const fixture = makeDicom({ syntax: 'jpeg', frames: FRAMES, rows: SIZE, columns: SIZE, distinctFrames: DISTINCT, patientId: 'BENCH-PACS-JPEG' });
  fs.writeFileSync(file, fixture.bytes);
  return { label: 'JPEG baseline', file, studyUid: fixture.studyUid, seriesUid: fixture.seriesUid };
}

const megabytes = (bytes: number) => bytes / 1e6;

/** Stores a file in Orthanc through its REST API (`POST /instances`), the body streamed from disk. */
function uploadToOrthanc(orthanc: OrthancHandle, file: string): Promise<void> {
  const url = new URL(`${orthanc.httpUrl}/instances`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: { authorization: orthanc.authorization!, 'content-type': 'application/dicom', 'content-length': fs.statSync(file).size },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`Orthanc refused ${path.basename(file)}: ${response.statusCode} ${body}`))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    pipeline(fs.createReadStream(file), request).catch(reject);
  });
}

/** The process's RSS every 50 ms (the app runs in this process, its decode workers too). */
class RssSampler {
  private readonly samples: Array<[number, number]> = [];
  private readonly timer: NodeJS.Timeout;
  constructor() {
    this.timer = setInterval(() => this.sample(), RSS_EVERY_MS);
  }
  sample(): number {
    const rss = process.memoryUsage().rss;
    this.samples.push([performance.now(), rss]);
    return rss;
  }
  /** Highest RSS sampled between two instants. */
  peak(from: number, to: number): number {
    let peak = 0;
    for (const [at, rss] of this.samples) if (at >= from && at <= to && rss > peak) peak = rss;
    return peak;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** A full collection when the process allows it (so each step's RSS starts from what is live). */
const collect: () => void = (() => {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return () => undefined;
  }
})();

type Row = { step: string; seconds: number; rate?: string; rss?: string };

function printTable(rows: Row[]): void {
  const headers = ['step', 'seconds', 'MB/s or frames/s', 'peak RSS growth'];
  const cells = rows.map((row) => [row.step, row.seconds.toFixed(2), row.rate ?? '', row.rss ?? '']);
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (values: string[]) => values.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join(' | ');
  console.info(`\n${line(headers)}`);
  console.info(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const cell of cells) console.info(line(cell));
}

async function main() {
  const orthanc = await startOrthanc({ users: { [ORTHANC_USER]: ORTHANC_PASSWORD } });
  if (!orthanc) {
    console.info("NOTICE: Debian's orthanc/orthanc-dicomweb is not installed: bench:pacs is skipped.");
    return;
  }
  const sampler = new RssSampler();
  try {
    await run(orthanc, sampler);
  } finally {
    sampler.stop();
    await orthanc.stop();
  }
}

async function run(orthanc: OrthancHandle, sampler: RssSampler): Promise<void> {
  const rows: Row[] = [];
  const system = (await (await fetch(`${orthanc.httpUrl}/system`, { headers: { authorization: orthanc.authorization! } })).json()) as { Version?: string; DicomWebPlugin?: unknown };
  const generated = performance.now();
  const series = [writeUncompressed(path.join(work, 'uncompressed.dcm')), writeJpeg(path.join(work, 'jpeg.dcm'))];
  console.info(
    `Generated ${FRAMES}-frame ${SIZE}x${SIZE} files in ${((performance.now() - generated) / 1000).toFixed(1)} s: ` +
      series.map((s) => `${s.label} ${megabytes(fs.statSync(s.file).size).toFixed(0)} MB`).join(', ') +
      `. Orthanc ${system.Version ?? '?'} (DICOMweb plugin) at ${orthanc.httpUrl}.`,
  );

  // 1. Both series into Orthanc through its REST API.
  for (const s of series) {
    const started = performance.now();
    await uploadToOrthanc(orthanc, s.file);
    const seconds = (performance.now() - started) / 1000;
    rows.push({ step: `Orthanc REST upload, ${s.label}`, seconds, rate: `${(megabytes(fs.statSync(s.file).size) / seconds).toFixed(0)} MB/s` });
  }

  const config = {
    ...loadConfig({ PORT: '0', PUBLIC_URL_TEMPLATE: BENCH_URL_TEMPLATE, KEY_ENCRYPTION_KEY: KeyEncryptionKey.generate().encode(), LOG_LEVEL: 'error', NODE_ENV: 'production', PREGENERATE_DEMO: 'false', PACS_ALLOW_LOOPBACK: 'true', DATA_DIR: path.join(work, 'data') }),
    webRoot: '/nonexistent',
  };
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await seedTenant(database.db, DEMO_TENANTS[0]!);
  await unlockServerSecrets(config, database.db);
  const app = await buildApp({ config, database, store: new LocalDirectoryStore(path.join(work, 'store')) });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const tokenOf = async (email: string) => {
      const user = await findUserByEmail(database.db, 'demo', email);
      return `Bearer ${await mintIdToken(database.db, 'demo', tenantOrigin(config, 'demo'), { sub: user!.id, expiresIn: '1h' })}`;
    };
    const admin = await tokenOf('admin@demo.test');
    const clinician = await tokenOf('clinician@demo.test');

    /**
     * A request on the real port. node:http rather than fetch: fetch does not let a request name
     * its Host, and the tenant is the host (`demo.localhost`, which does not resolve here).
     */
    const send = (method: string, url: string, authorization: string, body?: object, accept = 'application/json'): Promise<http.IncomingMessage> =>
      new Promise((resolve, reject) => {
        const payload = body ? Buffer.from(JSON.stringify(body)) : undefined;
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path: url,
            headers: { host: HOST, authorization, accept, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
          },
          resolve,
        );
        request.on('error', reject);
        request.end(payload);
      });
    const json = async (method: string, url: string, authorization: string, body?: object): Promise<{ status: number; body: unknown }> => {
      const response = await send(method, url, authorization, body);
      let text = '';
      response.setEncoding('utf8');
      for await (const chunk of response) text += chunk as string;
      return { status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined };
    };
    const waitFor = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + WAIT_LIMIT_MS;
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what}: still not done after ${WAIT_LIMIT_MS / 60_000} min`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };

    // 2. The connection, made by an administrator.
    const created = await json('POST', '/api/demo/pacs/connections', admin, {
      name: 'Bench Orthanc',
      qidoUrl: orthanc.dicomWebUrl,
      auth: { kind: 'basic', username: ORTHANC_USER, password: ORTHANC_PASSWORD },
    });
    if (created.status !== 201) throw new Error(`creating the connection answered ${created.status} ${JSON.stringify(created.body)}`);
    const connectionId = (created.body as { id: string }).id;

    const recordOf = new Map<string, string>();
    for (const s of series) {
      const size = fs.statSync(s.file).size;
      collect();
      const baseline = sampler.sample();
      const started = performance.now();
      const response = await send('POST', `/api/demo/pacs/connections/${connectionId}/pull`, clinician, { studyInstanceUid: s.studyUid, seriesInstanceUids: [s.seriesUid] }, 'application/x-ndjson');
      if (response.statusCode !== 200) throw new Error(`${s.label}: pull answered ${response.statusCode}`);
      let firstProgressAt = 0;
      let lastProgressAt = 0;
      let lastBytes = 0;
      let result: { status: number; body: unknown } | undefined;
      let resultAt = 0;
      let pending = '';
      response.setEncoding('utf8');
      // The NDJSON answer read as it arrives, a line at a time.
      for await (const chunk of response) {
        pending += chunk as string;
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = JSON.parse(pending.slice(0, newline)) as { type: string; bytes?: number; status?: number; body?: unknown };
          pending = pending.slice(newline + 1);
          const at = performance.now();
          if (line.type === 'progress') {
            if (!firstProgressAt) firstProgressAt = at;
            lastProgressAt = at;
            lastBytes = line.bytes ?? 0;
          } else if (line.type === 'result') {
            result = { status: line.status!, body: line.body };
            resultAt = at;
          }
        }
      }
      if (!result || result.status !== 202) throw new Error(`${s.label}: pull ended with ${JSON.stringify(result)}`);
      const importId = (result.body as { imports: { importId: string }[] }).imports[0]!.importId;
      const summary = await waitFor(`${s.label} import`, async () => {
        const answer = await json('GET', `/api/demo/imports/${importId}`, clinician);
        const body = answer.body as { status: string; recordId: string | null; error: unknown };
        if (body.status === 'processing') return undefined;
        if (body.status !== 'done') throw new Error(`${s.label}: import ${body.status} ${JSON.stringify(body.error)}`);
        return body;
      });
      const doneAt = performance.now();
      recordOf.set(s.label, summary.recordId!);

      const retrieval = (lastProgressAt - started) / 1000;
      const retrievalRss = sampler.peak(started, resultAt) - baseline;
      const wholeRss = sampler.peak(started, doneAt) - baseline;
      const rssOf = (growth: number) => `${megabytes(Math.max(0, growth)).toFixed(0)} MB (file ${megabytes(size).toFixed(0)} MB)`;
      rows.push(
        { step: `pull ${s.label}: first progress line`, seconds: (firstProgressAt - started) / 1000 },
        { step: `pull ${s.label}: retrieval (last progress line)`, seconds: retrieval, rate: `${(megabytes(lastBytes) / retrieval).toFixed(0)} MB/s`, rss: rssOf(retrievalRss) },
        { step: `pull ${s.label}: result line (retrieval + header check)`, seconds: (resultAt - started) / 1000, rss: rssOf(retrievalRss) },
        { step: `pull ${s.label}: import done (pull to record)`, seconds: (doneAt - started) / 1000, rate: `${(FRAMES / ((doneAt - started) / 1000)).toFixed(0)} frames/s`, rss: rssOf(wholeRss) },
      );
    }

    // 3. Send to PACS for the uncompressed record: its borders first, then the SR and the PDF.
    const recordId = recordOf.get('uncompressed')!;
    collect();
    let baseline = sampler.sample();
    let started = performance.now();
    await waitFor('border detection', async () => {
      const response = await send('GET', `/api/demo/records/${recordId}/contours`, clinician);
      response.resume();
      await new Promise((resolve) => response.once('end', resolve));
      if (response.statusCode === 200) return true;
      if (response.statusCode !== 202) throw new Error(`contours answered ${response.statusCode}`);
      return undefined;
    });
    let ended = performance.now();
    rows.push({
      step: 'contours ready (border detection, uncompressed)',
      seconds: (ended - started) / 1000,
      rate: `${(FRAMES / ((ended - started) / 1000)).toFixed(0)} frames/s`,
      rss: `${megabytes(Math.max(0, sampler.peak(started, ended) - baseline)).toFixed(0)} MB`,
    });

    collect();
    baseline = sampler.sample();
    started = performance.now();
    const sent = await json('POST', `/api/demo/records/${recordId}/pacs-send`, clinician, { connectionId });
    ended = performance.now();
    if (sent.status !== 200) throw new Error(`pacs-send answered ${sent.status} ${JSON.stringify(sent.body)}`);
    rows.push({ step: 'send to PACS (SR + PDF made and stored)', seconds: (ended - started) / 1000, rss: `${megabytes(Math.max(0, sampler.peak(started, ended) - baseline)).toFixed(0)} MB` });

    console.info(
      `\nPACS bench (${config.imagingWorkers} decode worker${config.imagingWorkers === 1 ? '' : 's'} on ${os.availableParallelism()} cores; ` +
        `RSS of this process, app and workers, sampled every ${RSS_EVERY_MS} ms, growth over the step's start):`,
    );
    printTable(rows);
    console.info(`\nStored in Orthanc by the send: ${(sent.body as { stored: { kind: string }[] }).stored.map((s) => s.kind).join(' + ')}.`);
  } finally {
    // Also on a failure: a server left listening would keep the bench from exiting.
    await app.close();
    await database.close();
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * `npm run bench:import`: DICOM import throughput. Generates a 1,000-frame uncompressed file and a
 * 1,000-frame JPEG baseline file (512 x 512), then for each prints frames decoded per second on one
 * thread (decoding alone) and through the whole import on a real server (HTTP upload streamed to
 * disk, header check, decode in the worker pool, gzip, storage, L-mode, previews, the final
 * transaction). Prints figures; asserts nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { findUserByEmail } from '../src/server/db/tenants.ts';
import { decodeRange } from '../src/server/import/decode-range.ts';
import { readDicomFile } from '../src/server/import/dicom-file.ts';
import { DEMO_TENANTS } from '../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../src/server/seed/seed.ts';
import { LocalDirectoryStore } from '../src/server/storage/local-directory-store.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { mintIdToken } from '../tests/support/mint-token.ts';

const FRAMES = 1000;
const SIZE = 512;
const DISTINCT = 30;
const SINGLE_THREAD_FRAMES = 160;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-import-'));

/** The uncompressed file is written frame by frame: the header from dcmjs, then the pixel data. */
function writeUncompressed(file: string): void {
  const header = makeDicom({ frames: FRAMES, rows: SIZE, columns: SIZE, noPixelData: true, patientId: 'BENCH-RAW' }).bytes;
  const frames = makeDicom({ frames: DISTINCT, rows: SIZE, columns: SIZE, regionDeltaXcm: null, pullbackRate: null }).gray;
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, header);
  const element = Buffer.alloc(12);
  element.writeUInt16LE(0x7fe0, 0);
  element.writeUInt16LE(0x0010, 2);
  element.write('OB', 4, 'latin1');
  element.writeUInt32LE(FRAMES * SIZE * SIZE, 8);
  fs.writeSync(fd, element);
  for (let f = 0; f < FRAMES; f++) fs.writeSync(fd, frames[f % DISTINCT]!);
  fs.closeSync(fd);
}

function writeJpeg(file: string): void {
  fs.writeFileSync(file, makeDicom({ syntax: 'jpeg', frames: FRAMES, rows: SIZE, columns: SIZE, distinctFrames: DISTINCT, patientId: 'BENCH-JPEG' }).bytes);
}

function singleThread(file: string): number {
  const info = readDicomFile(file, path.basename(file));
  const started = performance.now();
  for (let first = 0; first < SINGLE_THREAD_FRAMES; first += 16) {
    decodeRange({ filePath: file, format: info.format, firstFrame: first, frames: info.frames.slice(first, first + 16), gzip: false });
  }
  return SINGLE_THREAD_FRAMES / ((performance.now() - started) / 1000);
}

/** Streams a file as a multipart upload (never held in memory), like a browser does. */
function uploadFile(port: number, authorization: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench-${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${path.basename(file)}"\r\nContent-Type: application/dicom\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/demo/imports',
        headers: { host: 'demo.localhost', authorization, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.write(head);
    pipeline(fs.createReadStream(file), request, { end: false })
      .then(() => request.end(tail))
      .catch(reject);
  });
}

async function main() {
  const raw = path.join(work, 'uncompressed.dcm');
  const jpeg = path.join(work, 'jpeg.dcm');
  let started = performance.now();
  writeUncompressed(raw);
  writeJpeg(jpeg);
  console.info(
    `Generated ${FRAMES}-frame ${SIZE}x${SIZE} files in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `uncompressed ${(fs.statSync(raw).size / 1e6).toFixed(0)} MB, JPEG baseline ${(fs.statSync(jpeg).size / 1e6).toFixed(0)} MB.`,
  );

  const config = { ...loadConfig({ PORT: '0', LOG_LEVEL: 'error', NODE_ENV: 'production', DATA_DIR: path.join(work, 'data') }), webRoot: '/nonexistent' };
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await seedTenant(database.db, DEMO_TENANTS[0]!);
  const app = await buildApp({ config, database, store: new LocalDirectoryStore(path.join(work, 'store')) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const user = await findUserByEmail(database.db, 'demo', 'clinician@demo.test');
  const authorization = `Bearer ${await mintIdToken(database.db, 'demo', `http://demo.localhost:${config.port}`, { sub: user!.id, expiresIn: '1h' })}`;

  console.info(`\nImport throughput (${config.imagingWorkers} decode worker${config.imagingWorkers === 1 ? '' : 's'} on ${os.availableParallelism()} cores):`);
  for (const [label, file] of [
    ['uncompressed', raw],
    ['JPEG baseline', jpeg],
  ] as const) {
    const oneThread = singleThread(file);
    started = performance.now();
    const response = await uploadFile(port, authorization, file);
    const uploaded = performance.now();
    if (response.status !== 202) throw new Error(`${label}: upload answered ${response.status} ${response.body}`);
    const { importId } = JSON.parse(response.body) as { importId: string };
    let summary: { status: string; framesDone: number; error: unknown };
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      summary = (await app.inject({ url: `/api/demo/imports/${importId}`, headers: { host: 'demo.localhost', authorization } })).json();
    } while (summary.status === 'processing');
    if (summary.status !== 'done') throw new Error(`${label}: import ${summary.status} ${JSON.stringify(summary.error)}`);
    const processing = (performance.now() - uploaded) / 1000;
    const uploadSeconds = (uploaded - started) / 1000;
    console.info(
      `  ${label.padEnd(14)} decode alone, one thread: ${oneThread.toFixed(0).padStart(5)} frames/s | ` +
        `whole import: ${(FRAMES / processing).toFixed(0).padStart(5)} frames/s decoded and stored (${processing.toFixed(2)} s after the upload; ` +
        `upload + header check ${uploadSeconds.toFixed(2)} s, ${(fs.statSync(file).size / 1e6 / uploadSeconds).toFixed(0)} MB/s)`,
    );
  }
  await app.close();
  await database.close();
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));

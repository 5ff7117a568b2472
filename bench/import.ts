/**
 * `npm run bench:import`: DICOM import throughput. First, frames decoded per second on one thread
 * (decoding alone) for every accepted transfer syntax: 512 x 512 files encoded from makeDicom's
 * output by dcmtk and GDCM (cases whose tool is missing are skipped) and by OpenJPH for HTJ2K.
 * Then a 1,000-frame uncompressed file and a 1,000-frame JPEG baseline file (512 x 512): frames
 * per second decoding alone and through the whole import on a real server (HTTP upload streamed to
 * disk, header check, decode in the worker pool, gzip, storage, previews, the final
 * transaction). Prints figures; asserts nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, tenantOrigin } from '../src/server/config.ts';
import { KeyEncryptionKey } from '../src/server/crypto/key-encryption-key.ts';
import { unlockServerSecrets } from '../src/server/db/secrets-startup.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { findUserByEmail } from '../src/server/db/tenants.ts';
import { initCodecFor } from '../src/server/dicom/codecs/registry.ts';
import { decodeRange } from '../src/server/import/decode-range.ts';
import { readDicomFile } from '../src/server/dicom/dicom-file.ts';
import { DEMO_TENANTS } from '../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../src/server/seed/seed.ts';
import { LocalDirectoryStore } from '../src/server/storage/local-directory-store.ts';
import { makeDicom, type FixtureOptions } from '../tests/support/dicom-fixtures.ts';
import { writeUncompressedPullback } from './large-dicom.ts';
import { mintIdToken } from '../tests/support/mint-token.ts';
import { hasTool, htj2kEncoder, transcode } from '../tests/support/real-encoders.ts';

/** The server listens on a random port, and requests name the tenant's host without one (`Host: demo.localhost`). */
const BENCH_URL_TEMPLATE = 'http://{tenant}.localhost';

const FRAMES = 1000;
const SIZE = 512;
const DISTINCT = 30;
const SINGLE_THREAD_FRAMES = 160;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-import-'));

function writeUncompressed(file: string): void {
  writeUncompressedPullback(file, { frames: FRAMES, size: SIZE, distinct: DISTINCT, patientId: 'BENCH-RAW' });
}

function writeJpeg(file: string): void {
  fs.writeFileSync(file, makeDicom({ syntax: 'jpeg', frames: FRAMES, rows: SIZE, columns: SIZE, distinctFrames: DISTINCT, patientId: 'BENCH-JPEG' }).bytes);
}

async function singleThread(file: string): Promise<number> {
  const info = readDicomFile(file, path.basename(file));
  await initCodecFor(info.format);
  const started = performance.now();
  for (let first = 0; first < SINGLE_THREAD_FRAMES; first += 16) {
    decodeRange({ filePath: file, format: info.format, firstFrame: first, frames: info.frames.slice(first, first + 16), gzip: false });
  }
  return SINGLE_THREAD_FRAMES / ((performance.now() - started) / 1000);
}

const SYNTAX_FRAMES = 12;
const GRAY_8: FixtureOptions = { frames: SYNTAX_FRAMES, rows: SIZE, columns: SIZE, regionDeltaXcm: null, pullbackRate: null };
const XA_12: FixtureOptions = { kind: 'xa', frames: SYNTAX_FRAMES, rows: SIZE, columns: SIZE, bits: 12, window: { center: 2048, width: 4000 } };

/** Each syntax's file: [label, tool, tool arguments, source] or an HTJ2K file written here. */
const SYNTAX_CASES: [string, string, string[], FixtureOptions][] = [
  ['explicit VR little endian', '', [], GRAY_8],
  ['explicit VR big endian', 'dcmconv', ['+tb'], GRAY_8],
  ['deflated', 'dcmconv', ['+td'], GRAY_8],
  ['RLE', 'dcmcrle', [], GRAY_8],
  ['JPEG baseline', 'dcmcjpeg', ['+eb'], GRAY_8],
  ['JPEG extended 12-bit', 'dcmcjpeg', ['+ee'], XA_12],
  ['JPEG lossless', 'dcmcjpeg', ['+el'], GRAY_8],
  ['JPEG lossless SV1 12-bit', 'dcmcjpeg', ['+e1'], XA_12],
  ['JPEG-LS lossless', 'dcmcjpls', [], GRAY_8],
  ['JPEG-LS near-lossless', 'dcmcjpls', ['+en'], GRAY_8],
  ['JPEG 2000 lossless', 'gdcmconv', ['--j2k'], GRAY_8],
  ['JPEG 2000 lossy', 'gdcmconv', ['--j2k', '--lossy', '-q', '45'], GRAY_8],
];

/** Frames per second decoding `file` on this thread (all its frames, repeated for at least 0.3 s). */
async function decodeRate(file: string): Promise<number> {
  const info = readDicomFile(file, path.basename(file));
  await initCodecFor(info.format);
  const job = { filePath: info.filePath, format: info.format, firstFrame: 0, frames: info.frames, gzip: false };
  decodeRange(job); // warm-up: JIT and the codec's first allocations
  const started = performance.now();
  let frames = 0;
  do {
    decodeRange(job);
    frames += info.frames.length;
  } while (performance.now() - started < 300);
  return frames / ((performance.now() - started) / 1000);
}

async function syntaxRates(): Promise<void> {
  console.info(`\nDecode alone, one thread, ${SIZE}x${SIZE} frames (frames/s):`);
  const sources = new Map<FixtureOptions, string>();
  const sourceFile = (options: FixtureOptions) => {
    if (!sources.has(options)) {
      const file = path.join(work, `source-${sources.size}.dcm`);
      fs.writeFileSync(file, makeDicom(options).bytes);
      sources.set(options, file);
    }
    return sources.get(options)!;
  };
  const print = (label: string, rate: number) => console.info(`  ${label.padEnd(28)} ${rate.toFixed(0).padStart(6)}`);
  for (const [label, tool, args, options] of SYNTAX_CASES) {
    if (tool && !hasTool(tool)) {
      console.info(`  ${label.padEnd(28)} skipped: ${tool} is not installed`);
      continue;
    }
    const file = tool ? transcode(tool, args, sourceFile(options), path.join(work, `${label.replace(/\W+/g, '-')}.dcm`)) : sourceFile(options);
    print(label, await decodeRate(file));
  }
  const encode = await htj2kEncoder();
  for (const [label, uid, lossless] of [
    ['HTJ2K lossless', '1.2.840.10008.1.2.4.201', true],
    ['HTJ2K lossy', '1.2.840.10008.1.2.4.203', false],
  ] as const) {
    const file = path.join(work, `${label.replace(/\W+/g, '-')}.dcm`);
    const encapsulated = { transferSyntaxUid: uid, encode: (samples: Uint8Array | Uint16Array) => encode(samples, { width: SIZE, height: SIZE, bits: 8, components: 1, lossless }) };
    fs.writeFileSync(file, makeDicom({ ...GRAY_8, encapsulated }).bytes);
    print(label, await decodeRate(file));
  }
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
  await syntaxRates();
  const raw = path.join(work, 'uncompressed.dcm');
  const jpeg = path.join(work, 'jpeg.dcm');
  const started = performance.now();
  writeUncompressed(raw);
  writeJpeg(jpeg);
  console.info(
    `Generated ${FRAMES}-frame ${SIZE}x${SIZE} files in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `uncompressed ${(fs.statSync(raw).size / 1e6).toFixed(0)} MB, JPEG baseline ${(fs.statSync(jpeg).size / 1e6).toFixed(0)} MB.`,
  );

  const config = { ...loadConfig({ PORT: '0', PUBLIC_URL_TEMPLATE: BENCH_URL_TEMPLATE, KEY_ENCRYPTION_KEY: KeyEncryptionKey.generate().encode(), LOG_LEVEL: 'error', NODE_ENV: 'production', PREGENERATE_DEMO: 'false', DATA_DIR: path.join(work, 'data') }), webRoot: '/nonexistent' };
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await seedTenant(database.db, DEMO_TENANTS[0]!);
  await unlockServerSecrets(config, database.db);
  const app = await buildApp({ config, database, store: new LocalDirectoryStore(path.join(work, 'store')) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const user = await findUserByEmail(database.db, 'demo', 'clinician@demo.test');
  const authorization = `Bearer ${await mintIdToken(database.db, 'demo', tenantOrigin(config, 'demo'), { sub: user!.id, expiresIn: '1h' })}`;

  console.info(`\nImport throughput (${config.imagingWorkers} decode worker${config.imagingWorkers === 1 ? '' : 's'} on ${os.availableParallelism()} cores):`);
  try {
    for (const [label, file] of [
      ['uncompressed', raw],
      ['JPEG baseline', jpeg],
    ] as const) {
      await wholeImport(label, file);
    }
  } finally {
    // Also on a failure: a server left listening would keep the bench from exiting.
    await app.close();
    await database.close();
  }

  async function wholeImport(label: string, file: string): Promise<void> {
    const oneThread = await singleThread(file);
    const started = performance.now();
    const response = await uploadFile(port, authorization, file);
    const uploaded = performance.now();
    if (response.status !== 202) throw new Error(`${label}: upload answered ${response.status} ${response.body}`);
    const importId = (JSON.parse(response.body) as { imports: { importId: string }[] }).imports[0]!.importId;
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
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));

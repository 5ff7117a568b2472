/**
 * `npm run bench:frame-decode` (issue 27): what frame packs cost the page. Makes a series of the
 * demo generator's B-mode frames three ways: JPEG baseline frames as dcmcjpeg writes them (what a
 * console sends), JPEG-LS lossless (dcmcjpls: a lossless codec for uncompressed sources and the
 * demo) and today's gzip of the raw gray (the baseline). Serves them from a small static server
 * (with the app's CSP) to a page that loads them as the review does, frame packs through the
 * review's own decode workers, under Chromium's network emulation at 100 Mbit/s and 1 Gbit/s.
 * Also the server's own JPEG-LS packs of the same gray, every frame alone and with frames predicted
 * from the one before (issue 27), whose decode includes the reconstruction.
 * Prints bytes per frame, time until every frame is in the page against bytes ÷ bandwidth, and
 * the workers' decode time per frame; frame packs twice, side by side in the same run: handed to
 * the workers part by part as each downloads, decoded frame by frame as they complete (the review
 * now), and whole once downloaded (before). Asserts nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import type { PackCodec } from '../src/domain/images.ts';
import { buildFramePack, FRAME_PACK_MEDIA_TYPE } from '../src/domain/pixels/frame-pack.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { encodeGray, encodeGrayFrames, grayLosslessFormat, initGrayEncoder } from '../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { readDicomUpload } from '../src/server/dicom/dicom-file.ts';
import { CONTENT_SECURITY_POLICY } from '../src/server/http/security-headers.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { hasTool, transcode } from '../tests/support/real-encoders.ts';
import { launchChromium } from './browser-bench.ts';
import type { BenchResult, BenchSeries } from './frame-decode-page/main.ts';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 160);
const FRAMES_PER_CHUNK = 16;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Decode workers (default: the review's own choice, from the cores: one fewer, at least one). */
const WORKERS = process.env.BENCH_WORKERS ? Number(process.env.BENCH_WORKERS) : null;
const BANDWIDTHS = [
  { label: '100 Mbit/s', bitsPerSecond: 100e6 },
  { label: '1 Gbit/s', bitsPerSecond: 1e9 },
];

if (!['dcmcjpeg', 'dcmcjpls'].every(hasTool)) throw new Error('dcmtk (dcmcjpeg, dcmcjpls) is needed: apt-get install dcmtk');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-frame-decode-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));

// The demo generator's frames, written as an uncompressed file, then encoded by dcmtk.
const model = createPullbackModel({ seed: 20260, frameCount: FRAMES });
const renderer = createBmodeRenderer(model);
const side = model.frameSizePx;
const gray = Array.from({ length: FRAMES }, (_, k) => renderer.renderFrame(k));
const source = path.join(work, 'demo.dcm');
fs.writeFileSync(source, makeDicom({ rows: side, columns: side, frames: FRAMES, pixel: (f, x, y) => gray[f]![y * side + x]! }).bytes);

interface Served {
  readonly label: string;
  readonly kind: BenchSeries['kind'];
  readonly chunks: Buffer[];
  /** The source's compressed frames (null for the raw gray). */
  readonly sourceBytes: number | null;
  /** The packs' codec, as the image lists announce it (null for the raw gray). */
  readonly packCodec: PackCodec | null;
}

async function packsOf(label: string, file: string): Promise<Served> {
  const info = await readDicomUpload(file, path.basename(file));
  const bytes = fs.readFileSync(info.filePath);
  const frames = info.frames.map((ranges) => new Uint8Array(Buffer.concat(ranges.map(([offset, length]) => bytes.subarray(offset, offset + length)))));
  const chunks: Buffer[] = [];
  for (let first = 0; first < frames.length; first += FRAMES_PER_CHUNK) chunks.push(Buffer.from(buildFramePack(info.format, frames.slice(first, first + FRAMES_PER_CHUNK))));
  return { label, kind: 'frame-pack', chunks, sourceBytes: frames.reduce((sum, frame) => sum + frame.length, 0), packCodec: { encoding: info.format.encoding, bitsStored: info.format.bitsStored } };
}

const rawChunks: Buffer[] = [];
for (let first = 0; first < FRAMES; first += FRAMES_PER_CHUNK) rawChunks.push(zlib.gzipSync(Buffer.concat(gray.slice(first, first + FRAMES_PER_CHUNK))));
/** The server's own packs of the gray (demo chunks, uncompressed imports): every frame alone (before), or predicted from the one before where it pays (now). */
await initGrayEncoder();
function serverPacks(label: string, predicting: boolean): Served {
  const chunks: Buffer[] = [];
  for (let first = 0; first < FRAMES; first += FRAMES_PER_CHUNK) {
    const frames = gray.slice(first, first + FRAMES_PER_CHUNK);
    const encoded = predicting ? encodeGrayFrames(Buffer.concat(frames), side, side) : { frames: frames.map((frame) => encodeGray(frame, side, side)), predict: undefined };
    chunks.push(Buffer.from(buildFramePack(grayLosslessFormat(side, side), encoded.frames, encoded.predict)));
  }
  return { label, kind: 'frame-pack', chunks, sourceBytes: null, packCodec: { encoding: 'jpeg-ls', bitsStored: 8 } };
}
const series: Served[] = [
  await packsOf('JPEG baseline (dcmcjpeg)', transcode('dcmcjpeg', ['+eb'], source, path.join(work, 'jpeg.dcm'))),
  await packsOf('JPEG-LS lossless (dcmcjpls)', transcode('dcmcjpls', [], source, path.join(work, 'jpeg-ls.dcm'))),
  serverPacks('JPEG-LS, every frame alone (the server\'s packs before)', false),
  serverPacks('JPEG-LS, predicted from the frame before where it pays (the server\'s packs now)', true),
  { label: 'gray8, gzip (today)', kind: 'gray8', chunks: rawChunks, sourceBytes: null, packCodec: null },
];

// The bench page, built with the app's worker settings.
const pageDir = path.join(work, 'page');
await build({ configFile: false, logLevel: 'error', root: 'bench/frame-decode-page', base: '/', worker: { format: 'es' }, build: { outDir: pageDir, emptyOutDir: true } });

/** Codec .wasm requests since the last load began: once per load when the page compiles it for its workers, once per worker otherwise. */
let wasmRequests = 0;
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bench');
  if (url.pathname === '/favicon.ico') return response.writeHead(204).end();
  response.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  response.setHeader('cache-control', 'no-store');
  const chunk = /^\/series\/(\d+)\/(\d+)$/.exec(url.pathname);
  if (chunk) {
    const served = series[Number(chunk[1])];
    const body = served?.chunks[Number(chunk[2])];
    if (!served || !body) return response.writeHead(404).end();
    const headers: Record<string, string | number> = { 'content-length': body.length };
    if (served.kind === 'gray8') Object.assign(headers, { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' });
    else headers['content-type'] = FRAME_PACK_MEDIA_TYPE;
    return response.writeHead(200, headers).end(body);
  }
  if (url.pathname.endsWith('.wasm')) wasmRequests++;
  const file = path.join(pageDir, path.normalize(url.pathname === '/' ? '/index.html' : url.pathname));
  if (!file.startsWith(pageDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return response.writeHead(404).end();
  response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await launchChromium();
const page = await browser.newPage();
const errors: string[] = [];
page.on('pageerror', (error) => errors.push(error.message));
page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
await page.goto(`${origin}/`);
await page.waitForFunction(() => 'loadSeries' in globalThis);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Network.enable');
await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.info(
  `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the start; ${FRAMES} demo B-mode frames of ${side}x${side} (raw ${kb(side * side)} a frame), chunks of ${FRAMES_PER_CHUNK}; median of ${RUNS} runs; ${os.availableParallelism()} cores; ${WORKERS ?? 'the review\'s number of'} decode workers`,
);
console.info('');
for (const [index, served] of series.entries()) {
  const wireBytes = served.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const perFrame = wireBytes / FRAMES;
  const versusSource = served.sourceBytes ? `, ${(wireBytes / served.sourceBytes).toFixed(3)}x the source's compressed frames` : '';
  const versusGzip = `${(wireBytes / rawChunks.reduce((sum, chunk) => sum + chunk.length, 0)).toFixed(2)}x today's gzip`;
  console.info(`${served.label}: ${kb(perFrame)} a frame on the wire (${versusGzip}${versusSource})`);
  // Packs two ways in the same run, their runs alternated so that both see the same machine
  // load: streamed to the workers as they download (the review now), and whole once downloaded
  // (before); the codec loaded as soon as the image lists name it in both.
  const warmings = served.packCodec
    ? [
        { label: 'packs streamed', packCodec: served.packCodec, delivery: 'streamed' as const },
        { label: 'packs whole   ', packCodec: served.packCodec, delivery: 'whole' as const },
      ]
    : [{ label: '', packCodec: null, delivery: 'whole' as const }];
  const specOf = (packCodec: PackCodec | null, delivery: BenchSeries['delivery']): BenchSeries => ({
    chunks: served.chunks.map((_, k) => `/series/${index}/${k}`),
    kind: served.kind,
    width: side,
    height: side,
    framesPerChunk: FRAMES_PER_CHUNK,
    count: FRAMES,
    packCodec,
    workers: WORKERS,
    delivery,
  });
  for (const { label, bitsPerSecond } of BANDWIDTHS) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1, downloadThroughput: bitsPerSecond / 8, uploadThroughput: bitsPerSecond / 8 });
    const results = warmings.map((): BenchResult[] => []);
    const wasmFetches = warmings.map((): number[] => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [k, warming] of warmings.entries()) {
        wasmRequests = 0;
        results[k]!.push(await page.evaluate((s) => (globalThis as unknown as { loadSeries(s: BenchSeries): Promise<BenchResult> }).loadSeries(s), specOf(warming.packCodec, warming.delivery)));
        wasmFetches[k]!.push(wasmRequests);
      }
    }
    for (const [k, warming] of warmings.entries()) {
      const runs = results[k]!;
      if (runs.some((result) => result.grayBytes !== FRAMES * side * side)) throw new Error(`${served.label}: not every frame arrived`);
      const all = median(runs.map((result) => result.allFramesMs));
      const ideal = (wireBytes * 8 * 1000) / bitsPerSecond;
      const decode = runs.every((result) => result.decodeMsPerFrame !== null)
        ? `; decode ${median(runs.map((result) => result.decodeMsPerFrame!)).toFixed(2)} ms a frame in the workers (first chunk ${median(runs.map((result) => result.firstDecodeMs!)).toFixed(0)} ms with its codec's start); codec .wasm fetched ${Math.max(...wasmFetches[k]!)}x a load${runs[0]!.bytesPerRead === null ? '' : `; ${(median(runs.map((result) => result.bytesPerRead!)) / 1024).toFixed(1)} KB a network read`}`
        : '';
      console.info(
        `  ${label.padEnd(10)} ${warming.label ? `${warming.label}: ` : ''}all frames in ${all.toFixed(0).padStart(5)} ms against bytes ÷ bandwidth ${ideal.toFixed(0).padStart(5)} ms (${(all / ideal).toFixed(2)}x); first chunk ${median(runs.map((result) => result.firstChunkMs)).toFixed(0)} ms${decode}`,
      );
    }
  }
}
await browser.close();
server.close();
if (errors.length) console.warn(`page errors:\n${errors.join('\n')}`);

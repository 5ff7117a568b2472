/**
 * `npm run bench:frames`: delivery of the 3,600-frame demo record on loopback, against a plain
 * static-file server sending the same stored bytes; then, per source (issue 27), the bytes the
 * frame route sends per frame against the source's compressed frames and against today's gzip
 * chunks, and the server's encode time per frame. Prints figures; asserts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { RecordImagesSchema, type RecordImages } from '../src/domain/images.ts';
import { printSourceTable } from './frames-per-source.ts';

const CONCURRENCY = 6; // what a browser opens per origin
const CLOCK_TICKS_PER_S = 100;

type Ready = {
  port: number;
  pid: number;
  authorization?: string;
  recordId?: string;
  generationSeconds?: number;
  sources?: { label: string; file: string; recordId: string; importSeconds: number }[];
};

function startServer(mode: 'app' | 'static', storeDir: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['bench/frames-server.ts', mode, storeDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    // The server's own JSON log lines share stdout; the ready line is the one that names the port.
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Partial<Ready>;
      if (typeof message.port === 'number') resolve({ child, ready: message as Ready });
    });
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** Bytes of a frame pack's prefix, header and first frame, once `head` holds enough to say (else Infinity). */
function packFirstFrameEnd(head: Buffer): number {
  if (head.length < 8) return Infinity;
  const headerLength = head.readUInt32LE(4);
  if (head.length < 8 + headerLength) return Infinity;
  const { frameLengths } = JSON.parse(head.subarray(8, 8 + headerLength).toString('utf8')) as { frameLengths: number[] };
  return 8 + headerLength + (frameLengths[0] ?? 0);
}

/**
 * GETs a chunk; calls onFirstFrame once its first frame has arrived (gzip: that many gray bytes
 * decoded; frame pack: its header and first frame's bytes received); resolves with the wire byte count.
 */
function getChunk(port: number, pathName: string, headers: Record<string, string>, frameBytes: number, onFirstFrame: () => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathName, agent, headers: { 'accept-encoding': 'gzip', ...headers } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`${pathName}: ${response.statusCode}`));
      let wire = 0;
      let firstFrameSeen = false;
      const seen = (done: boolean) => {
        if (done && !firstFrameSeen) onFirstFrame();
        firstFrameSeen ||= done;
      };
      if (response.headers['content-encoding'] !== 'gzip') {
        const head: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          wire += chunk.length;
          if (firstFrameSeen) return;
          head.push(chunk);
          seen(wire >= packFirstFrameEnd(Buffer.concat(head)));
        });
        response.on('end', () => resolve(wire));
        return;
      }
      response.on('data', (chunk: Buffer) => (wire += chunk.length));
      const gunzip = zlib.createGunzip();
      let decoded = 0;
      gunzip.on('data', (chunk: Buffer) => seen((decoded += chunk.length) >= frameBytes));
      gunzip.on('end', () => resolve(wire));
      gunzip.on('error', reject);
      response.pipe(gunzip);
    });
    request.on('error', reject);
  });
}

async function measure(port: number, pid: number, paths: string[], headers: Record<string, string>, framesPerChunk: number, frameBytes: number, frameCount: number) {
  const cpuBefore = cpuSeconds(pid);
  const start = performance.now();
  let firstFrameMs = Number.NaN;
  const chunkDone = new Array<boolean>(paths.length).fill(false);
  let contiguous = 0;
  let hundredMs = Number.NaN;
  let wireBytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      // Not `wireBytes += await ...`: that reads the sum before the await and loses the other workers' bytes.
      const wire = await getChunk(port, paths[index]!, headers, frameBytes, () => {
        if (index === 0 && Number.isNaN(firstFrameMs)) firstFrameMs = performance.now() - start;
      });
      wireBytes += wire;
      chunkDone[index] = true;
      while (contiguous < paths.length && chunkDone[contiguous]) contiguous++;
      if (Number.isNaN(hundredMs) && contiguous * framesPerChunk >= 100) hundredMs = performance.now() - start;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const allMs = performance.now() - start;
  return { firstFrameMs, hundredMs, allMs, bytesPerFrame: wireBytes / frameCount, cpuMsPerFrame: ((cpuSeconds(pid) - cpuBefore) * 1000) / frameCount };
}

const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-bench-frames-'));
const app = await startServer('app', storeDir);
const { port, pid, authorization, recordId, generationSeconds, sources } = app.ready;
const headers = { host: 'demo.localhost', authorization: authorization! };
const images: RecordImages = await new Promise((resolve, reject) => {
  http.get({ host: '127.0.0.1', port, path: `/api/demo/records/${recordId}/images`, headers }, (response) => {
    let body = '';
    response.on('data', (chunk) => (body += chunk));
    response.on('end', () => resolve(RecordImagesSchema.parse(JSON.parse(body))));
  }).on('error', reject);
});
const { count, width, height, framesPerChunk, chunks } = images.bmode;
const frameBytes = width * height;
const appPaths = chunks.map((chunk) => `/api/demo/${chunk}`);
const staticServer = await startServer('static', storeDir);
// The stored files the product sends: frame packs, or gzip chunks for a record made before them.
const storedSuffix = images.bmode.chunkFormat === 'frame-pack' ? 'ivfp' : 'u8.gz';
const staticPaths = chunks.map((_, index) => `/demo/${recordId}/${images.version}/bmode/${String(index).padStart(5, '0')}.${storedSuffix}`);

console.info(`3,600-frame record: ${count} frames of ${width}x${height} (${(frameBytes / 1024).toFixed(0)} KiB raw each), ${chunks.length} chunks of ${framesPerChunk}`);
console.info(`generated and stored in ${generationSeconds!.toFixed(1)} s before measuring (first open of a record; cached afterwards)\n`);

// One warm-up pass each (file cache, connections), then the measured pass, alternating.
await measure(port, pid, appPaths, headers, framesPerChunk, frameBytes, count);
await measure(staticServer.ready.port, staticServer.ready.pid, staticPaths, {}, framesPerChunk, frameBytes, count);
const ours = await measure(port, pid, appPaths, headers, framesPerChunk, frameBytes, count);
const plain = await measure(staticServer.ready.port, staticServer.ready.pid, staticPaths, {}, framesPerChunk, frameBytes, count);

const row = (label: string, a: number, b: number, unit: string, digits = 1) =>
  console.info(`${label.padEnd(34)} ${a.toFixed(digits).padStart(10)} ${unit.padEnd(6)} ${b.toFixed(digits).padStart(10)} ${unit.padEnd(6)} ${(a / b).toFixed(2).padStart(7)}x`);
console.info(`${''.padEnd(34)} ${'this server'.padStart(17)} ${'static files'.padStart(17)} ${'ratio'.padStart(8)}`);
row('time to first frame', ours.firstFrameMs, plain.firstFrameMs, 'ms');
row('time to 100 frames', ours.hundredMs, plain.hundredMs, 'ms');
row('time to all frames', ours.allMs, plain.allMs, 'ms', 0);
row('bytes on the wire per frame', ours.bytesPerFrame, plain.bytesPerFrame, 'B', 0);
row('server CPU per frame', ours.cpuMsPerFrame, plain.cpuMsPerFrame, 'ms', 3);
console.info(`\nwire bytes / raw bytes: ${(ours.bytesPerFrame / frameBytes).toFixed(2)} (${images.bmode.chunkFormat}: ${images.bmode.chunkFormat === 'frame-pack' ? 'JPEG-LS lossless, decoded in the page' : 'gzip, decoded natively by browsers'})`);
console.info(`throughput: ${((count * frameBytes) / 1e6 / (ours.allMs / 1000)).toFixed(0)} MB/s of frames; goals: all frames < 10,000 ms, first frame < 300 ms\n`);

await printSourceTable({
  port,
  headers,
  agent,
  storeDir,
  demo: { recordId: recordId!, images, wireBytesPerFrame: ours.bytesPerFrame, generationSeconds: generationSeconds! },
  sources: sources ?? [],
});

agent.destroy();
app.child.kill();
staticServer.child.kill();
fs.rmSync(storeDir, { recursive: true, force: true });

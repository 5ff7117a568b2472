/**
 * bench/frames.ts, per source (issue 27): what the frame route sends per frame for each imported
 * series and for the demo pullback, against the source's compressed frames (goal ≤ 1.05x) and
 * against the gzip chunks every record still has, which is what was sent before (goal ≤ 0.6x for
 * uncompressed sources and the demo); and the server's time per frame to make the frame pack beyond
 * the decode it does anyway (copying the file's frames, or JPEG-LS encoding the gray), on one thread.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { RecordImagesSchema, type RecordImages } from '../src/domain/images.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, initGrayEncoder } from '../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { initCodecFor } from '../src/server/dicom/codecs/registry.ts';
import { readDicomUpload } from '../src/server/dicom/dicom-file.ts';
import { generateFrames } from '../src/server/imaging/demo-pullback.ts';
import { decodeRange } from '../src/server/import/decode-range.ts';
import { compressedFrameBytes } from './frames-sources.ts';

interface SourceTableInput {
  readonly port: number;
  readonly headers: Record<string, string>;
  readonly agent: http.Agent;
  readonly storeDir: string;
  readonly demo: { readonly recordId: string; readonly images: RecordImages; readonly wireBytesPerFrame: number; readonly generationSeconds: number };
  readonly sources: readonly { readonly label: string; readonly file: string; readonly recordId: string; readonly importSeconds: number }[];
}

function getBody(input: SourceTableInput, pathName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: input.port, path: pathName, agent: input.agent, headers: { 'accept-encoding': 'gzip', ...input.headers } }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => (response.statusCode === 200 ? resolve(Buffer.concat(parts)) : reject(new Error(`${pathName}: ${response.statusCode}`))));
      })
      .on('error', reject);
  });
}

/** The record's gzip chunks as stored: what the frame route sent for every record before frame packs. */
function gzipBytes(storeDir: string, images: RecordImages): number {
  const dir = path.join(storeDir, 'demo', images.recordId, images.version, 'bmode');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.u8.gz'))
    .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

/** The fastest of a few runs, in ms. */
function fastest(runs: number, work: () => void): number {
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Per frame: the import's decode with its frame pack made, less the decode alone. */
async function packMsPerFrame(file: string): Promise<number> {
  const info = await readDicomUpload(file, path.basename(file));
  await initCodecFor(info.format);
  await initGrayEncoder();
  const job = { filePath: info.filePath, format: info.format, firstFrame: 0, frames: info.frames, gzip: true };
  const withPack = fastest(3, () => decodeRange({ ...job, pack: true }));
  const without = fastest(3, () => decodeRange(job));
  return Math.max(0, withPack - without) / info.frameCount;
}

/** JPEG-LS encoding of demo B-mode frames, per frame. */
async function demoEncodeMsPerFrame(size: number): Promise<number> {
  await initGrayEncoder();
  const frames = generateFrames(createPullbackModel({ seed: 1, frameCount: 64, frameSizePx: size }), 0, 32);
  return fastest(3, () => encodeGrayFrames(frames, size, size)) / 32;
}

export async function printSourceTable(input: SourceTableInput): Promise<void> {
  const rows: string[][] = [];
  for (const source of input.sources) {
    const images = RecordImagesSchema.parse(JSON.parse((await getBody(input, `/api/demo/records/${source.recordId}/images`)).toString('utf8')));
    let wire = 0;
    for (const chunk of images.bmode.chunks) wire += (await getBody(input, `/api/demo/${chunk}`)).length;
    const { frames, bytes } = await compressedFrameBytes(source.file);
    const gzip = gzipBytes(input.storeDir, images);
    rows.push([
      source.label,
      String(frames),
      (bytes / frames).toFixed(0),
      (wire / frames).toFixed(0),
      `${(wire / bytes).toFixed(2)}x`,
      (gzip / frames).toFixed(0),
      `${(wire / gzip).toFixed(2)}x`,
      (await packMsPerFrame(source.file)).toFixed(2),
      images.bmode.chunkFormat,
    ]);
  }
  const demo = input.demo.images.bmode;
  const demoGzip = gzipBytes(input.storeDir, input.demo.images) / demo.count;
  rows.push([
    'demo pullback (generated)',
    String(demo.count),
    '–',
    input.demo.wireBytesPerFrame.toFixed(0),
    '–',
    demoGzip.toFixed(0),
    `${(input.demo.wireBytesPerFrame / demoGzip).toFixed(2)}x`,
    (await demoEncodeMsPerFrame(demo.width)).toFixed(2),
    demo.chunkFormat,
  ]);
  const head = ['source', 'frames', 'source B/fr', 'wire B/fr', 'wire/source', 'gzip B/fr', 'wire/gzip', 'pack ms/fr', 'sent as'];
  const widths = head.map((title, k) => Math.max(title.length, ...rows.map((row) => row[k]!.length)));
  const line = (cells: string[]) => cells.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!))).join('  ');
  console.info('Per source: the frame route\'s bytes per frame (bodies, headers left out), the source\'s compressed frames, today\'s gzip');
  console.info(line(head));
  for (const row of rows) console.info(line(row));
  console.info('pack ms/fr: server time per frame to make the pack beyond the decode it does anyway (one thread; the decode and frame workers do it)');
  console.info('goals: wire/source ≤ 1.05x for compressed sources; wire/gzip ≤ 0.6x for uncompressed sources and the demo');
}

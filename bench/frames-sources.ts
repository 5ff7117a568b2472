/**
 * The imported series bench/frames.ts measures beside the demo pullback (issue 27): the real
 * echo loop dicomweb-client ships (RLE, palette colour, 600x430), and the same frames made by
 * dcmtk into a JPEG baseline series, a JPEG-LS series and an uncompressed one. Also what each one's
 * frames weigh in the file (the console's compressed frames), and how they are imported through
 * the API (other ultrasound, confirmed, as its uploader would).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { readDicomUpload } from '../src/server/dicom/dicom-file.ts';

export interface FrameSource {
  readonly label: string;
  readonly file: string;
}

const ECHO = path.join(path.dirname(createRequire(import.meta.url).resolve('dicomweb-client/package.json')), 'testData', 'US-PAL-8-10x-echo.dcm');

/** Writes the series into `dir` (dcmtk's command-line tools); answers them in the order printed. */
export function makeFrameSources(dir: string): FrameSource[] {
  fs.mkdirSync(dir, { recursive: true });
  const at = (name: string) => path.join(dir, name);
  const run = (tool: string, ...args: string[]) => execFileSync(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // dcmtk compresses only from uncompressed files: the RLE loop is decompressed first.
  run('dcmdrle', ECHO, at('echo-uncompressed.dcm'));
  run('dcmcjpeg', '+eb', at('echo-uncompressed.dcm'), at('echo-jpeg-baseline.dcm'));
  run('dcmcjpls', at('echo-uncompressed.dcm'), at('echo-jpeg-ls.dcm'));
  // Series of their own (new study, series and instance UIDs): the import keeps one record per series.
  for (const name of ['echo-uncompressed.dcm', 'echo-jpeg-baseline.dcm', 'echo-jpeg-ls.dcm']) run('dcmodify', '-nb', '-gst', '-gse', '-gin', at(name));
  return [
    { label: 'echo, RLE palette (real file)', file: ECHO },
    { label: 'echo, JPEG baseline (dcmcjpeg)', file: at('echo-jpeg-baseline.dcm') },
    { label: 'echo, JPEG-LS (dcmcjpls)', file: at('echo-jpeg-ls.dcm') },
    { label: 'echo, uncompressed (dcmdrle)', file: at('echo-uncompressed.dcm') },
  ];
}

/** The bytes of a file's frames as it holds them: what a console sends for them. */
export async function compressedFrameBytes(file: string): Promise<{ frames: number; bytes: number }> {
  const info = await readDicomUpload(file, path.basename(file));
  const bytes = info.frames.reduce((sum, location) => sum + location.reduce((s, [, length]) => s + length, 0), 0);
  return { frames: info.frameCount, bytes };
}

/** Imports one file through the API (for a patient of its own, confirming other ultrasound: the echo file has no Patient ID) and waits for its record. */
export async function importSource(app: FastifyInstance, headers: Record<string, string>, source: FrameSource): Promise<string> {
  const boundary = `----bench-${Math.random().toString(16).slice(2)}`;
  const fields = { confirmOtherUltrasound: 'true', patientId: `BENCH-${Math.random().toString(16).slice(2, 8)}`, patientName: 'Bench^Frames' };
  const body = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${path.basename(source.file)}"\r\nContent-Type: application/dicom\r\n\r\n`),
    fs.readFileSync(source.file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const accepted = await app.inject({ method: 'POST', url: '/api/demo/imports', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
  if (accepted.statusCode !== 202) throw new Error(`${source.label}: import answered ${accepted.statusCode} ${accepted.body}`);
  const importId = (accepted.json() as { imports: { importId: string }[] }).imports[0]!.importId;
  for (;;) {
    const summary = (await app.inject({ url: `/api/demo/imports/${importId}`, headers })).json() as { status: string; recordId: string | null; error: unknown };
    if (summary.status === 'done') return summary.recordId!;
    if (summary.status !== 'processing') throw new Error(`${source.label}: import ${summary.status} ${JSON.stringify(summary.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

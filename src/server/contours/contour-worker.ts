/**
 * Worker thread body for contour-worker-pool.ts: unpacks a gzip frame chunk and detects the lumen
 * border on each of its frames, continuing from the previous chunk's last border when given.
 */
import { gunzipSync } from 'node:zlib';
import { parentPort } from 'node:worker_threads';
import { detectChunk, type ContourJob, type ContourJobResult } from './detect-chunk.ts';

parentPort?.on('message', (job: ContourJob) => {
  try {
    const result = detectChunk(job, gunzipSync(job.gz));
    const transfer = result.lastRadiiPx ? [result.lastRadiiPx.buffer as ArrayBuffer] : [];
    parentPort?.postMessage({ id: job.id, ...result } satisfies ContourJobResult, transfer);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies ContourJobResult);
  }
});

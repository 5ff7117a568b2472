/**
 * Worker thread body for contour-worker-pool.ts: unpacks a gzip frame chunk (or takes raw frames) and detects the lumen
 * and vessel borders on each of its frames, continuing from the previous chunk's last frame when given, and/or reads their stent struts.
 */
import { parentPort } from 'node:worker_threads';
import { gunzipChunk } from './chunk-gunzip.ts';
import { carryTransfer, detectChunk, jobFrames, stentTransfer, type ContourJob, type ContourJobResult } from './detect-chunk.ts';

parentPort?.on('message', (job: ContourJob) => {
  try {
    const result = detectChunk(job, jobFrames(job, gunzipChunk));
    // The carry's arrays are the worker's own copies (carryOf), the wall bins new each frame: moving them loses nothing here.
    parentPort?.postMessage({ id: job.id, ...result } satisfies ContourJobResult, [...carryTransfer(result.carry), ...stentTransfer(result.stent)]);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies ContourJobResult);
  }
});

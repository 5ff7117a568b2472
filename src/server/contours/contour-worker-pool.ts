/**
 * Worker threads for lumen detection, so a record's contours are computed without blocking the
 * event loop. Jobs queue when every worker is busy; any worker takes any job (the continuity state
 * travels with the job).
 */
import { createWorkerPool } from '../workers/worker-pool.ts';
import type { ContourJob, ContourJobResult } from './detect-chunk.ts';
import type { SequenceDetection } from '../../domain/contours/detect-sequence.ts';

export interface ContourWorkerPool {
  readonly size: number;
  detect(job: Omit<ContourJob, 'id'>): Promise<SequenceDetection>;
  close(): Promise<void>;
}

export function createContourWorkerPool(size: number): ContourWorkerPool {
  const pool = createWorkerPool<Omit<ContourJob, 'id'>, ContourJobResult, SequenceDetection>({
    url: new URL('./contour-worker.ts', import.meta.url),
    size,
    name: 'contour worker pool',
    toMessage(job, id) {
      // Copies are sent (and moved, not cloned): the caller's chunk may be a buffer others still read.
      const gz = new Uint8Array(job.gz);
      const previousRadiiPx = job.previousRadiiPx ? new Float32Array(job.previousRadiiPx) : null;
      const transfer = previousRadiiPx ? [gz.buffer, previousRadiiPx.buffer] : [gz.buffer];
      return { message: { ...job, id, gz, previousRadiiPx } satisfies ContourJob, transfer };
    },
    fromMessage: (result) => ('error' in result ? new Error(result.error) : { detections: result.detections, lastRadiiPx: result.lastRadiiPx }),
  });
  return { size, detect: (job) => pool.run(job), close: () => pool.close() };
}

/**
 * Worker threads for border detection, so a record's contours are computed without blocking the
 * event loop. Jobs queue when every worker is busy; any worker takes any job (the continuity state
 * travels with the job).
 */
import type { BorderCarry } from '../../domain/contours/detect-sequence.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { carryTransfer, type ChunkDetection, type ContourJob, type ContourJobResult } from './detect-chunk.ts';

export interface ContourWorkerPool {
  readonly size: number;
  detect(job: Omit<ContourJob, 'id'>): Promise<ChunkDetection>;
  close(): Promise<void>;
}

/** A copy of a carry whose buffers are its own, so they can be moved to the worker. */
function ownCarry(carry: BorderCarry | null): BorderCarry | null {
  if (!carry) return null;
  return {
    ...carry,
    lumenRadiiPx: new Float32Array(carry.lumenRadiiPx),
    vesselRadiiPx: new Float32Array(carry.vesselRadiiPx),
    frame: new Uint8Array(carry.frame),
  };
}

export function createContourWorkerPool(size: number): ContourWorkerPool {
  const pool = createWorkerPool<Omit<ContourJob, 'id'>, ContourJobResult, ChunkDetection>({
    url: new URL('./contour-worker.ts', import.meta.url),
    size,
    name: 'contour worker pool',
    toMessage(job, id) {
      // Copies are sent (and moved, not cloned): the caller's chunk may be a buffer others still read.
      const frames = job.raw ? { raw: new Uint8Array(job.raw) } : job.gz ? { gz: new Uint8Array(job.gz) } : {};
      const carry = ownCarry(job.carry);
      const moved = (frames.raw ?? frames.gz)?.buffer;
      return { message: { ...job, id, ...frames, carry } satisfies ContourJob, transfer: [...(moved ? [moved] : []), ...carryTransfer(carry)] };
    },
    fromMessage: (result) => ('error' in result ? new Error(result.error) : { detections: result.detections, carry: result.carry, stent: result.stent }),
  });
  return { size, detect: (job) => pool.run(job), close: () => pool.close() };
}

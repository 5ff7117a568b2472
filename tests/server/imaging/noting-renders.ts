import type { FrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';

/**
 * The pool, noting each render in the order the generation queue starts it: what priority decides.
 * (The order of the stores is not: a chunk's gzip runs on the thread pool while the worker already
 * renders the next chunk, so on a loaded machine two stores can land either way round.)
 */
export function notingRenders(pool: FrameWorkerPool): { renders: string[]; pool: FrameWorkerPool } {
  const renders: string[] = [];
  return {
    renders,
    pool: {
      size: pool.size,
      close: () => pool.close(),
      generate: (options, start, end, angio) => {
        renders.push(`${angio ? 'angio' : 'bmode'} ${start / 16}`);
        return pool.generate(options, start, end, angio);
      },
      make: (options, frames, rendered) => {
        renders.push(`${frames.angio ? 'angio' : 'bmode'} ${frames.start / 16}`);
        return pool.make(options, frames, rendered);
      },
    },
  };
}

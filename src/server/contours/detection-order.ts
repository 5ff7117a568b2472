/**
 * The order in which a record's chunks are detected (issue 23, a first open's MLA within 20 s).
 *
 * Each frame continues from the previous frame's borders, so a record is cut into short runs of
 * chunks, each detected in frame order (a run that starts mid-record warms up on the frames before
 * it). Which run goes next is free: the runs are taken coarse to fine, the first chunk of every run
 * across the whole pullback first, then every run's second chunk, and so on. After the first pass
 * the whole pullback is sampled evenly (one chunk in every run), so a provisional plot and MLA can
 * be shown; each run still sees its chunks in frame order with the same warm-up, so when every
 * pass is done each frame's borders are exactly those of detecting the runs one after another.
 * Pure: no I/O, no timers.
 */
import type { GenerationPriority } from '../imaging/generation-queue.ts';

/** Chunks first..end-1 of a record, detected in order. */
export interface DetectionRun {
  readonly first: number;
  readonly end: number;
}

/** The record's chunks cut into runs of `runChunks` (the last one shorter). */
export function detectionRuns(chunks: number, runChunks: number): DetectionRun[] {
  if (!Number.isInteger(runChunks) || runChunks < 1) throw new RangeError(`a run holds at least one chunk, not ${runChunks}`);
  const runs: DetectionRun[] = [];
  for (let first = 0; first < chunks; first += runChunks) runs.push({ first, end: Math.min(chunks, first + runChunks) });
  return runs;
}

/** One unit of work: chunk `chunk` of run `run` (index into the runs); `warmUp` when the run starts mid-record and this is its first chunk. */
export interface DetectionTask {
  readonly run: number;
  readonly chunk: number;
  readonly warmUp: boolean;
}

/**
 * Hands out the chunks of the runs coarse to fine to any number of lanes: a lane takes the free
 * run (not being detected by another lane) whose next chunk is earliest in its run, the run nearest
 * the record's start among equals. A run is never given to two lanes at once: its chunks need the
 * previous chunk's borders.
 */
export class CoarseToFineSchedule {
  private readonly runs: readonly DetectionRun[];
  /** Chunks of each run handed out so far. */
  private readonly taken: number[];
  /** Chunks of each run done so far. */
  private readonly finished: number[];
  private readonly busy: boolean[];

  constructor(runs: readonly DetectionRun[]) {
    this.runs = runs;
    this.taken = runs.map(() => 0);
    this.finished = runs.map(() => 0);
    this.busy = runs.map(() => false);
  }

  /** The next task, or null when every run with chunks left is being detected by another lane (or all are done). */
  take(): DetectionTask | null {
    let best = -1;
    for (let run = 0; run < this.runs.length; run++) {
      if (this.busy[run] || this.taken[run]! >= this.length(run)) continue;
      if (best < 0 || this.taken[run]! < this.taken[best]!) best = run;
    }
    if (best < 0) return null;
    const offset = this.taken[best]!++;
    this.busy[best] = true;
    const { first } = this.runs[best]!;
    return { run: best, chunk: first + offset, warmUp: offset === 0 && first > 0 };
  }

  /** The task's chunk is detected: its run may go on (with the carry its lane keeps). */
  complete(task: DetectionTask): void {
    if (!this.busy[task.run]) throw new Error(`run ${task.run} has no chunk under way`);
    this.busy[task.run] = false;
    this.finished[task.run]!++;
  }

  /** Passes complete: p when every run has p of its chunks done (or all of them, if it is shorter). */
  completedPasses(): number {
    let passes = Infinity;
    for (let run = 0; run < this.runs.length; run++) {
      if (this.finished[run]! < this.length(run)) passes = Math.min(passes, this.finished[run]!);
    }
    return passes === Infinity ? Math.max(0, ...this.runs.map((_, run) => this.length(run))) : passes;
  }

  /** Every chunk of every run is done. */
  done(): boolean {
    return this.runs.every((_, run) => this.finished[run]! >= this.length(run));
  }

  private length(run: number): number {
    const { first, end } = this.runs[run]!;
    return end - first;
  }
}

/** The task is its run's first chunk: part of the first pass, which the provisional contours wait for. */
export function inFirstPass(task: DetectionTask, runs: readonly DetectionRun[]): boolean {
  const run = runs[task.run];
  if (!run) throw new RangeError(`no run ${task.run}`);
  return task.chunk === run.first;
}

/**
 * The generation priority of the frames a task needs. A detection someone asked for gets its
 * first pass's frames ahead of the page's own download of the whole pullback ('provisional',
 * below only the chunk the page shows first): that pass samples the pullback for the provisional
 * MLA (issue 23), and queued behind 3,600 frames' download it waited minutes. Its later passes go
 * beside the page's requests ('demand'); an idle detection (borders made at ingest) never goes
 * before a page ('background').
 */
export function detectionPriority(task: DetectionTask, runs: readonly DetectionRun[], idle: boolean): GenerationPriority {
  if (idle) return 'background';
  return inFirstPass(task, runs) ? 'provisional' : 'demand';
}

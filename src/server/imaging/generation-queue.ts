/**
 * The order in which demo imaging is generated. The frame workers are few (one on a 2-core
 * machine) and a chunk takes about 0.2 s, so what the page waits for must not queue behind the
 * background generation of a whole pullback: tasks run highest priority first, and a task joined
 * by a more urgent request is raised to its priority.
 */

/**
 * urgent: the chunk the page shows first; provisional: the chunks the first pass of a detection
 * someone waits for needs (one in four along the pullback, for the provisional MLA: issue 23),
 * which would otherwise queue behind the page's download of every frame; demand: other page
 * requests; background: a record's whole pullback; idle: records nobody opened yet.
 */
export const GENERATION_PRIORITIES = ['urgent', 'provisional', 'demand', 'background', 'idle'] as const;
export type GenerationPriority = (typeof GENERATION_PRIORITIES)[number];

const rankOf = (priority: GenerationPriority) => GENERATION_PRIORITIES.indexOf(priority);

export class GenerationQueueClosedError extends Error {}

export interface QueuedTask<T> {
  readonly result: Promise<T>;
  /** Raises the task's priority while it still waits (a lower one changes nothing); forPlay marks it as one Play waits for. */
  raise(priority: GenerationPriority, options?: RunOptions): void;
}

/**
 * forPlay: a chunk Play waits for on a first open (first-open-chunks.ts). While any such task
 * waits or runs, tasks at 'demand' or below that Play does not wait for (the page's requests for
 * the chunks after Play's, a record's background generation) do not start, even with a lane free:
 * beside the last of Play's chunks they took the CPU it needs (2 cores shared with the page's
 * decodes and WebGL start), so Play came later by part of a chunk (issue 27). The urgent chunk
 * of a slice the clinician jumps to and a detection's first pass still go first.
 */
export interface RunOptions {
  readonly forPlay?: boolean;
}

interface Waiting {
  rank: number;
  readonly seq: number;
  forPlay: boolean;
  readonly start: () => void;
  readonly reject: (error: Error) => void;
}

export interface GenerationQueueOptions {
  /** Tasks running at once: the number of frame workers (1 without a pool). */
  lanes: number;
  /**
   * Idle tasks start only after this long without other work: between two chunks of a page's
   * download or of a record's background generation there is a short gap, which an idle chunk
   * would otherwise fill and so delay the next one by a whole chunk.
   */
  idleQuietMs: number;
}

export class GenerationQueue {
  private readonly options: GenerationQueueOptions;
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private runningBusy = 0;
  private runningForPlay = 0;
  private lastBusyAt = -Infinity;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;
  private closed = false;

  constructor(options: GenerationQueueOptions) {
    this.options = options;
  }

  run<T>(priority: GenerationPriority, work: () => Promise<T>, options: RunOptions = {}): QueuedTask<T> {
    if (this.closed) return { result: Promise.reject(new GenerationQueueClosedError('imaging generation has stopped')), raise: () => {} };
    let entry!: Waiting;
    const result = new Promise<T>((resolve, reject) => {
      entry = {
        rank: rankOf(priority),
        seq: this.seq++,
        forPlay: options.forPlay === true,
        reject,
        start: () => {
          const busy = entry.rank < rankOf('idle');
          this.running++;
          if (busy) this.runningBusy++;
          if (entry.forPlay) this.runningForPlay++;
          work()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              if (entry.forPlay) this.runningForPlay--;
              if (busy) {
                this.runningBusy--;
                this.lastBusyAt = performance.now();
              }
              this.dispatch();
            });
        },
      };
    });
    this.waiting.push(entry);
    if (entry.rank < rankOf('idle')) this.lastBusyAt = performance.now();
    this.dispatch();
    return {
      result,
      raise: (raised, options = {}) => {
        if (!this.waiting.includes(entry)) return;
        const forPlay = options.forPlay === true && !entry.forPlay;
        if (!forPlay && rankOf(raised) >= entry.rank) return;
        entry.forPlay ||= forPlay;
        entry.rank = Math.min(entry.rank, rankOf(raised));
        this.lastBusyAt = performance.now();
        this.dispatch();
      },
    };
  }

  /**
   * How long no work but idle work has run or waited here (0 while some does): background work
   * outside this queue (idle border detection) waits for a quiet spell as idle generation does.
   */
  quietForMs(): number {
    if (this.runningBusy > 0 || this.waiting.some((entry) => entry.rank < rankOf('idle'))) return 0;
    return Math.max(0, performance.now() - this.lastBusyAt);
  }

  /** Rejects every waiting task (running ones finish); later tasks are refused. */
  close(): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const entry of this.waiting.splice(0)) entry.reject(new GenerationQueueClosedError('imaging generation has stopped'));
  }

  private dispatch(): void {
    while (!this.closed && this.running < this.options.lanes) {
      const next = this.next();
      if (!next) return;
      if (next.rank === rankOf('idle') && !this.quiet()) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.start();
    }
  }

  private next(): Waiting | undefined {
    const holding = this.runningForPlay > 0 || this.waiting.some((entry) => entry.forPlay);
    let best: Waiting | undefined;
    for (const entry of this.waiting) {
      if (holding && !entry.forPlay && entry.rank >= rankOf('demand')) continue;
      if (!best || entry.rank < best.rank || (entry.rank === best.rank && entry.seq < best.seq)) best = entry;
    }
    return best;
  }

  /** No other work running and none for idleQuietMs; otherwise looks again when that time is up. */
  private quiet(): boolean {
    if (this.runningBusy > 0) return false;
    const wait = this.lastBusyAt + this.options.idleQuietMs - performance.now();
    if (wait <= 0) return true;
    if (!this.idleTimer) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        this.dispatch();
      }, wait);
      this.idleTimer.unref?.();
    }
    return false;
  }
}

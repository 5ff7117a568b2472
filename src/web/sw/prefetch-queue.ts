/**
 * The service worker's background download of a record's frames, kept free of worker APIs so
 * it can be tested on its own. One record at a time: a new request replaces the old queue.
 */
export interface PrefetchProgress {
  done: number;
  total: number;
  /** URLs that could not be fetched (the page shows which frames are missing). */
  failed: string[];
  paused: boolean;
}

export interface PrefetchDeps {
  isCached(url: string): Promise<boolean>;
  /** Fetches and stores one URL; rejects when it could not. */
  download(url: string): Promise<void>;
  onProgress(progress: PrefetchProgress): void;
  concurrency?: number;
}

export class PrefetchQueue {
  private readonly deps: PrefetchDeps;
  private pending: string[] = [];
  private generation = 0;
  private running = 0;
  private paused = false;
  private progress: PrefetchProgress = { done: 0, total: 0, failed: [], paused: false };

  constructor(deps: PrefetchDeps) {
    this.deps = deps;
  }

  /** Starts fetching `urls` (skipping what is cached), dropping whatever was queued before. */
  start(urls: readonly string[]): void {
    this.generation++;
    this.pending = [...urls];
    this.progress = { done: 0, total: urls.length, failed: [], paused: this.paused };
    this.report();
    this.pump();
  }

  /** The page needs the bandwidth: downloads under way finish, no new one starts. */
  stop(): void {
    this.paused = true;
    this.report();
  }

  resume(): void {
    this.paused = false;
    this.report();
    this.pump();
  }

  get state(): PrefetchProgress {
    return { ...this.progress, failed: [...this.progress.failed], paused: this.paused };
  }

  private report(): void {
    this.deps.onProgress(this.state);
  }

  private pump(): void {
    const limit = this.deps.concurrency ?? 2;
    while (!this.paused && this.running < limit && this.pending.length > 0) {
      const url = this.pending.shift()!;
      void this.fetchOne(url, this.generation);
    }
  }

  private async fetchOne(url: string, generation: number): Promise<void> {
    this.running++;
    let failed = false;
    let deferred = false;
    try {
      const cached = await this.deps.isCached(url);
      // Paused while the cache was asked (the page has just opened a record and needs the
      // bandwidth): the URL goes back to the head of the queue instead of downloading now.
      deferred = !cached && this.paused && generation === this.generation;
      if (deferred) this.pending.unshift(url);
      else if (!cached) await this.deps.download(url);
    } catch {
      failed = true;
    } finally {
      this.running--;
    }
    if (deferred) return;
    // A result for a record the page has left is not reported.
    if (generation === this.generation) {
      this.progress.done++;
      if (failed) this.progress.failed.push(url);
      this.report();
    }
    this.pump();
  }
}

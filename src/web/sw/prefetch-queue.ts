/**
 * The service worker's background download of a record's frames, kept free of worker APIs so
 * it can be tested on its own. One record at a time: a new request replaces the old queue. The
 * chunks nearest the clinician's slice go first, and a slice jump re-orders what is left.
 */
import { orderAround } from './chunk-spans.ts';
import type { PrefetchItem } from './messages.ts';

export interface PrefetchProgress {
  /** The record being downloaded ('' before any). */
  recordId: string;
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
  private recordId = '';
  private pending: PrefetchItem[] = [];
  private generation = 0;
  private running = 0;
  private paused = false;
  private progress: PrefetchProgress = { recordId: '', done: 0, total: 0, failed: [], paused: false };

  constructor(deps: PrefetchDeps) {
    this.deps = deps;
  }

  /** Starts fetching a record's chunks (skipping what is cached) from `slice` outwards, dropping whatever was queued before. */
  start(recordId: string, items: readonly PrefetchItem[], slice: number): void {
    this.generation++;
    this.recordId = recordId;
    this.pending = orderAround(items, slice);
    this.progress = { recordId, done: 0, total: items.length, failed: [], paused: this.paused };
    this.report();
    this.pump();
  }

  /** The clinician is on `slice` now: what is still to come is re-ordered around it. */
  focus(recordId: string, slice: number): void {
    if (recordId === this.recordId) this.pending = orderAround(this.pending, slice);
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
      void this.fetchOne(this.pending.shift()!, this.generation);
    }
  }

  private async fetchOne(item: PrefetchItem, generation: number): Promise<void> {
    const { url } = item;
    this.running++;
    let failed = false;
    let deferred = false;
    try {
      const cached = await this.deps.isCached(url);
      // Paused while the cache was asked (the page has just opened a record and needs the
      // bandwidth): the URL goes back to the head of the queue instead of downloading now.
      deferred = !cached && this.paused && generation === this.generation;
      if (deferred) this.pending.unshift(item);
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

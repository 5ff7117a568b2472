import type { ImageStore } from '../frames/image-store.ts';

/** Runs `callback` once after the next paint; returns a cancel function. */
export type AfterPaint = (callback: () => void) => () => void;

/**
 * The panels draw in their animation-frame callbacks, which run before the browser paints; a
 * message posted from an animation-frame callback is handled after that frame, so its arrival
 * approximates "painted" without touching the panels.
 */
export const afterNextPaint: AfterPaint = (callback) => {
  let channel: MessageChannel | null = null;
  const frame = requestAnimationFrame(() => {
    channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel?.port1.close();
      callback();
    };
    channel.port2.postMessage(null);
  });
  return () => {
    cancelAnimationFrame(frame);
    channel?.port1.close();
  };
};

export interface FrameTimeSamplerOptions {
  now?: () => number;
  afterPaint?: AfterPaint;
  /** How many recent samples the median is taken over. */
  window?: number;
}

export const FRAME_TIME_WINDOW = 60;

/**
 * Measures, from outside the panels, the time from a slice change to the next paint. Slice
 * changes that arrive before that paint (a fast scrub) are shown by it, so they count once,
 * from the first of them: that is the latency the user sees.
 */
export class FrameTimeSampler {
  private readonly now: () => number;
  private readonly afterPaint: AfterPaint;
  private readonly window: number;
  private readonly samples: number[] = [];
  private next = 0;
  private pendingSince: number | null = null;
  private cancelPending: (() => void) | null = null;

  constructor({ now = () => performance.now(), afterPaint = afterNextPaint, window = FRAME_TIME_WINDOW }: FrameTimeSamplerOptions = {}) {
    this.now = now;
    this.afterPaint = afterPaint;
    this.window = window;
  }

  /** Samples the store's slice changes until the returned function is called. */
  connect(store: ImageStore): () => void {
    let slice = store.getSnapshot().slice;
    const unsubscribe = store.subscribe(() => {
      const current = store.getSnapshot().slice;
      // The store also notifies for data, downloads and play counts, which are not slice changes.
      if (current === slice) return;
      slice = current;
      this.sliceChanged();
    });
    return () => {
      unsubscribe();
      this.cancelPending?.();
      this.cancelPending = null;
      this.pendingSince = null;
    };
  }

  sliceChanged(): void {
    if (this.pendingSince !== null) return;
    const since = this.now();
    this.pendingSince = since;
    this.cancelPending = this.afterPaint(() => {
      this.pendingSince = null;
      this.cancelPending = null;
      this.record(this.now() - since);
    });
  }

  private record(ms: number): void {
    // A ring of the last `window` samples: no allocation per frame.
    if (this.samples.length < this.window) this.samples.push(ms);
    else this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.window;
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  median(): number | null {
    return median(this.samples);
  }
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

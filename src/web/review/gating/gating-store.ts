/**
 * The review's image-based gating (issue 28): off until the clinician asks for it; then the record's
 * B-mode frames (once all have arrived) give the inter-frame motion signal, a few dozen frames per
 * task so the page stays responsive, and the end-diastolic frames are found once per record. While
 * on, the strip shows the gated L-mode, the figures are computed on gated frames and the arrow keys
 * step gated frame to gated frame.
 */
import { detectEndDiastole, type GatingResult } from '../../../domain/gating/end-diastole.ts';
import { downsampleFrame, frameDifference, type DownsampledFrame } from '../../../domain/gating/motion-signal.ts';

/** What the gating reads of the image store (the review's `ImageStore` fits as it is). */
export interface GatingFrameSource {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { readonly bmodeLoaded: number };
  size: (series: 'bmode') => { width: number; height: number; count: number } | null;
  frame: (series: 'bmode', index: number) => Uint8Array | null;
}

export type GatingStatus = 'off' | 'waiting-for-frames' | 'computing' | 'done';

export interface GatingSnapshot {
  readonly on: boolean;
  readonly status: GatingStatus;
  readonly done: number;
  readonly total: number;
  /** Kept once computed: turning gating off and on again does not compute it again. */
  readonly result: GatingResult | null;
}

/** Time spent on frames per task before yielding to the page. */
const SLICE_MS = 12;

export class GatingStore {
  private snapshot: GatingSnapshot = { on: false, status: 'off', done: 0, total: 0, result: null };
  private readonly listeners = new Set<() => void>();
  private unsubscribeFrames: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  private readonly frames: GatingFrameSource;
  private readonly frameRateHz: number;

  constructor(frames: GatingFrameSource, frameRateHz: number) {
    this.frames = frames;
    this.frameRateHz = frameRateHz;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): GatingSnapshot => this.snapshot;

  toggle = (): void => this.setOn(!this.snapshot.on);

  setOn(on: boolean): void {
    if (on === this.snapshot.on) return;
    if (!on) {
      this.stop();
      this.update({ on: false, status: this.snapshot.result ? 'done' : 'off' });
      return;
    }
    this.update({ on: true });
    if (this.snapshot.result === null) this.startWhenLoaded();
  }

  dispose(): void {
    this.stop();
    this.listeners.clear();
  }

  private update(change: Partial<GatingSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  private stop(): void {
    this.unsubscribeFrames?.();
    this.unsubscribeFrames = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private startWhenLoaded(): void {
    const size = this.frames.size('bmode');
    const loaded = () => size !== null && this.frames.getSnapshot().bmodeLoaded >= size.count;
    if (size && loaded()) {
      this.compute(size);
      return;
    }
    this.update({ status: 'waiting-for-frames', done: this.frames.getSnapshot().bmodeLoaded, total: size?.count ?? 0 });
    this.unsubscribeFrames = this.frames.subscribe(() => {
      const current = this.frames.size('bmode');
      if (current && this.frames.getSnapshot().bmodeLoaded >= current.count) {
        this.stop();
        this.compute(current);
      }
    });
  }

  private compute(size: { width: number; height: number; count: number }): void {
    const motion = new Float64Array(Math.max(0, size.count - 1));
    let previous: DownsampledFrame | null = null;
    let next = 0;
    this.update({ status: 'computing', done: 0, total: size.count });
    const work = () => {
      this.timer = null;
      const until = performance.now() + SLICE_MS;
      while (next < size.count && performance.now() < until) {
        const pixels = this.frames.frame('bmode', next);
        if (!pixels) {
          this.update({ status: 'done', result: { kind: 'no-cycle', reason: `B-mode frame ${next + 1} is missing` } });
          return;
        }
        const current = downsampleFrame(pixels, size.width, size.height);
        if (previous) motion[next - 1] = frameDifference(previous, current);
        previous = current;
        next++;
      }
      if (next < size.count) {
        this.update({ done: next });
        this.timer = setTimeout(work, 0);
        return;
      }
      this.update({ status: 'done', done: size.count, result: detectEndDiastole(motion, { frameRateHz: this.frameRateHz }) });
    };
    this.timer = setTimeout(work, 0);
  }
}

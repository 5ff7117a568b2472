import { createLmodeSampler, sampleColumn, type LmodeSampler } from './lmode-sampling.ts';

/** The B-mode frames as the page holds them: null while a frame has not arrived. */
export type FrameSource = (frameIndex: number) => Uint8Array | null;

/**
 * The L-mode image built in the page: one column per B-mode frame, filled as frames arrive
 * (columns of missing frames stay black) and rebuilt when the cut angle changes. The bytes live
 * in one buffer reused across angles; `revision` changes whenever they do, so the panel knows to
 * upload its texture again (same buffer, new bytes).
 */
export class LmodeImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
  private readonly frameWidth: number;
  private readonly frameHeight: number;
  private sampler: LmodeSampler;
  /** 1 for a frame whose column holds its samples at the current angle. */
  private readonly filled: Uint8Array;
  private filledCount = 0;
  revision = 0;

  constructor(frameWidth: number, frameHeight: number, frameCount: number, angleRad: number) {
    this.frameWidth = frameWidth;
    this.frameHeight = frameHeight;
    this.sampler = createLmodeSampler(frameWidth, frameHeight, angleRad);
    this.width = frameCount;
    this.height = this.sampler.length;
    this.data = new Uint8Array(this.width * this.height);
    this.filled = new Uint8Array(frameCount);
  }

  get angleRad(): number {
    return this.sampler.angleRad;
  }

  /** Whether every frame's column is in (then new chunks have nothing to add). */
  get complete(): boolean {
    return this.filledCount === this.width;
  }

  /** Samples the frames that arrived since the last call. Returns whether any column changed. */
  fill(frames: FrameSource): boolean {
    if (this.complete) return false;
    let changed = false;
    for (let i = 0; i < this.width; i++) {
      if (this.filled[i]) continue;
      const frame = frames(i);
      if (!frame) continue;
      sampleColumn(this.sampler, frame, this.data, i, this.width);
      this.filled[i] = 1;
      this.filledCount++;
      changed = true;
    }
    if (changed) this.revision++;
    return changed;
  }

  /** A new cut angle: every loaded frame is sampled again at once; the others stay black. */
  setAngle(angleRad: number, frames: FrameSource): void {
    if (angleRad === this.sampler.angleRad) return;
    this.sampler = createLmodeSampler(this.frameWidth, this.frameHeight, angleRad);
    this.filled.fill(0);
    this.filledCount = 0;
    this.data.fill(0);
    this.fill(frames);
    this.revision++;
  }
}

import type { ImageStore } from '../frames/image-store.ts';
import { gatedLmodePixels } from '../../../domain/gating/gated-lmode.ts';
import { degToRad } from './cut-angle.ts';
import { LmodeImage } from './lmode-image.ts';

/**
 * The L-mode of the record in the image store, kept up to date on each draw: a new image for a
 * new record, the columns of frames that arrived since the last draw, or every loaded column
 * again at a new cut angle. Null while the record has no B-mode frames (or no image lists).
 */
export class PageLmode {
  private readonly store: ImageStore;
  private record: ImageStore['images'] = null;
  image: LmodeImage | null = null;
  /** Gating on (issue 28): the end-diastolic frames (0-based) the L-mode panel shows; null shows every frame. */
  private gatedFrames: readonly number[] | null = null;
  private gated: { pixels: Uint8Array; of: LmodeImage; revision: number; frames: readonly number[] } | null = null;
  private gatingRevision = 0;
  private readonly gatingListeners = new Set<() => void>();

  constructor(store: ImageStore) {
    this.store = store;
  }

  /** The pullback analysis sets it as the clinician turns gating on or off; the panel redraws. */
  setGatedFrames(frames: readonly number[] | null): void {
    if (frames === this.gatedFrames) return;
    this.gatedFrames = frames;
    this.gatingRevision++;
    for (const listener of this.gatingListeners) listener();
  }

  /** The end-diastolic frames the panel shows while gated; null shows every frame (a stable value between changes). */
  readonly gatedFramesShown = (): readonly number[] | null => this.gatedFrames;

  subscribeGating = (listener: () => void): (() => void) => {
    this.gatingListeners.add(listener);
    return () => this.gatingListeners.delete(listener);
  };

  /**
   * The image the L-mode panel shows: the L-mode itself, or while gated its gated copy, made again
   * only when the L-mode's columns or the gated frames change. Its revision counts both, so the
   * panel uploads the texture again on either.
   */
  shown(): { width: number; height: number; data: Uint8Array; revision: number } | null {
    const image = this.image;
    if (!image) return null;
    const frames = this.gatedFrames;
    const revision = image.revision * 1024 + (this.gatingRevision % 1024);
    if (!frames || frames.length === 0) return { width: image.width, height: image.height, data: image.data, revision };
    const cached = this.gated;
    if (cached && cached.of === image && cached.revision === image.revision && cached.frames === frames) return { width: image.width, height: image.height, data: cached.pixels, revision };
    const pixels = gatedLmodePixels(image.data, image.width, image.height, frames, cached?.of === image ? cached.pixels : undefined);
    this.gated = { pixels, of: image, revision: image.revision, frames };
    return { width: image.width, height: image.height, data: pixels, revision };
  }

  /** Returns whether the angle changed (a full recompute). */
  refresh(angleDeg: number): boolean {
    const size = this.store.size('bmode');
    // The record's image lists: a new object for each record the store is given.
    const record = this.store.images;
    if (!size || size.count === 0 || !record) {
      this.image = null;
      return false;
    }
    const angleRad = degToRad(angleDeg);
    const frames = (i: number) => this.store.frame('bmode', i);
    if (!this.image || this.record !== record) {
      this.image = new LmodeImage(size.width, size.height, size.count, angleRad);
      this.record = record;
      this.image.fill(frames);
      return false;
    }
    if (this.image.angleRad !== angleRad) {
      this.image.setAngle(angleRad, frames);
      return true;
    }
    this.image.fill(frames);
    return false;
  }

  clear(): void {
    this.image = null;
    this.record = null;
  }
}

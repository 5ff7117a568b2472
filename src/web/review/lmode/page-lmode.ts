import type { ImageStore } from '../frames/image-store.ts';
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

  constructor(store: ImageStore) {
    this.store = store;
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

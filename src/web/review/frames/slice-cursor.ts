import type { RecordImages } from '../../../domain/images.ts';
import type { ImageStore, ImageStoreSnapshot } from './image-store.ts';

/**
 * The one writer of the review's slice. The image store keeps the slice beside the frames (a
 * reset or a new record puts it back to 1), but every move the clinician or playback makes goes
 * through this cursor: keys, the L-mode click and drag, the wheel, the pullback plot, the slices
 * to check and each playback tick. One writer means scrubbing, the L-mode cursor and playback can
 * never disagree about where the review is, and one place clamps and counts.
 *
 * It reads like the store (snapshot, subscribe, image lists), so that whatever shows the slice
 * and moves it takes the cursor alone.
 */
export class SliceCursor {
  private readonly store: ImageStore;

  constructor(store: ImageStore) {
    this.store = store;
  }

  getSnapshot = (): ImageStoreSnapshot => this.store.getSnapshot();

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /** The record's image lists, once known (frame rate and pullback speed for positions and speeds). */
  get images(): RecordImages | null {
    return this.store.images;
  }

  /** Shows a 1-based slice, clamped to the record (rounded, as a drag lands between slices). */
  setSlice = (slice: number): void => {
    this.store.setSlice(slice);
  };

  /** Moves by `steps` slices (the wheel, the arrow keys), stopping at either end. */
  step = (steps: number): void => {
    if (steps) this.store.setSlice(this.store.getSnapshot().slice + steps);
  };

  /** A playback tick: shows the slice playback chose and counts the tick (the developer overlay's play counter). */
  playTo = (slice: number): void => {
    this.store.playTo(slice);
  };
}

/** What a view that shows the slice and moves it needs of the cursor. */
export type SliceMover = Pick<SliceCursor, 'getSnapshot' | 'subscribe' | 'setSlice'>;

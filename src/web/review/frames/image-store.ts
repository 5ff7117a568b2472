import { angioFrameForSlice } from '../../../domain/frame-sync.ts';
import { chunkFrames, type ImageSeriesName, type RecordImages } from '../../../domain/images.ts';

/**
 * The review's image store (spec section 3): the remote image lists, the frames as they
 * arrive, the current slice, the downloading flag and the play counter.
 * Every frame is kept once, as the raw 8-bit bytes of its chunk; panels read views into
 * those bytes (no copies, no RGBA bitmaps). Slices are 1-based, as the spec counts them.
 */
export interface ImageStoreSnapshot {
  readonly slice: number;
  /** The larger of the B-mode and angio counts (spec: playback wraps after it). */
  readonly sliceCount: number;
  readonly bmodeLoaded: number;
  readonly angioLoaded: number;
  /** Frames in each series of the record (0 until its lists are known, and for a series it lacks). */
  readonly bmodeCount: number;
  readonly angioCount: number;
  readonly downloading: boolean;
  readonly playCounter: number;
  /** Changes whenever frame data arrives, so panels know to redraw. */
  readonly dataVersion: number;
}

type SeriesData = {
  width: number;
  height: number;
  count: number;
  framesPerChunk: number;
  chunks: (Uint8Array | null)[];
  /** Frames that arrived before the rest of their chunk (the one the review showed first), by frame index; dropped when the chunk comes. */
  early: Map<number, Uint8Array>;
};

const EMPTY: ImageStoreSnapshot = {
  slice: 1,
  sliceCount: 0,
  bmodeLoaded: 0,
  angioLoaded: 0,
  bmodeCount: 0,
  angioCount: 0,
  downloading: false,
  playCounter: 0,
  dataVersion: 0,
};

export class ImageStore {
  private snapshot: ImageStoreSnapshot = EMPTY;
  private readonly listeners = new Set<() => void>();
  private series: Record<ImageSeriesName, SeriesData> | null = null;
  /** The remote lists, as the server gave them. */
  images: RecordImages | null = null;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ImageStoreSnapshot => this.snapshot;

  private update(change: Partial<ImageStoreSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  setImages(images: RecordImages): void {
    this.images = images;
    const empty = (s: RecordImages['bmode']): SeriesData => ({
      width: s.width,
      height: s.height,
      count: s.count,
      framesPerChunk: s.framesPerChunk,
      chunks: s.chunks.map(() => null),
      early: new Map(),
    });
    this.series = { bmode: empty(images.bmode), angio: empty(images.angio) };
    this.update({
      ...EMPTY,
      sliceCount: Math.max(images.bmode.count, images.angio.count),
      bmodeCount: images.bmode.count,
      angioCount: images.angio.count,
      dataVersion: this.snapshot.dataVersion + 1,
    });
  }

  /**
   * noImage=true: the B-mode frames' size and count without their bytes, so that slices,
   * annotations and the layout work over black panels. Image lists, when they come, replace it.
   */
  setGeometry(bmode: { width: number; height: number; count: number }): void {
    if (this.images) return;
    const none = { framesPerChunk: 1, chunks: [], early: new Map<number, Uint8Array>() };
    this.series = { bmode: { ...bmode, ...none }, angio: { width: 1, height: 1, count: 0, ...none } };
    this.update({ ...EMPTY, sliceCount: bmode.count, bmodeCount: bmode.count, dataVersion: this.snapshot.dataVersion + 1 });
  }

  /** Stores a chunk's raw bytes (frames first..first+count of the series). */
  addChunk(seriesName: ImageSeriesName, index: number, bytes: Uint8Array): void {
    const series = this.series?.[seriesName];
    if (!series || index < 0 || index >= series.chunks.length || series.chunks[index]) return;
    const { count } = chunkFrames(index, series.count, series.framesPerChunk);
    if (bytes.length !== count * series.width * series.height) throw new RangeError(`chunk ${index} of ${seriesName} has ${bytes.length} bytes`);
    series.chunks[index] = bytes;
    let arrived = count;
    for (let frame = index * series.framesPerChunk; frame < index * series.framesPerChunk + count; frame++) {
      if (series.early.delete(frame)) arrived--;
    }
    const key = seriesName === 'bmode' ? 'bmodeLoaded' : 'angioLoaded';
    this.update({ [key]: this.snapshot[key] + arrived, dataVersion: this.snapshot.dataVersion + 1 });
  }

  /** Stores one frame's raw bytes ahead of its chunk (0-based `frameIndex`), so that it shows before the rest of the chunk is decoded. */
  addFrame(seriesName: ImageSeriesName, frameIndex: number, bytes: Uint8Array): void {
    const series = this.series?.[seriesName];
    if (!series || frameIndex < 0 || frameIndex >= series.count || this.frame(seriesName, frameIndex)) return;
    if (bytes.length !== series.width * series.height) throw new RangeError(`frame ${frameIndex} of ${seriesName} has ${bytes.length} bytes`);
    series.early.set(frameIndex, bytes);
    const key = seriesName === 'bmode' ? 'bmodeLoaded' : 'angioLoaded';
    this.update({ [key]: this.snapshot[key] + 1, dataVersion: this.snapshot.dataVersion + 1 });
  }

  /** A view of frame `frameIndex` (0-based) of a series, or null while it has not arrived. */
  frame(seriesName: ImageSeriesName, frameIndex: number): Uint8Array | null {
    const series = this.series?.[seriesName];
    if (!series || frameIndex < 0 || frameIndex >= series.count) return null;
    const chunk = series.chunks[Math.floor(frameIndex / series.framesPerChunk)];
    if (!chunk) return series.early.get(frameIndex) ?? null;
    const frameBytes = series.width * series.height;
    const offset = (frameIndex % series.framesPerChunk) * frameBytes;
    return chunk.subarray(offset, offset + frameBytes);
  }

  /** Whether the frame a chunk holds has arrived (the L-mode panel shows how far loading has got). */
  hasFrame(seriesName: ImageSeriesName, frameIndex: number): boolean {
    return this.frame(seriesName, frameIndex) !== null;
  }

  size(seriesName: ImageSeriesName): { width: number; height: number; count: number } | null {
    const series = this.series?.[seriesName];
    return series ? { width: series.width, height: series.height, count: series.count } : null;
  }

  /**
   * The 0-based frame of a series shown at a 1-based slice (-1: the series has none): the B-mode's
   * (the last one past the end of a shorter series); angio images are keyed by slice, the angio
   * frame acquired with that B-mode slice.
   */
  frameIndexAt(seriesName: ImageSeriesName, slice: number): number {
    const bmode = this.series?.bmode.count ?? 0;
    const angio = this.series?.angio.count ?? 0;
    if (seriesName === 'bmode') return bmode ? Math.min(bmode, slice) - 1 : -1;
    if (!angio) return -1;
    return bmode ? angioFrameForSlice(slice - 1, bmode, angio) : Math.min(angio, slice) - 1;
  }

  /** The B-mode frame shown at a 1-based slice (the last one past the end of a shorter series). */
  bmodeFrameAt(slice: number): Uint8Array | null {
    const index = this.frameIndexAt('bmode', slice);
    return index < 0 ? null : this.frame('bmode', index);
  }

  /** Angio images are keyed by slice: the angio frame acquired with that B-mode slice. */
  angioFrameAt(slice: number): Uint8Array | null {
    const index = this.frameIndexAt('angio', slice);
    return index < 0 ? null : this.frame('angio', index);
  }

  /** A 1-based slice of the record: rounded (a drag lands between slices) and clamped to it. */
  private clampedSlice(slice: number): number {
    const { sliceCount } = this.snapshot;
    return sliceCount ? Math.min(sliceCount, Math.max(1, Math.round(slice))) : 1;
  }

  setSlice(slice: number): void {
    const clamped = this.clampedSlice(slice);
    if (clamped !== this.snapshot.slice) this.update({ slice: clamped });
  }

  setDownloading(downloading: boolean): void {
    if (downloading !== this.snapshot.downloading) this.update({ downloading });
  }

  countPlayTick(): void {
    this.update({ playCounter: this.snapshot.playCounter + 1 });
  }

  /**
   * A playback tick: the slice (clamped as setSlice does) and the play counter in one change, so
   * that every listener (the panels, the cursors, the selectors of the components that follow
   * the slice) runs once per tick, not twice: a hundred ticks a second while playing (issue 27).
   */
  playTo(slice: number): void {
    this.update({ slice: this.clampedSlice(slice), playCounter: this.snapshot.playCounter + 1 });
  }

  /** Spec: slice becomes 1, all images are cleared (their memory freed with them), playback stops (the caller's machine). */
  reset(): void {
    this.series = null;
    this.images = null;
    this.update({ ...EMPTY, dataVersion: this.snapshot.dataVersion + 1 });
  }
}

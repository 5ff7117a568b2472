/**
 * Which slices each frame chunk of a record serves, so that downloads (the page's and the service
 * worker's) go outwards from the slice the clinician is on, whichever series the chunk belongs to.
 */
import { angioFrameForSlice } from '../../domain/frame-sync.ts';
import type { ImageSeriesName, RecordImages } from '../../domain/images.ts';

/** A chunk and the 1-based slices first..last whose images it holds. */
export interface ChunkSpan {
  readonly series: ImageSeriesName;
  readonly index: number;
  readonly first: number;
  readonly last: number;
}

/** Every chunk of a record: the B-mode ones, then the angio ones (the order ties are kept in). */
export function chunkSpans(images: RecordImages): ChunkSpan[] {
  const { bmode, angio } = images;
  const spans: ChunkSpan[] = bmode.chunks.map((_, index) => ({
    series: 'bmode',
    index,
    first: index * bmode.framesPerChunk + 1,
    last: Math.min(bmode.count, (index + 1) * bmode.framesPerChunk),
  }));
  // Angio frames follow the slices through the heart cycle (image-store.ts angioFrameAt): walk the slices once.
  const angioSpans = angio.chunks.map((_, index) => ({ first: Infinity, last: -Infinity, index }));
  const sliceCount = Math.max(bmode.count, angio.count);
  for (let slice = 1; slice <= sliceCount && angio.count > 0; slice++) {
    const frame = bmode.count ? angioFrameForSlice(slice - 1, bmode.count, angio.count) : Math.min(angio.count, slice) - 1;
    const span = angioSpans[Math.floor(frame / angio.framesPerChunk)];
    if (!span) continue;
    span.first = Math.min(span.first, slice);
    span.last = Math.max(span.last, slice);
  }
  for (const span of angioSpans) {
    // A chunk no slice shows (a run much longer than its pullback) comes last.
    const first = Number.isFinite(span.first) ? span.first : sliceCount;
    spans.push({ series: 'angio', index: span.index, first, last: Math.max(first, span.last) });
  }
  return spans;
}

/** How many slices away from `slice` a span is (0 when it holds it). */
export function sliceDistance(span: { first: number; last: number }, slice: number): number {
  return slice < span.first ? span.first - slice : slice > span.last ? slice - span.last : 0;
}

/** The spans nearest `slice` first; equally near ones keep their order. */
export function orderAround<T extends { first: number; last: number }>(spans: readonly T[], slice: number): T[] {
  return spans
    .map((span, position) => ({ span, position, distance: sliceDistance(span, slice) }))
    .sort((a, b) => a.distance - b.distance || a.position - b.position)
    .map(({ span }) => span);
}

/**
 * The record's calcium for the report and the SR sent to PACS (issue 28), as the review shows it: the
 * detected arcs, re-read on every lumen border the clinician corrected (the frames read from the stored
 * B-mode chunks, one decompressed chunk at a time), and the clinician's own arcs over all.
 */
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import { createCalciumArcDetector } from '../../domain/calcium/calcium-arc.ts';
import { correctedLumens, remeasureCalcium } from '../../domain/calcium/corrected-calcium.ts';
import { recordCalcium, type RecordCalcium } from '../../domain/calcium/record-calcium.ts';
import type { RecordContours, SliceCalcium } from '../../domain/contours/api.ts';
import type { CorrectedAnalysis } from '../../domain/contours/corrected-analysis.ts';
import { FRAMES_PER_CHUNK } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import { readWith, type ChunkImaging, type ChunkReader, type ChunkRecord } from '../contours/stored-chunk-pass.ts';

type Frames = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'pullbackSpeedMmPerS' | 'frameRateHz'>;

/**
 * The calcium to report as a reader of the stored chunks (stored-chunk-pass.ts), to share one pass
 * with other readers: it asks only for the chunks holding a corrected lumen's frame.
 */
export function reportCalciumReader(
  record: Frames,
  detected: RecordContours,
  manifest: Pick<AnnotationManifest, 'calcium'>,
  analysis: CorrectedAnalysis,
): ChunkReader<RecordCalcium> {
  const { frameWidth, frameHeight } = record;
  const corrected = correctedLumens(analysis.slices);
  const remeasured = new Map<number, SliceCalcium | null>();
  const rereads = corrected.length > 0 && detected.contours.some((contour) => 'calcium' in contour && contour.calcium !== undefined);
  const byChunk = rereads ? Map.groupBy(corrected, (slice) => Math.floor((slice.slice - 1) / FRAMES_PER_CHUNK)) : new Map<number, typeof corrected>();
  const detector = rereads ? createCalciumArcDetector({ frameWidth, frameHeight, pixelSpacingMm: detected.pixelSpacingMm }) : null;
  return {
    chunks: [...byChunk.keys()],
    take({ index, frame }) {
      const frameAt = (slice: number) => frame((slice - 1) % FRAMES_PER_CHUNK);
      for (const [slice, arc] of remeasureCalcium(detector!, byChunk.get(index)!, frameAt, { x: frameWidth / 2, y: frameHeight / 2 })) remeasured.set(slice, arc);
    },
    result: () =>
      recordCalcium(detected, record.pullbackSpeedMmPerS / record.frameRateHz, (slice) => corrected.some((c) => c.slice === slice), {
        remeasured,
        byHand: manifest.calcium ?? [],
        vesselAreaMm2: (slice) => analysis.slices[slice - 1]?.vessel?.areaMm2 ?? null,
      }),
  };
}

/** The calcium to report, its frames read on their own (see reportCalciumReader). */
export async function reportCalcium(
  imaging: ChunkImaging,
  record: ChunkRecord & Frames,
  detected: RecordContours,
  manifest: Pick<AnnotationManifest, 'calcium'>,
  analysis: CorrectedAnalysis,
): Promise<RecordCalcium> {
  return readWith(imaging, record, reportCalciumReader(record, detected, manifest, analysis));
}

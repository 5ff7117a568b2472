/**
 * The record's calcium for the report and the SR sent to PACS (issue 28), as the review shows it: the
 * detected arcs, re-read on every lumen border the clinician corrected (the frames read from the stored
 * B-mode chunks, one decompressed chunk at a time), and the clinician's own arcs over all.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import { createCalciumArcDetector } from '../../domain/calcium/calcium-arc.ts';
import { correctedLumens, remeasureCalcium } from '../../domain/calcium/corrected-calcium.ts';
import { recordCalcium, type RecordCalcium } from '../../domain/calcium/record-calcium.ts';
import type { RecordContours, SliceCalcium } from '../../domain/contours/api.ts';
import type { CorrectedAnalysis } from '../../domain/contours/corrected-analysis.ts';
import { FRAMES_PER_CHUNK } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';

const gunzip = promisify(zlib.gunzip);

type Frames = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'pullbackSpeedMmPerS' | 'frameRateHz'>;

export async function reportCalcium(
  imaging: Pick<RecordImaging, 'chunk'>,
  record: Parameters<RecordImaging['chunk']>[0] & Frames,
  detected: RecordContours,
  manifest: Pick<AnnotationManifest, 'calcium'>,
  analysis: CorrectedAnalysis,
): Promise<RecordCalcium> {
  const { frameWidth, frameHeight } = record;
  const frameBytes = frameWidth * frameHeight;
  const corrected = correctedLumens(analysis.slices);
  const remeasured = new Map<number, SliceCalcium | null>();
  if (corrected.length > 0 && detected.contours.some((contour) => 'calcium' in contour && contour.calcium !== undefined)) {
    const detector = createCalciumArcDetector({ frameWidth, frameHeight, pixelSpacingMm: detected.pixelSpacingMm });
    const byChunk = Map.groupBy(corrected, (slice) => Math.floor((slice.slice - 1) / FRAMES_PER_CHUNK));
    for (const [chunkIndex, slices] of byChunk) {
      const chunk = await gunzip(await imaging.chunk(record, 'bmode', chunkIndex));
      const frameAt = (slice: number) => {
        const offset = ((slice - 1) % FRAMES_PER_CHUNK) * frameBytes;
        return offset + frameBytes <= chunk.length ? new Uint8Array(chunk.buffer, chunk.byteOffset + offset, frameBytes) : null;
      };
      for (const [slice, arc] of remeasureCalcium(detector, slices, frameAt, { x: frameWidth / 2, y: frameHeight / 2 })) remeasured.set(slice, arc);
    }
  }
  return recordCalcium(detected, record.pullbackSpeedMmPerS / record.frameRateHz, (slice) => corrected.some((c) => c.slice === slice), {
    remeasured,
    byHand: manifest.calcium ?? [],
    vesselAreaMm2: (slice) => analysis.slices[slice - 1]?.vessel?.areaMm2 ?? null,
  });
}

/**
 * The record's stent for the report and the SR sent to PACS (issue 28), as the review shows it.
 * Without a stent border corrected by hand: the stent the detection job stored with the contours
 * (no frame read). With one (the manifest's `stentBorders`): the stored stent keeps no per-frame
 * readings, so the record's stored B-mode frames are read again here, chunk by chunk, exactly as
 * the page reads its loaded frames, and the stent is measured on the drawn borders
 * (domain/stent/stent-frame-readings.ts), so the PDF and SR carry the MSA the review shows.
 */
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import { framesPerMm, type CorrectedAnalysis, type PullbackGeometry } from '../../domain/contours/corrected-analysis.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import { stentFrameReader, stentOfReadings } from '../../domain/stent/stent-frame-readings.ts';
import { stentResults, type StentResults } from '../../domain/stent/stent-results.ts';
import { stentDetectionOf, stentOnBorders } from '../../domain/stent/stored-stent.ts';
import type { StentFrameReading } from '../../domain/stent/strut-detection.ts';
import type { RecordRow } from '../db/records.ts';
import type { StentContent } from '../dicom/sr/stent-group.ts';
import { allChunks, readWith, type ChunkImaging, type ChunkReader, type ChunkRecord } from '../contours/stored-chunk-pass.ts';

type Frames = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'bmodeFrameCount'>;

/**
 * The stent to report as a reader of the stored chunks (stored-chunk-pass.ts), to share one pass
 * with other readers: it asks for every chunk where a stent border was corrected by hand, for none
 * otherwise. Its result is null where there is no stent to report: none stored and none corrected
 * by hand (contours detected before the server read stents, or frames without a stent).
 */
export function reportStentReader(
  record: Frames,
  stored: StentResults | undefined,
  manifest: Pick<AnnotationManifest, 'stentBorders' | 'stentReferences'>,
  analysis: CorrectedAnalysis,
  geometry: PullbackGeometry & { readonly pixelSpacingMm: number },
): ChunkReader<StentContent | null> {
  const perMm = framesPerMm(geometry);
  const corrections = manifest.stentBorders ?? [];
  if (corrections.length === 0) {
    return {
      chunks: [],
      take: () => {},
      result: () => {
        if (stored === undefined || stored.segment === null) return null;
        const detection = stentDetectionOf(stored, analysis.slices.length);
        return { results: stored, ...stentOnBorders(detection, analysis, perMm, manifest.stentReferences) };
      },
    };
  }
  // Every stored B-mode frame's stent reading, one decompressed chunk held at a time.
  const { frameWidth: width, frameHeight: height, bmodeFrameCount } = record;
  const frameBytes = width * height;
  const readFrame = stentFrameReader(geometry.pixelSpacingMm);
  const readings: StentFrameReading[] = [];
  return {
    chunks: allChunks(chunkCount(bmodeFrameCount)),
    take({ index, pixels, frame }) {
      const { count } = chunkFrames(index, bmodeFrameCount);
      if (pixels.length < count * frameBytes) throw new Error(`B-mode chunk ${index} holds ${pixels.length} bytes, expected ${count * frameBytes}`);
      for (let k = 0; k < count; k++) readings.push(readFrame({ width, height, pixels: frame(k)! }));
    },
    result: () => {
      const detection = stentOfReadings({ readings, frameSize: { width, height } }, perMm, corrections, geometry.pixelSpacingMm);
      if (detection.segment === null) return null;
      return { results: stentResults(detection), ...stentOnBorders(detection, analysis, perMm, manifest.stentReferences) };
    },
  };
}

/** The stent to report, its frames read on their own (see reportStentReader). */
export async function reportStent(
  imaging: ChunkImaging,
  record: ChunkRecord & Frames,
  stored: StentResults | undefined,
  manifest: Pick<AnnotationManifest, 'stentBorders' | 'stentReferences'>,
  analysis: CorrectedAnalysis,
  geometry: PullbackGeometry & { readonly pixelSpacingMm: number },
): Promise<StentContent | null> {
  return readWith(imaging, record, reportStentReader(record, stored, manifest, analysis, geometry));
}

/**
 * The record's stent for the report and the SR sent to PACS (issue 28), as the review shows it.
 * Without a stent border corrected by hand: the stent the detection job stored with the contours
 * (no frame read). With one (the manifest's `stentBorders`): the stored stent keeps no per-frame
 * readings, so the record's stored B-mode frames are read again here, chunk by chunk, exactly as
 * the page reads its loaded frames, and the stent is measured on the drawn borders
 * (domain/stent/stent-frame-readings.ts), so the PDF and SR carry the MSA the review shows.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import { framesPerMm, type CorrectedAnalysis, type PullbackGeometry } from '../../domain/contours/corrected-analysis.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import { stentFrameReader, stentOfReadings } from '../../domain/stent/stent-frame-readings.ts';
import { stentResults, type StentResults } from '../../domain/stent/stent-results.ts';
import { stentDetectionOf, stentOnBorders } from '../../domain/stent/stored-stent.ts';
import type { StentFrameReading } from '../../domain/stent/strut-detection.ts';
import type { RecordRow } from '../db/records.ts';
import type { StentContent } from '../dicom/sr/stent-group.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';

const gunzip = promisify(zlib.gunzip);

type Frames = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'bmodeFrameCount'>;

/**
 * The stent to report, or null where there is none to report: no stent stored and none corrected
 * by hand (contours detected before the server read stents, or frames without a stent).
 */
export async function reportStent(
  imaging: Pick<RecordImaging, 'chunk'>,
  record: Parameters<RecordImaging['chunk']>[0] & Frames,
  stored: StentResults | undefined,
  manifest: Pick<AnnotationManifest, 'stentBorders' | 'stentReferences'>,
  analysis: CorrectedAnalysis,
  geometry: PullbackGeometry & { readonly pixelSpacingMm: number },
): Promise<StentContent | null> {
  const perMm = framesPerMm(geometry);
  const corrections = manifest.stentBorders ?? [];
  if (corrections.length === 0) {
    if (stored === undefined || stored.segment === null) return null;
    const detection = stentDetectionOf(stored, analysis.slices.length);
    return { results: stored, ...stentOnBorders(detection, analysis, perMm, manifest.stentReferences) };
  }
  const readings = await readStoredFrames(imaging, record, geometry.pixelSpacingMm);
  const detection = stentOfReadings({ readings, frameSize: { width: record.frameWidth, height: record.frameHeight } }, perMm, corrections, geometry.pixelSpacingMm);
  if (detection.segment === null) return null;
  return { results: stentResults(detection), ...stentOnBorders(detection, analysis, perMm, manifest.stentReferences) };
}

/** Every stored B-mode frame's stent reading, one decompressed chunk held at a time. */
async function readStoredFrames(imaging: Pick<RecordImaging, 'chunk'>, record: Parameters<RecordImaging['chunk']>[0] & Frames, pixelSpacingMm: number) {
  const { frameWidth: width, frameHeight: height, bmodeFrameCount } = record;
  const frameBytes = width * height;
  const readFrame = stentFrameReader(pixelSpacingMm);
  const readings: StentFrameReading[] = [];
  for (let index = 0; index < chunkCount(bmodeFrameCount); index++) {
    const pixels = await gunzip(await imaging.chunk(record, 'bmode', index));
    const { count } = chunkFrames(index, bmodeFrameCount);
    if (pixels.length < count * frameBytes) throw new Error(`B-mode chunk ${index} holds ${pixels.length} bytes, expected ${count * frameBytes}`);
    for (let k = 0; k < count; k++) readings.push(readFrame({ width, height, pixels: pixels.subarray(k * frameBytes, (k + 1) * frameBytes) }));
    // A long record is read between other requests, not in one block of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return readings;
}

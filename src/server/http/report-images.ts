/**
 * The images of a record's report, read from its stored B-mode chunks (issue 26): the MLA and
 * reference frames (report-frames.ts) and the L-mode (report-lmode.ts). The L-mode walks the whole
 * pullback one chunk at a time, keeping one decompressed chunk and the bounded image, so a
 * 3,600-frame record costs no more memory than a short one.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { CorrectedAnalysis } from '../../domain/contours/corrected-analysis.ts';
import { FRAMES_PER_CHUNK } from '../../domain/images.ts';
import { reportFrameSlices } from '../../domain/reports/report-frames.ts';
import { lmodeCollector, type ReportLMode } from '../../domain/reports/report-lmode.ts';
import type { ReportInput } from '../../domain/reports/report-pdf.ts';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';

const gunzip = promisify(zlib.gunzip);

type Imaging = Pick<RecordImaging, 'chunk'>;

/** The B-mode frames the report shows (MLA and references). */
export async function reportFrames(imaging: Imaging, record: RecordRow, analysis: CorrectedAnalysis): Promise<NonNullable<ReportInput['frames']>> {
  const frameBytes = record.frameWidth * record.frameHeight;
  const frames: NonNullable<ReportInput['frames']>[number][] = [];
  for (const { role, slice } of reportFrameSlices(analysis)) {
    const chunk = await gunzip(await imaging.chunk(record, 'bmode', Math.floor((slice - 1) / FRAMES_PER_CHUNK)));
    const offset = ((slice - 1) % FRAMES_PER_CHUNK) * frameBytes;
    frames.push({ role, slice, frame: { width: record.frameWidth, height: record.frameHeight, pixels: new Uint8Array(chunk.subarray(offset, offset + frameBytes)) } });
  }
  return frames;
}

/** The L-mode of the whole pullback, or undefined for a record without one. */
export async function reportLMode(imaging: Imaging, record: RecordRow): Promise<ReportLMode | undefined> {
  const count = record.bmodeFrameCount;
  if (count < 1) return undefined;
  const collector = lmodeCollector(count, record.frameWidth, record.frameHeight);
  const frameBytes = record.frameWidth * record.frameHeight;
  for (let chunkIndex = 0; chunkIndex * FRAMES_PER_CHUNK < count; chunkIndex++) {
    const first = chunkIndex * FRAMES_PER_CHUNK;
    const last = Math.min(count, first + FRAMES_PER_CHUNK);
    let wanted = false;
    for (let index = first; index < last && !wanted; index++) wanted = collector.wants(index);
    if (!wanted) continue;
    const chunk = await gunzip(await imaging.chunk(record, 'bmode', chunkIndex));
    for (let index = first; index < last; index++) {
      const offset = (index - first) * frameBytes;
      if (collector.wants(index)) collector.add(index, chunk.subarray(offset, offset + frameBytes));
    }
  }
  return collector.result();
}

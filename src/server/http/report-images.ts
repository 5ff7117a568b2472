/**
 * The images of a record's report, read from its stored B-mode chunks (issue 26): the MLA and
 * reference frames (report-frames.ts) and the L-mode (report-lmode.ts). The L-mode walks the whole
 * pullback one chunk at a time, keeping one decompressed chunk and the bounded image, so a
 * 3,600-frame record costs no more memory than a short one. Each is a reader of the stored chunks
 * (contours/stored-chunk-pass.ts), so a report shares one pass over them with its other readers.
 */
import type { CorrectedAnalysis } from '../../domain/contours/corrected-analysis.ts';
import { chunkFrames, FRAMES_PER_CHUNK } from '../../domain/images.ts';
import { reportFrameSlices } from '../../domain/reports/report-frames.ts';
import { lmodeCollector, type ReportLMode } from '../../domain/reports/report-lmode.ts';
import type { ReportInput } from '../../domain/reports/report-pdf.ts';
import type { RecordRow } from '../db/records.ts';
import { readWith, type ChunkImaging, type ChunkReader } from '../contours/stored-chunk-pass.ts';

type ReportFrame = NonNullable<ReportInput['frames']>[number];
type Frames = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'bmodeFrameCount'>;

/** The B-mode frames the report shows (MLA and references), in the order the report lists them. */
export function reportFramesReader(record: Frames, analysis: CorrectedAnalysis): ChunkReader<ReportFrame[]> {
  const frameBytes = record.frameWidth * record.frameHeight;
  const wanted = reportFrameSlices(analysis);
  const chunkOf = (slice: number) => Math.floor((slice - 1) / FRAMES_PER_CHUNK);
  const found = new Map<number, Uint8Array>();
  return {
    chunks: wanted.map(({ slice }) => chunkOf(slice)),
    take({ index, pixels }) {
      for (const { slice } of wanted) {
        if (chunkOf(slice) !== index) continue;
        const offset = ((slice - 1) % FRAMES_PER_CHUNK) * frameBytes;
        // A copy: the chunk is dropped once the pass moves on.
        found.set(slice, new Uint8Array(pixels.subarray(offset, offset + frameBytes)));
      }
    },
    result: () => wanted.map(({ role, slice }) => ({ role, slice, frame: { width: record.frameWidth, height: record.frameHeight, pixels: found.get(slice)! } })),
  };
}

/** The L-mode of the whole pullback (undefined for a record without one): only the chunks holding a slice it shows are read. */
export function reportLModeReader(record: Frames): ChunkReader<ReportLMode | undefined> {
  const count = record.bmodeFrameCount;
  const collector = lmodeCollector(Math.max(0, count), record.frameWidth, record.frameHeight);
  const frameBytes = record.frameWidth * record.frameHeight;
  const chunks: number[] = [];
  for (let chunkIndex = 0; chunkIndex * FRAMES_PER_CHUNK < count; chunkIndex++) {
    const { first, count: inChunk } = chunkFrames(chunkIndex, count);
    let wanted = false;
    for (let index = first; index < first + inChunk && !wanted; index++) wanted = collector.wants(index);
    if (wanted) chunks.push(chunkIndex);
  }
  return {
    chunks,
    take({ index: chunkIndex, pixels }) {
      const { first, count: inChunk } = chunkFrames(chunkIndex, count);
      for (let index = first; index < first + inChunk; index++) {
        const offset = (index - first) * frameBytes;
        if (collector.wants(index)) collector.add(index, pixels.subarray(offset, offset + frameBytes));
      }
    },
    result: () => (count < 1 ? undefined : collector.result()),
  };
}

/** The B-mode frames the report shows, read on their own. */
export async function reportFrames(imaging: ChunkImaging, record: RecordRow, analysis: CorrectedAnalysis): Promise<ReportFrame[]> {
  return readWith(imaging, record, reportFramesReader(record, analysis));
}

/** The L-mode of the whole pullback, read on its own. */
export async function reportLMode(imaging: ChunkImaging, record: RecordRow): Promise<ReportLMode | undefined> {
  return readWith(imaging, record, reportLModeReader(record));
}

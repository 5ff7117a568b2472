/**
 * A record's image-based gating on the server (issue 28), for the reports it sends: the motion
 * signal from the record's own stored B-mode frames, chunk by chunk (one frame and the previous
 * frame's cells held at a time), then one end-diastolic frame per cardiac cycle, as the review
 * computes it from the same frames (domain/gating). What a page says it found is never used.
 */
import { detectEndDiastole, type GatingResult } from '../../domain/gating/end-diastole.ts';
import { downsampleFrame, frameDifference, type DownsampledFrame } from '../../domain/gating/motion-signal.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import { allChunks, readWith, type ChunkImaging, type ChunkReader } from './stored-chunk-pass.ts';

type GatedRecord = Pick<RecordRow, 'frameWidth' | 'frameHeight' | 'bmodeFrameCount' | 'frameRateHz'>;

/** The gating as a reader of the stored chunks (stored-chunk-pass.ts), to share one pass with other readers. */
export function recordGatingReader(record: GatedRecord): ChunkReader<GatingResult> {
  const frameBytes = record.frameWidth * record.frameHeight;
  const motion = new Float64Array(Math.max(0, record.bmodeFrameCount - 1));
  let previous: DownsampledFrame | null = null;
  return {
    chunks: allChunks(chunkCount(record.bmodeFrameCount)),
    take({ index, pixels, frame }) {
      const { first, count } = chunkFrames(index, record.bmodeFrameCount);
      if (pixels.length < count * frameBytes) throw new Error(`B-mode chunk ${index} holds ${pixels.length} bytes, expected ${count * frameBytes}`);
      for (let k = 0; k < count; k++) {
        const current = downsampleFrame(frame(k)!, record.frameWidth, record.frameHeight);
        if (previous !== null) motion[first + k - 1] = frameDifference(previous, current);
        previous = current;
      }
    },
    result: () => detectEndDiastole(motion, { frameRateHz: record.frameRateHz }),
  };
}

export async function recordGating(imaging: ChunkImaging, record: RecordRow): Promise<GatingResult> {
  return readWith(imaging, record, recordGatingReader(record));
}

/**
 * A record's image-based gating on the server (issue 28), for the reports it sends: the motion
 * signal from the record's own stored B-mode frames, chunk by chunk (one frame and the previous
 * frame's cells held at a time), then one end-diastolic frame per cardiac cycle, as the review
 * computes it from the same frames (domain/gating). What a page says it found is never used.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { detectEndDiastole, type GatingResult } from '../../domain/gating/end-diastole.ts';
import { downsampleFrame, frameDifference, type DownsampledFrame } from '../../domain/gating/motion-signal.ts';
import { chunkCount, chunkFrames } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';

const gunzip = promisify(zlib.gunzip);

export async function recordGating(imaging: Pick<RecordImaging, 'chunk'>, record: RecordRow): Promise<GatingResult> {
  const frameBytes = record.frameWidth * record.frameHeight;
  const motion = new Float64Array(Math.max(0, record.bmodeFrameCount - 1));
  let previous: DownsampledFrame | null = null;
  let frame = 0;
  for (let index = 0; index < chunkCount(record.bmodeFrameCount); index++) {
    const pixels = await gunzip(await imaging.chunk(record, 'bmode', index));
    const { count } = chunkFrames(index, record.bmodeFrameCount);
    if (pixels.length < count * frameBytes) throw new Error(`B-mode chunk ${index} holds ${pixels.length} bytes, expected ${count * frameBytes}`);
    for (let k = 0; k < count; k++, frame++) {
      const current = downsampleFrame(pixels.subarray(k * frameBytes, (k + 1) * frameBytes), record.frameWidth, record.frameHeight);
      if (previous !== null) motion[frame - 1] = frameDifference(previous, current);
      previous = current;
    }
    // A long record is read between other requests, not in one block of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return detectEndDiastole(motion, { frameRateHz: record.frameRateHz });
}

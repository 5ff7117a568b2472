/**
 * Reads a record's stent in the browser, from the B-mode frames the review has loaded (issue 28):
 * each frame's struts and wall (domain/stent/strut-detection.ts), a few frames at a time between
 * paints so the review stays responsive, then the detection over them all. A frame not loaded is
 * not read (its slice takes no part, and the figures it would have given are "not measurable").
 */
import { detectStent, type StentDetection } from '../../../domain/stent/stent-analysis.ts';
import { stentFrameReader, type StentFrame, type StentFramesRead } from '../../../domain/stent/stent-frame-readings.ts';
import type { StentFrameReading } from '../../../domain/stent/strut-detection.ts';

export type { StentFrame, StentFramesRead };

/** Frames read between two yields to the browser (a few milliseconds each). */
const FRAMES_PER_STEP = 8;

export async function readStent(
  frameAt: (slice: number) => StentFrame | null,
  sliceCount: number,
  pixelSpacingMm: number,
  framesPerMm: number,
  onProgress: (done: number) => void,
  signal: AbortSignal,
): Promise<StentDetection | null> {
  const read = await readStentFrames(frameAt, sliceCount, pixelSpacingMm, onProgress, signal);
  return read === null ? null : detectStent(read.readings, framesPerMm);
}

/**
 * Each frame's reading, kept so that the stent can be measured again whenever the clinician corrects
 * a stent border by hand (the malapposition reads the wall against the corrected border).
 */
export async function readStentFrames(
  frameAt: (slice: number) => StentFrame | null,
  sliceCount: number,
  pixelSpacingMm: number,
  onProgress: (done: number) => void,
  signal: AbortSignal,
): Promise<StentFramesRead | null> {
  let frameSize: StentFramesRead['frameSize'] = null;
  const readings: (StentFrameReading | null)[] = [];
  const readFrame = stentFrameReader(pixelSpacingMm);
  for (let slice = 1; slice <= sliceCount; slice++) {
    if (signal.aborted) return null;
    const frame = frameAt(slice);
    if (frame === null) {
      readings.push(null);
    } else {
      frameSize ??= { width: frame.width, height: frame.height };
      readings.push(readFrame(frame));
    }
    if (slice % FRAMES_PER_STEP === 0) {
      onProgress(slice);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  onProgress(sliceCount);
  return { readings, frameSize };
}

/**
 * Reads a record's stent in the browser, from the B-mode frames the review has loaded (issue 28):
 * each frame's struts and wall (domain/stent/strut-detection.ts), a few frames at a time between
 * paints so the review stays responsive, then the detection over them all. A frame not loaded is
 * not read (its slice takes no part, and the figures it would have given are "not measurable").
 */
import { detectStent, type StentDetection } from '../../../domain/stent/stent-analysis.ts';
import { createStrutDetector, type StentFrameReading, type StrutDetector } from '../../../domain/stent/strut-detection.ts';

export interface StentFrame {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

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

/** What the frames read gave: each frame's reading, and the frames' size (the catheter is at its centre; a hand-drawn stent border is in its pixels). */
export interface StentFramesRead {
  readonly readings: readonly (StentFrameReading | null)[];
  readonly frameSize: { readonly width: number; readonly height: number } | null;
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
  const detectors = new Map<string, StrutDetector>();
  for (let slice = 1; slice <= sliceCount; slice++) {
    if (signal.aborted) return null;
    const frame = frameAt(slice);
    if (frame === null) {
      readings.push(null);
    } else {
      frameSize ??= { width: frame.width, height: frame.height };
      const key = `${frame.width}x${frame.height}`;
      let detector = detectors.get(key);
      if (detector === undefined) {
        // IVUS frames are centred on the catheter.
        detector = createStrutDetector({ frameWidth: frame.width, frameHeight: frame.height, centreX: frame.width / 2, centreY: frame.height / 2, pixelSpacingMm });
        detectors.set(key, detector);
      }
      readings.push(detector.detect(frame.pixels));
    }
    if (slice % FRAMES_PER_STEP === 0) {
      onProgress(slice);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  onProgress(sliceCount);
  return { readings, frameSize };
}

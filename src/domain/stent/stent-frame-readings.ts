/**
 * Each frame's stent reading and the stent measured from them with the borders corrected by hand
 * (issue 28), shared by the review (which reads the frames it has loaded) and the server (which
 * reads the record's stored frames for the PACS report), so that both give the same figures from
 * the same frames. Pure.
 */
import type { StentBorderCorrection } from '../annotations/stent-corrections.ts';
import { correctedStentDetection, type CorrectedStentDetection } from './corrected-stent.ts';
import { createStrutDetector, type StentFrameReading, type StrutDetector } from './strut-detection.ts';

/** One B-mode frame, gray levels row by row. */
export interface StentFrame {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** What the frames read gave: each frame's reading (null where no frame was read), and the frames' size (a hand-drawn stent border is in its pixels). */
export interface StentFramesRead {
  readonly readings: readonly (StentFrameReading | null)[];
  readonly frameSize: { readonly width: number; readonly height: number } | null;
}

/** Reads frames' struts and wall, one detector per frame size (building one precomputes its sampling grid). */
export function stentFrameReader(pixelSpacingMm: number): (frame: StentFrame) => StentFrameReading {
  const detectors = new Map<string, StrutDetector>();
  return (frame) => {
    const key = `${frame.width}x${frame.height}`;
    let detector = detectors.get(key);
    if (detector === undefined) {
      // IVUS frames are centred on the catheter.
      detector = createStrutDetector({ frameWidth: frame.width, frameHeight: frame.height, centreX: frame.width / 2, centreY: frame.height / 2, pixelSpacingMm });
      detectors.set(key, detector);
    }
    return detector.detect(frame.pixels);
  };
}

/**
 * The stent of the frames read with the manifest's stent borders corrected by hand (1-based slices)
 * replacing the fitted ones; with no frame read there is no frame size, and no correction can be placed.
 */
export function stentOfReadings(
  read: StentFramesRead,
  framesPerMm: number,
  corrections: readonly StentBorderCorrection[],
  pixelSpacingMm: number,
): CorrectedStentDetection {
  const size = read.frameSize;
  const geometry = { centreX: (size?.width ?? 0) / 2, centreY: (size?.height ?? 0) / 2, pixelSpacingMm };
  const frameCorrections = size === null ? [] : corrections.map((c) => ({ frame: c.slice - 1, controlPoints: c.controlPoints }));
  return correctedStentDetection(read.readings, framesPerMm, frameCorrections, geometry);
}

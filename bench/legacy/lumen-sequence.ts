/**
 * The legacy lumen-only detector (lumen-detector.ts) over consecutive frames. The product detects
 * both borders (src/domain/contours/detect-sequence.ts); this lives beside the bench only, so that
 * `npm run bench:contours` can show what the two-border detector changed on the same frames.
 */
import type { Point } from '../../src/domain/annotations/manifest.ts';
import { measureContour, type ContourMeasurements } from '../../src/domain/contours/measurements.ts';
import type { LumenDetector } from './lumen-detector.ts';

/** One frame's lumen border alone, measured (the lumen-only detector of lumen-detector.ts). */
export interface LumenSliceDetection extends ContourMeasurements {
  readonly controlPoints: readonly Point[];
}

export interface SequenceDetection {
  readonly detections: LumenSliceDetection[];
  /** The last frame's radii, to continue with the next run of frames. */
  readonly lastRadiiPx: Float32Array | null;
}

/**
 * The lumen-only detector over consecutive frames of frameSizePx² bytes each. The server no longer
 * uses it (detectBorderSequence does); `npm run bench:contours` and the detector's own tests still do.
 */
export function detectSequence(
  detector: LumenDetector,
  frames: Uint8Array,
  frameSizePx: number,
  pixelSpacingMm: number,
  previousRadiiPx: Float32Array | null = null,
): SequenceDetection {
  const frameBytes = frameSizePx * frameSizePx;
  if (frames.length % frameBytes !== 0) throw new RangeError(`frames must be whole ${frameSizePx}x${frameSizePx} images, got ${frames.length} bytes`);
  const detections: LumenSliceDetection[] = [];
  let previous = previousRadiiPx;
  for (let offset = 0; offset < frames.length; offset += frameBytes) {
    const result = detector.detect(frames.subarray(offset, offset + frameBytes), previous);
    previous = result.radiiPx;
    detections.push({ controlPoints: result.controlPoints, ...measureContour(result.controlPoints, pixelSpacingMm) });
  }
  return { detections, lastRadiiPx: previous };
}

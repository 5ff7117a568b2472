/**
 * Detection over consecutive frames: each frame's border seeds the continuity cost of the next, and
 * every contour is measured as it comes. Frames are concatenated 8-bit images (frameSizePx² bytes
 * each), as the frame chunks carry them.
 */
import type { SliceDetection } from './api.ts';
import type { LumenDetector } from './lumen-detector.ts';
import { measureContour } from './measurements.ts';

export interface SequenceDetection {
  readonly detections: SliceDetection[];
  /** The last frame's radii, to continue with the next run of frames. */
  readonly lastRadiiPx: Float32Array | null;
}

export function detectSequence(
  detector: LumenDetector,
  frames: Uint8Array,
  frameSizePx: number,
  pixelSpacingMm: number,
  previousRadiiPx: Float32Array | null = null,
): SequenceDetection {
  const frameBytes = frameSizePx * frameSizePx;
  if (frames.length % frameBytes !== 0) throw new RangeError(`frames must be whole ${frameSizePx}x${frameSizePx} images, got ${frames.length} bytes`);
  const detections: SliceDetection[] = [];
  let previous = previousRadiiPx;
  for (let offset = 0; offset < frames.length; offset += frameBytes) {
    const result = detector.detect(frames.subarray(offset, offset + frameBytes), previous);
    previous = result.radiiPx;
    detections.push({ controlPoints: result.controlPoints, ...measureContour(result.controlPoints, pixelSpacingMm) });
  }
  return { detections, lastRadiiPx: previous };
}

/**
 * One unit of contour work: the frames of one chunk, detected in order (lumen and vessel borders).
 * Shared by the worker thread and the inline path (no workers), so both give the same contours.
 */
import type { BorderDetector } from '../../domain/contours/border-detection.ts';
import { createBorderDetector } from '../../domain/contours/border-detector.ts';
import { detectBorderSequence, type BorderCarry, type BorderSequenceDetection } from '../../domain/contours/detect-sequence.ts';
import type { SliceDetection } from '../../domain/contours/api.ts';
import { createCalciumArcDetector, type CalciumArcDetector } from '../../domain/calcium/calcium-arc.ts';
import { withCalcium } from '../../domain/calcium/slice-calcium.ts';

export interface ContourJob {
  readonly id: number;
  /** Frames need not be square (imported DICOM can be 500 x 480). */
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  /** The chunk as stored: gzip of its frames' raw bytes. */
  readonly gz: Uint8Array;
  /** The previous frame's borders and pixels (continuity), or null at the start of a run. */
  readonly carry: BorderCarry | null;
  /**
   * Detect only the chunk's last this many frames: a run that starts mid-record warms up on the
   * frames before it, so its first frame continues from them like every other frame.
   */
  readonly lastFrames?: number;
}

export type ContourJobResult =
  | { readonly id: number; readonly detections: SliceDetection[]; readonly carry: BorderCarry | null }
  | { readonly id: number; readonly error: string };

// The detector's tables depend only on the frame geometry: keep the last one (records share it).
let cached: { key: string; detector: BorderDetector; calcium: CalciumArcDetector } | null = null;

function detectorsFor(frameWidth: number, frameHeight: number, pixelSpacingMm: number): { detector: BorderDetector; calcium: CalciumArcDetector } {
  const key = `${frameWidth}x${frameHeight}/${pixelSpacingMm}`;
  if (cached?.key !== key) {
    const geometry = { frameWidth, frameHeight, pixelSpacingMm };
    cached = { key, detector: createBorderDetector(geometry), calcium: createCalciumArcDetector(geometry) };
  }
  return cached;
}

export function detectChunk(job: Omit<ContourJob, 'id' | 'gz'>, frames: Uint8Array): BorderSequenceDetection {
  const { detector, calcium } = detectorsFor(job.frameWidth, job.frameHeight, job.pixelSpacingMm);
  const frameBytes = job.frameWidth * job.frameHeight;
  const from = job.lastFrames === undefined ? 0 : Math.max(0, frames.length - job.lastFrames * frameBytes);
  const run = frames.subarray(from);
  const result = detectBorderSequence(detector, run, job, job.carry);
  // Calcium (issue 28) on the borders just found: the border detector itself knows nothing of it.
  const centre = { x: job.frameWidth / 2, y: job.frameHeight / 2 };
  return { ...result, detections: withCalcium(calcium, result.detections, run, frameBytes, centre) };
}

/** The buffers of a carry, to move it to another thread instead of copying it. */
export function carryTransfer(carry: BorderCarry | null): ArrayBuffer[] {
  return carry ? [carry.lumenRadiiPx.buffer as ArrayBuffer, carry.vesselRadiiPx.buffer as ArrayBuffer, carry.frame.buffer as ArrayBuffer] : [];
}

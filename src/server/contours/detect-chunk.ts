/**
 * One unit of contour work: the frames of one chunk, detected in order. Shared by the worker thread
 * and the inline path (no workers), so both give the same contours.
 */
import type { SliceDetection } from '../../domain/contours/api.ts';
import { detectSequence } from '../../domain/contours/detect-sequence.ts';
import { createLumenDetector, type LumenDetector } from '../../domain/contours/lumen-detector.ts';

export interface ContourJob {
  readonly id: number;
  readonly frameSizePx: number;
  readonly pixelSpacingMm: number;
  /** The chunk as stored: gzip of its frames' raw bytes. */
  readonly gz: Uint8Array;
  /** The previous frame's border radii (continuity), or null at the start of a run. */
  readonly previousRadiiPx: Float32Array | null;
}

export type ContourJobResult =
  | { readonly id: number; readonly detections: SliceDetection[]; readonly lastRadiiPx: Float32Array | null }
  | { readonly id: number; readonly error: string };

// The detector's tables depend only on the frame geometry: keep the last one (records share it).
let cached: { key: string; detector: LumenDetector } | null = null;

function detectorFor(frameSizePx: number, pixelSpacingMm: number): LumenDetector {
  const key = `${frameSizePx}/${pixelSpacingMm}`;
  if (cached?.key !== key) cached = { key, detector: createLumenDetector({ frameSizePx, pixelSpacingMm }) };
  return cached.detector;
}

export function detectChunk(job: Omit<ContourJob, 'id' | 'gz'>, frames: Uint8Array) {
  return detectSequence(detectorFor(job.frameSizePx, job.pixelSpacingMm), frames, job.frameSizePx, job.pixelSpacingMm, job.previousRadiiPx);
}

/**
 * One unit of contour work: the frames of one chunk, detected in order (lumen and vessel borders;
 * calcium on them; each frame's stent struts and wall, issue 28, which the record's stent is read
 * from once every frame is in). Shared by the worker thread and the inline path (no workers), so both give the same contours.
 */
import type { BorderDetector } from '../../domain/contours/border-detection.ts';
import { createBorderDetector } from '../../domain/contours/border-detector.ts';
import { detectBorderSequence, type BorderCarry, type BorderSequenceDetection } from '../../domain/contours/detect-sequence.ts';
import type { SliceDetection } from '../../domain/contours/api.ts';
import { createCalciumArcDetector, type CalciumArcDetector } from '../../domain/calcium/calcium-arc.ts';
import { withCalcium } from '../../domain/calcium/slice-calcium.ts';
import { createStrutDetector, type StentFrameReading, type StrutDetector } from '../../domain/stent/strut-detection.ts';

export interface ContourJob {
  readonly id: number;
  /** Frames need not be square (imported DICOM can be 500 x 480). */
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  /** The chunk as stored: gzip of its frames' raw bytes (or `raw`). */
  readonly gz?: Uint8Array;
  /** The frames' raw bytes, when the caller has them unpacked (a run's warm-up frames, rendered alone): nothing to gunzip. */
  readonly raw?: Uint8Array;
  /**
   * What to read (issue 23): both the borders (with calcium) and each frame's stent struts (the
   * default, for callers that want both at once); only the borders, as a record's detection reads
   * every chunk (the MLA waits for them, not for the struts); or only the struts, which it reads
   * of every chunk once every border is in.
   */
  readonly read?: ChunkReading;
  /** The previous frame's borders and pixels (continuity), or null at the start of a run. */
  readonly carry: BorderCarry | null;
  /**
   * Detect only the chunk's last this many frames: a run that starts mid-record warms up on the
   * frames before it, so its first frame continues from them like every other frame.
   */
  readonly lastFrames?: number;
}

export type ChunkReading = 'borders-and-stent' | 'borders' | 'stent';

/** A chunk's borders and, frame by frame in the same order, what the stent's struts and wall showed. */
export interface ChunkDetection extends BorderSequenceDetection {
  readonly stent: StentFrameReading[];
}

export type ContourJobResult =
  | { readonly id: number; readonly detections: SliceDetection[]; readonly carry: BorderCarry | null; readonly stent: StentFrameReading[] }
  | { readonly id: number; readonly error: string };

// The detector's tables depend only on the frame geometry: keep the last one (records share it).
type Detectors = { detector: BorderDetector; calcium: CalciumArcDetector; struts: StrutDetector };
let cached: (Detectors & { key: string }) | null = null;

function detectorsFor(frameWidth: number, frameHeight: number, pixelSpacingMm: number): Detectors {
  const key = `${frameWidth}x${frameHeight}/${pixelSpacingMm}`;
  if (cached?.key !== key) {
    const geometry = { frameWidth, frameHeight, pixelSpacingMm };
    // IVUS frames are centred on the catheter (as the review's own stent reading assumes).
    const struts = createStrutDetector({ ...geometry, centreX: frameWidth / 2, centreY: frameHeight / 2 });
    cached = { key, detector: createBorderDetector(geometry), calcium: createCalciumArcDetector(geometry), struts };
  }
  return cached;
}

export function detectChunk(job: Omit<ContourJob, 'id' | 'gz' | 'raw'>, frames: Uint8Array): ChunkDetection {
  const { detector, calcium, struts } = detectorsFor(job.frameWidth, job.frameHeight, job.pixelSpacingMm);
  const frameBytes = job.frameWidth * job.frameHeight;
  const from = job.lastFrames === undefined ? 0 : Math.max(0, frames.length - job.lastFrames * frameBytes);
  const run = frames.subarray(from);
  const read = job.read ?? 'borders-and-stent';
  // The stent (issue 28) needs every frame's struts before its segment and borders can be found: each frame is read here, the record's stent at the end.
  const stent: StentFrameReading[] = [];
  if (read !== 'borders') {
    for (let offset = 0; offset + frameBytes <= run.length; offset += frameBytes) stent.push(struts.detect(run.subarray(offset, offset + frameBytes)));
  }
  if (read === 'stent') return { detections: [], carry: null, stent };
  const result = detectBorderSequence(detector, run, job, job.carry);
  // Calcium (issue 28) on the borders just found: the border detector itself knows nothing of it.
  const centre = { x: job.frameWidth / 2, y: job.frameHeight / 2 };
  return { ...result, detections: withCalcium(calcium, result.detections, run, frameBytes, centre), stent };
}

/** The job's frames, raw: as given, or unpacked from the stored gzip chunk. */
export function jobFrames(job: Pick<ContourJob, 'gz' | 'raw'>, gunzip: (gz: Uint8Array) => Uint8Array): Uint8Array {
  if (job.raw) return job.raw;
  if (job.gz) return gunzip(job.gz);
  throw new Error('a contour job carries its frames, raw or gzip');
}

/** The buffers of a chunk's stent readings (each frame's wall bins), to move them to another thread. */
export function stentTransfer(stent: readonly StentFrameReading[]): ArrayBuffer[] {
  return stent.map((reading) => reading.wall.buffer as ArrayBuffer);
}

/** The buffers of a carry, to move it to another thread instead of copying it. */
export function carryTransfer(carry: BorderCarry | null): ArrayBuffer[] {
  return carry ? [carry.lumenRadiiPx.buffer as ArrayBuffer, carry.vesselRadiiPx.buffer as ArrayBuffer, carry.frame.buffer as ArrayBuffer] : [];
}

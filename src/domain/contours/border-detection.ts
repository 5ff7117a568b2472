/**
 * The contract of automatic border detection (issue 15): per B-mode frame, the lumen border and the
 * vessel border (external elastic membrane, the media-adventitia interface), the lumen inside the
 * vessel, with a confidence. The server's record pipeline, the command-line detector
 * (`npm run -s detect`) and `npm run bench:contours` all go through this one interface.
 *
 * Frames are 8-bit grayscale, row-major, any width and height; coordinates are image pixels (x right,
 * y down, origin at the top-left pixel's corner, so the top-left pixel's centre is (0.5, 0.5)).
 */
import type { Point } from '../annotations/manifest.ts';

/** Rays round the catheter the borders are searched on. */
export const DEFAULT_ANGLE_COUNT = 360;
/** Control points of a detected border (the contour tool draws the smooth closed curve through them). */
export const DEFAULT_CONTROL_POINTS = 16;

export interface BorderDetectorOptions {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  /** Catheter centre in image coordinates; the frame's middle by default. */
  readonly centreX?: number;
  readonly centreY?: number;
}

/** One closed border. */
export interface Border {
  /** Radius per ray in pixels from the catheter centre (ray a at angle 2πa / radiiPx.length, 0 along +x, towards +y). */
  readonly radiiPx: Float32Array;
  /** The dense closed polygon (one vertex per ray), in image pixels. */
  readonly polygon: Point[];
  /** A few control points evenly spaced in angle, through which the contour tool draws its smooth closed curve. */
  readonly controlPoints: Point[];
}

export interface BorderDetection {
  readonly lumen: Border;
  /** Never inside the lumen: vessel.radiiPx[a] > lumen.radiiPx[a] on every ray. */
  readonly vessel: Border;
  /**
   * 0 to 1: how far the detector trusts this frame's borders (edge strength, rays lost in shadows,
   * agreement with the neighbouring frames). Below LOW_CONFIDENCE the review flags the slice. Whether
   * the frame was read at all is `readable`, not this (many good frames score low).
   */
  readonly confidence: number;
  /**
   * Whether the detector could read the frame at all (frame-readability.ts: a catheter ring-down,
   * seeing rays, borders not pinned at the field's edge). False: the frame gets no border. Absent
   * on detections made before it existed, which fall back to isUnreadable(confidence).
   */
  readonly readable?: boolean;
  /**
   * Whether a reference frame shaped the borders (it was a temporal neighbour: its speckle cue, and
   * its borders as continuity when trusted). False or absent: the frame was detected exactly as if alone.
   */
  readonly usedReference?: boolean;
  /**
   * Set by detectInSequence when the frame's result with its reference was set aside for its result
   * alone: the two disagreed, so these borders do not guide the next frame (its cue still may).
   */
  readonly secondOpinionKept?: boolean;
  /**
   * Set by detectInSequence when the lumen lay on the EEM (lumen-on-eem.ts) and the frame's result
   * alone did too: a thin wall that is real, over this share of the rays. The next frame hugging
   * no more than that is not detected alone again.
   */
  readonly confirmedHugShare?: number;
  /** Mean distance (mm) of the EEM's path from its robust ellipse (carried-eem.ts eemShapeResidual); Infinity when too few rays see. */
  readonly eemResidualMm?: number;
}

/** Slices with a confidence below this are flagged for the clinician to check. */
export const LOW_CONFIDENCE = 0.5;

/**
 * For detections without `readable` (stored before it existed): below this confidence the frame is
 * taken as unread. The detector now decides readability from the frame itself (frame-readability.ts),
 * because 3 % of good frames (10 % of frames detected alone) score below this cut. Originally:
 * below this confidence the detector could not read the frame at all (issue 23: on frames it cannot
 * read it used to put both borders at the edge of the field of view with confidence 0), and the
 * frame gets NO border rather than a guessed one: a border the clinician sees is one the detector
 * stands behind, and an edge-of-image "lumen" would otherwise become the largest reference area or
 * an absurd MLA. 0.2 is the detector's own "cannot read" band (the detector is tuned so frames it
 * cannot read score below it); between this and LOW_CONFIDENCE a border is shown and flagged for checking.
 */
export const UNREADABLE_CONFIDENCE = 0.2;

/** Whether a frame detected with this confidence gets no border (NaN, a confidence that is no number, counts as unreadable). */
export function isUnreadable(confidence: number): boolean {
  return !(confidence >= UNREADABLE_CONFIDENCE);
}

export interface BorderDetector {
  /**
   * Detects both borders on `frame`. `previous` is the detection of the frame before it in the
   * pullback (continuity), `previousFrame` that frame's pixels (blood speckle decorrelates from frame
   * to frame, tissue persists); both null for the first frame of a run.
   */
  detect(frame: Uint8Array, previous: BorderDetection | null, previousFrame: Uint8Array | null): BorderDetection;
}

/**
 * Detection over consecutive frames: each frame's borders (and its pixels) seed the detection of the
 * next, and every border is measured as it comes. Frames are concatenated 8-bit images, as the frame
 * chunks carry them.
 *
 * Frames need not follow each other: the detector tells whether a frame and its reference are
 * temporal neighbours and otherwise detects the frame as if alone (border-detector.ts), so a carry
 * from a frame that is no neighbour, or whose detection failed, transmits nothing. A neighbour's
 * frame that comes out unsure is detected alone as well (detectInSequence).
 *
 * A run of frames can be split across chunks and worker threads: what the next chunk needs from the
 * last frame of the previous one travels as a BorderCarry (typed arrays and plain points, so a
 * structured clone or a transfer moves it cheaply) rather than as the detector's own objects.
 */
import type { Point } from '../annotations/manifest.ts';
import type { SliceDetection } from './api.ts';
import { type BorderDetection, type BorderDetector } from './border-detection.ts';
import { isBentEem, straightensEem } from './bent-eem.ts';
import { HUG_SHARE, lumenGrewOntoEem, wallHugShare } from './lumen-on-eem.ts';
import { lumenAreaMm2, measureContour } from './measurements.ts';
import { polygonOf } from './radial-profile.ts';

export interface FrameGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
}

/** The last detected frame of a run, as the next run of frames continues from it. */
export interface BorderCarry {
  readonly lumenRadiiPx: Float32Array;
  readonly vesselRadiiPx: Float32Array;
  readonly lumenControlPoints: Point[];
  readonly vesselControlPoints: Point[];
  readonly confidence: number;
  /** That frame's pixels (frameWidth · frameHeight bytes, a copy of its own): blood speckle decorrelates from frame to frame, tissue persists. */
  readonly frame: Uint8Array;
}

export interface BorderSequenceDetection {
  readonly detections: SliceDetection[];
  /** What the next run of frames continues from; null when there was no frame. */
  readonly carry: BorderCarry | null;
}

/**
 * The BorderDetection a carry stands for. Polygons are one vertex per ray around the detector's
 * catheter centre, which is the frame's middle (createBorderDetector's default, which the server uses).
 */
export function detectionOfCarry(carry: BorderCarry, geometry: FrameGeometry): BorderDetection {
  const centreX = geometry.frameWidth / 2;
  const centreY = geometry.frameHeight / 2;
  return {
    lumen: { radiiPx: carry.lumenRadiiPx, polygon: polygonOf(carry.lumenRadiiPx, centreX, centreY), controlPoints: carry.lumenControlPoints },
    vessel: { radiiPx: carry.vesselRadiiPx, polygon: polygonOf(carry.vesselRadiiPx, centreX, centreY), controlPoints: carry.vesselControlPoints },
    confidence: carry.confidence,
  };
}

/** The carry of a detection and its frame (copied: the frame may be a view into a larger chunk buffer). */
export function carryOf(detection: BorderDetection, frame: Uint8Array): BorderCarry {
  const copyPoints = (points: readonly Point[]) => points.map(({ x, y }) => ({ x, y }));
  return {
    lumenRadiiPx: Float32Array.from(detection.lumen.radiiPx),
    vesselRadiiPx: Float32Array.from(detection.vessel.radiiPx),
    lumenControlPoints: copyPoints(detection.lumen.controlPoints),
    vesselControlPoints: copyPoints(detection.vessel.controlPoints),
    confidence: detection.confidence,
    frame: frame.slice(),
  };
}

/** Measures a detection the way the contour tool draws it: on the curves through the control points. */
export function measureDetection(detection: BorderDetection, pixelSpacingMm: number): SliceDetection {
  const lumen = detection.lumen.controlPoints;
  const vessel = detection.vessel.controlPoints;
  return {
    controlPoints: lumen,
    ...measureContour(lumen, pixelSpacingMm),
    vessel: { controlPoints: vessel, areaMm2: lumenAreaMm2(vessel, pixelSpacingMm) },
    confidence: detection.confidence,
    ...(detection.readable === undefined ? {} : { readable: detection.readable }),
  };
}

/**
 * A frame its reference shaped gets a second opinion, detected alone, when its confidence is below
 * this. At 0.3 a cardiac-motion frame the cue misled (tuning seed 1104, frame 1534: lumen Dice 0.92
 * against 0.995 alone) scored 0.498 and kept its loss; at LOW_CONFIDENCE (0.5) cardiac-motion frames
 * at 0.51–0.52 kept theirs. From 0.5 to 0.55 the TUNING seeds add 1.7 % of the sequence frames to
 * the second pass, and the 4 of them the odds rule then swaps all gain (up to 0.087 Dice).
 */
export const SECOND_OPINION_CONFIDENCE = 0.55;
/**
 * The result alone replaces the sequence's only when its odds of being right (confidence / (1 −
 * confidence)) are this many times the sequence result's, a logit 1.5 ahead. The confidence's own
 * penalty for a frame without a temporal cue is 1.36 (confidence.ts); a smaller lead picked results
 * alone that scored a little higher and were worse (mixed 20 MHz and eccentric-catheter tuning
 * frames, down to −0.12 Dice), while the misled frames are far behind (odds ratios of 16 and more).
 */
export const SECOND_OPINION_ODDS = 4.5;

/**
 * One frame of a run, detected with the frame before as its reference (detector.detect), and kept
 * only when it is no worse than the frame alone (issue 23: continuity helps, and never carries a
 * failure). A true neighbour's temporal cue can still mislead a frame two ways:
 * - unsure: its confidence falls (60 MHz cardiac motion: lumen Dice 0.99 alone, 0.87 with the cue);
 *   below SECOND_OPINION_CONFIDENCE it is detected alone as well, and the result alone kept when it
 *   is clearly more confident;
 * - sure and wrong: the lumen grows through dark plaque onto the EEM (lumen-on-eem.ts; low-signal
 *   arc, echolucent plaque: lumen Dice 0.61 at confidence 0.65, 0.96 alone); a result that hugs the
 *   EEM is detected alone as well, and the result alone kept when its lumen did not grow.
 * - bent: the final EEM is not near-elliptical, held there by the lumen the continuity carried
 *   (bent-eem.ts; low-signal arc: vessel Dice 0.84 against 0.985 alone); it is detected alone as
 *   well, and the EEM alone kept when it is near-elliptical, with the run's lumen (keptLumen).
 * A result alone that replaced the sequence's does not guide the next frame (its borders are not
 * continuity, secondOpinionKept): the two readings disagreed, and one taken alone with a worse EEM
 * had carried it into the next frames (low-signal-arc tuning seed 1104). The next frame still uses
 * the cue. A frame detected as if alone (no neighbour) is not detected again: it would give the
 * same borders.
 */
export function detectInSequence(detector: BorderDetector, frame: Uint8Array, previous: BorderDetection | null, reference: Uint8Array | null, pixelSpacingMm: number): BorderDetection {
  const detection = detector.detect(frame, previous?.secondOpinionKept === true ? null : previous, reference);
  if (detection.usedReference !== true) return detection;
  const hug = wallHugShare(detection, pixelSpacingMm);
  const confirmed = previous?.confirmedHugShare;
  const hugging = hug > HUG_SHARE && !(confirmed !== undefined && hug <= confirmed + HUG_CONFIRMED_MARGIN);
  const low = detection.confidence < SECOND_OPINION_CONFIDENCE;
  const bent = isBentEem(detection);
  const unchecked = confirmed !== undefined && hug > HUG_SHARE ? { ...detection, confirmedHugShare: confirmed } : detection;
  if (!hugging && !low && !bent) return unchecked;
  const alone = detector.detect(frame, null, null);
  const odds = (confidence: number): number => confidence / Math.max(1e-6, 1 - confidence);
  const grew = hugging && lumenGrewOntoEem(detection, hug, alone, pixelSpacingMm);
  const surer = (hugging || low) && odds(alone.confidence) > SECOND_OPINION_ODDS * odds(detection.confidence);
  if (grew || surer) return { ...alone, secondOpinionKept: true };
  if (bent && straightensEem(alone)) {
    const lumen = keptLumen(detection, alone);
    return { ...alone, lumen, secondOpinionKept: lumen !== detection.lumen };
  }
  return hugging ? { ...detection, confirmedHugShare: hug } : unchecked;
}

/**
 * A frame whose lumen hugs the EEM over at most this share of the rays more than the frame before,
 * whose thin wall its result alone confirmed, is not detected alone again. Eccentric plaque leaves a
 * thin wall over an arc on whole runs (the demo record: a second pass on about a fifth of the frames,
 * +11 % CPU for a 3,600-frame record, without it); a lumen that grows onto the EEM hugs 8–20 % more.
 */
const HUG_CONFIRMED_MARGIN = 0.03;

/** Lumen and vessel borders of every frame of `frames`, continuing from `carry` (null at the start of a run). */
export function detectBorderSequence(detector: BorderDetector, frames: Uint8Array, geometry: FrameGeometry, carry: BorderCarry | null = null): BorderSequenceDetection {
  const { frameWidth, frameHeight } = geometry;
  const frameBytes = frameWidth * frameHeight;
  if (!(frameBytes > 0) || frames.length % frameBytes !== 0) throw new RangeError(`frames must be whole ${frameWidth}x${frameHeight} images, got ${frames.length} bytes`);
  if (carry && carry.frame.length !== frameBytes) throw new RangeError(`the carried frame must hold ${frameBytes} bytes, got ${carry.frame.length}`);
  const detections: SliceDetection[] = [];
  let previous = carry ? detectionOfCarry(carry, geometry) : null;
  let previousFrame = carry?.frame ?? null;
  for (let offset = 0; offset < frames.length; offset += frameBytes) {
    const frame = frames.subarray(offset, offset + frameBytes);
    // The first frame of a pullback has no frame before it: the one after it gives the temporal cue
    // (blood decorrelates between two frames whichever comes first); without it, bright blood at
    // 40–60 MHz passes for tissue on that frame. The detector itself uses a reference frame (and the
    // previous borders) only when the two frames are temporal neighbours, and the previous borders
    // only when they were trusted (frame-neighbours.ts): frames in any order, gated, with drops or
    // from two runs give each frame its result alone, and a failed frame does not carry.
    const temporalReference = previousFrame ?? (frames.length >= 2 * frameBytes ? frames.subarray(frameBytes, 2 * frameBytes) : null);
    const detection = detectInSequence(detector, frame, previous, temporalReference, geometry.pixelSpacingMm);
    detections.push(measureDetection(detection, geometry.pixelSpacingMm));
    previous = detection;
    previousFrame = frame;
  }
  return { detections, carry: previous && previousFrame ? carryOf(previous, previousFrame) : carry };
}

/**
 * The lumen of a frame whose bent EEM gives way to the frame alone's: the EEM was what was wrong, and
 * the run's lumen had the temporal cue the frame alone lacks. Since the EEM on calcium is bridged
 * (vessel-blind.ts) more frames alone have a near-elliptical EEM, and taking their lumen too lost
 * what the cue gave (eccentric-catheter tuning 1103 frames 706–717: lumen Dice 0.96 in the run,
 * 0.925 alone). Kept when the EEM alone lies outside it on every ray, and then the result guides
 * the next frame as any other (its EEM is the near-elliptical one); otherwise the frame alone's.
 */
function keptLumen(run: BorderDetection, alone: BorderDetection): BorderDetection['lumen'] {
  const lumen = run.lumen.radiiPx;
  const vessel = alone.vessel.radiiPx;
  if (lumen.length !== vessel.length) return alone.lumen;
  for (let a = 0; a < lumen.length; a++) if (vessel[a]! <= lumen[a]!) return alone.lumen;
  return run.lumen;
}

/**
 * `GET /api/{tenant}/records/{recordId}/contours`: the automatic lumen and vessel (external elastic
 * membrane) borders of a record's B-mode frames and the pullback analysis made from them. Shared by
 * the server (which builds it) and the browser (which reads it).
 *
 * - 202 ContoursProcessing while the contours are being computed (poll again).
 * - 200 RecordContours when they are ready.
 *
 * Slices are 1-based (slice n is frame n − 1), as everywhere in the review; control points are image
 * pixels; areas are mm² and diameters mm, rounded for the wire only (see roundTo). A frame the
 * detector could not read is sent without a border (NoBorderSlice, issue 23) and takes no part in
 * the analysis.
 */
import { z } from 'zod';
import { PointSchema } from '../annotations/point.ts';
import { analysePullback, eccentricity, findMaxPlaqueBurden, plaqueOf, type SliceArea } from './measurements.ts';
import { isUnreadable, LOW_CONFIDENCE } from './border-detection.ts';

export const ContoursProcessingSchema = z.object({
  status: z.literal('processing'),
  /** Frames done so far, out of total. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /**
   * Frames in the provisional contours published so far (provisional-contours.ts; absent or 0:
   * none yet): the page fetches them again when this grows.
   */
  provisionalFrames: z.number().int().nonnegative().optional(),
});
export type ContoursProcessing = z.infer<typeof ContoursProcessingSchema>;

const sliceNumber = z.number().int().min(1);
const fraction = z.number().min(0).max(1);

export const SliceAreaSchema = z.object({ slice: sliceNumber, areaMm2: z.number().nonnegative() });
export type SliceAreaResult = z.infer<typeof SliceAreaSchema>;

/**
 * The slice's calcium (issue 28, domain/calcium): its largest arc in degrees (0: none) and where the
 * arc starts and ends (degrees from +x turning towards +y, as the image's rays), and whether it is a
 * calcified nodule. Absent on contours detected before calcium was.
 */
export const SliceCalciumSchema = z.object({
  arcDeg: z.number().min(0).max(360),
  startDeg: z.number().min(0).max(360),
  endDeg: z.number().min(0).max(360),
  nodule: z.boolean(),
});
export type SliceCalcium = z.infer<typeof SliceCalciumSchema>;

/**
 * One slice's borders. The lumen's fields sit at the top level (as before the vessel border
 * existed); the vessel's under `vessel`. Contours stored before issue 23 all have this shape.
 */
export const BorderedContourSchema = z.object({
  slice: sliceNumber,
  /** The lumen border's control points. */
  controlPoints: z.array(PointSchema).min(3),
  /** Lumen area: of the smooth closed curve through the control points (measurements.ts: lumenAreaMm2). */
  areaMm2: z.number().nonnegative(),
  /** Shortest and longest lumen chord through the centroid (measurements.ts: diametersThroughCentroid). */
  minDiameterMm: z.number().nonnegative(),
  maxDiameterMm: z.number().nonnegative(),
  /** Lumen eccentricity, (max − min) / max diameter. */
  eccentricity: fraction,
  /** The vessel (external elastic membrane) border, measured like the lumen's. */
  vessel: z.object({ controlPoints: z.array(PointSchema).min(3), areaMm2: z.number().nonnegative() }),
  /** Plaque + media area: vessel − lumen area. */
  plaqueAreaMm2: z.number().nonnegative(),
  /** (vessel − lumen) / vessel, a fraction. */
  plaqueBurden: fraction,
  /** How far the detector trusts this slice's borders; below LOW_CONFIDENCE the slice is one to check. */
  confidence: fraction,
  calcium: SliceCalciumSchema.optional(),
});
export type BorderedContour = z.infer<typeof BorderedContourSchema>;

/**
 * A slice the detector could not read (BorderDetection.readable false, frame-readability.ts; for
 * detections without it, a confidence below UNREADABLE_CONFIDENCE, border-detection.ts):
 * it carries no border and no figures, so nothing downstream can measure, plot or report a border
 * that was never found. The clinician may still draw one by hand (a manual contour then counts).
 */
export const NoBorderSliceSchema = z.object({
  slice: sliceNumber,
  noBorder: z.literal(true),
  confidence: fraction,
});
export type NoBorderSlice = z.infer<typeof NoBorderSliceSchema>;

export const DetectedContourSchema = z.union([NoBorderSliceSchema, BorderedContourSchema]);
export type DetectedContour = z.infer<typeof DetectedContourSchema>;

/** Whether the detector gave this slice its borders (false: it could not read the frame). */
export function hasBorder(contour: DetectedContour): contour is BorderedContour {
  return !('noBorder' in contour);
}

export const RecordContoursSchema = z.object({
  /** The imaging version the contours were detected on. */
  version: z.string(),
  frameCount: z.number().int().nonnegative(),
  pixelSpacingMm: z.number().positive(),
  /** One entry per slice, in slice order: its borders, or `noBorder` where the detector could not read the frame. */
  contours: z.array(DetectedContourSchema),
  /** The minimal lumen area slice, among slices with a border; null when no slice has one. */
  mla: SliceAreaSchema.nullable(),
  /** Largest lumen within 10 mm of the MLA on each side (null where that side has no slice). */
  references: z.object({ proximal: SliceAreaSchema.nullable(), distal: SliceAreaSchema.nullable() }),
  /** 100 · (mean reference area − MLA) / mean reference area; null without an MLA or a reference. */
  stenosisPercent: z.number().nullable(),
  /** The slice of the largest plaque burden (the first if several tie), among slices with a border; null when no slice has one. */
  maxPlaqueBurden: z.object({ slice: sliceNumber, plaqueBurden: fraction }).nullable(),
  /** The slices whose confidence is below LOW_CONFIDENCE, ascending: the ones the clinician should check (no-border slices among them). */
  lowConfidenceSlices: z.array(sliceNumber),
});
export type RecordContours = z.infer<typeof RecordContoursSchema>;

/** Control points are sent to 0.01 px, measurements and fractions to 4 decimals: far below what matters. */
const roundTo = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

type PointLike = { readonly x: number; readonly y: number };

/** One frame's detection, measured (detect-sequence.ts), before rounding for the wire. */
export interface SliceDetection {
  /** The lumen border. */
  readonly controlPoints: readonly PointLike[];
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
  readonly vessel: { readonly controlPoints: readonly PointLike[]; readonly areaMm2: number };
  readonly confidence: number;
  /** Whether the detector could read the frame (BorderDetection.readable); absent on older detections, which fall back to the confidence cut. */
  readonly readable?: boolean;
  /** The frame's calcium (domain/calcium: slice-calcium.ts); absent where it was not looked for. */
  readonly calcium?: SliceCalcium;
}

const roundPoints = (points: readonly PointLike[]) => points.map(({ x, y }) => ({ x: roundTo(x, 2), y: roundTo(y, 2) }));

/** A border the detector really gave: at least 3 finite control points. */
const isBorder = (points: readonly PointLike[]) => points.length >= 3 && points.every(({ x, y }) => Number.isFinite(x) && Number.isFinite(y));

/** One frame's detection as it goes on the wire: rounded, or no border where the detector could not read the frame. */
export function toWire(detection: SliceDetection, slice: number): DetectedContour {
  // A confidence that is not a number is no confidence at all; one outside 0..1 is clamped.
  const confidence = roundTo(Number.isFinite(detection.confidence) ? Math.min(1, Math.max(0, detection.confidence)) : 0, 4);
  // Here, where the wire shape is built, an unreadable frame loses the borders the detector guessed
  // (the edge of the field of view, typically): the detector itself needs to know nothing of this.
  const unreadable = detection.readable === undefined ? isUnreadable(confidence) : !detection.readable;
  if (unreadable || !isBorder(detection.controlPoints) || !isBorder(detection.vessel.controlPoints)) {
    return { slice, noBorder: true, confidence };
  }
  const areaMm2 = roundTo(detection.areaMm2, 4);
  const minDiameterMm = roundTo(detection.minDiameterMm, 4);
  const maxDiameterMm = roundTo(detection.maxDiameterMm, 4);
  const vesselAreaMm2 = roundTo(detection.vessel.areaMm2, 4);
  const plaque = plaqueOf(areaMm2, vesselAreaMm2);
  return {
    slice,
    controlPoints: roundPoints(detection.controlPoints),
    areaMm2,
    minDiameterMm,
    maxDiameterMm,
    eccentricity: roundTo(eccentricity({ min: minDiameterMm, max: maxDiameterMm }), 4),
    vessel: { controlPoints: roundPoints(detection.vessel.controlPoints), areaMm2: vesselAreaMm2 },
    plaqueAreaMm2: roundTo(plaque.plaqueAreaMm2, 4),
    plaqueBurden: roundTo(plaque.plaqueBurden, 4),
    confidence,
    ...(detection.calcium === undefined ? {} : { calcium: detection.calcium }),
  };
}

/**
 * The 200 body from one detection per frame (frame i is slice i + 1): rounded for the wire, with the
 * plaque figures, the MLA, the reference slices within REFERENCE_WINDOW_MM, the area stenosis of
 * analysePullback, the maximal plaque burden and the low-confidence slices. Derived figures are
 * computed from the rounded ones, so the body agrees with itself to the last decimal. Slices without
 * a border take no part in the MLA, the references or the plaque burden.
 */
export function buildRecordContours(input: {
  readonly version: string;
  readonly pixelSpacingMm: number;
  readonly framesPerMm: number;
  readonly detections: readonly SliceDetection[];
}): RecordContours {
  const contours = input.detections.map((detection, index) => toWire(detection, index + 1));
  const analysis = analysePullback(
    contours.map((contour) => (hasBorder(contour) ? contour.areaMm2 : Number.NaN)),
    input.framesPerMm,
  );
  const sliceOf = (found: SliceArea | null) => (found === null ? null : { slice: found.index + 1, areaMm2: found.areaMm2 });
  const maxBurden = findMaxPlaqueBurden(contours.map((contour) => (hasBorder(contour) ? contour.plaqueBurden : Number.NaN)));
  return {
    version: input.version,
    frameCount: contours.length,
    pixelSpacingMm: input.pixelSpacingMm,
    contours,
    mla: sliceOf(analysis.mla),
    references: { proximal: sliceOf(analysis.references.proximal), distal: sliceOf(analysis.references.distal) },
    stenosisPercent: analysis.stenosisPercent === null ? null : roundTo(analysis.stenosisPercent, 2),
    maxPlaqueBurden: maxBurden === null ? null : { slice: maxBurden.index + 1, plaqueBurden: maxBurden.plaqueBurden },
    // A slice without a border is always one to check, whatever confidence came with it.
    lowConfidenceSlices: contours.filter((contour) => !hasBorder(contour) || contour.confidence < LOW_CONFIDENCE).map((contour) => contour.slice),
  };
}

/**
 * `GET /api/{tenant}/records/{recordId}/contours`: the automatic lumen contours of a record's B-mode
 * frames and the pullback analysis made from them. Shared by the server (which builds it) and the
 * browser (which reads it).
 *
 * - 202 ContoursProcessing while the contours are being computed (poll again).
 * - 200 RecordContours when they are ready.
 *
 * Slices are 1-based (slice n is frame n − 1), as everywhere in the review; control points are image
 * pixels; areas are mm² and diameters mm, not rounded for display.
 */
import { z } from 'zod';
import { PointSchema } from '../annotations/point.ts';
import { analysePullback, type SliceArea } from './measurements.ts';

export const ContoursProcessingSchema = z.object({
  status: z.literal('processing'),
  /** Frames done so far, out of total. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type ContoursProcessing = z.infer<typeof ContoursProcessingSchema>;

const sliceNumber = z.number().int().min(1);

export const SliceAreaSchema = z.object({ slice: sliceNumber, areaMm2: z.number().nonnegative() });
export type SliceAreaResult = z.infer<typeof SliceAreaSchema>;

export const DetectedContourSchema = z.object({
  slice: sliceNumber,
  controlPoints: z.array(PointSchema).min(3),
  /** Area of the smooth closed curve through the control points (measurements.ts: lumenAreaMm2). */
  areaMm2: z.number().nonnegative(),
  /** Shortest and longest chord through the centroid (measurements.ts: diametersThroughCentroid). */
  minDiameterMm: z.number().nonnegative(),
  maxDiameterMm: z.number().nonnegative(),
});
export type DetectedContour = z.infer<typeof DetectedContourSchema>;

export const RecordContoursSchema = z.object({
  /** The imaging version the contours were detected on. */
  version: z.string(),
  frameCount: z.number().int().nonnegative(),
  pixelSpacingMm: z.number().positive(),
  /** One contour per slice, in slice order. */
  contours: z.array(DetectedContourSchema),
  /** The minimal lumen area slice; null only for a record without frames. */
  mla: SliceAreaSchema.nullable(),
  /** Largest lumen within 10 mm of the MLA on each side (null where that side has no slice). */
  references: z.object({ proximal: SliceAreaSchema.nullable(), distal: SliceAreaSchema.nullable() }),
  /** 100 · (mean reference area − MLA) / mean reference area; null without an MLA or a reference. */
  stenosisPercent: z.number().nullable(),
});
export type RecordContours = z.infer<typeof RecordContoursSchema>;

/** Control points are sent to 0.01 px, measurements to 0.0001 mm (or mm²): far below what matters. */
const roundTo = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

export interface SliceDetection {
  readonly controlPoints: readonly { x: number; y: number }[];
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
}

/**
 * The 200 body from one detection per frame (frame i is slice i + 1): rounded for the wire, with
 * the MLA, the reference slices within REFERENCE_WINDOW_MM and the area stenosis of analysePullback.
 */
export function buildRecordContours(input: {
  readonly version: string;
  readonly pixelSpacingMm: number;
  readonly framesPerMm: number;
  readonly detections: readonly SliceDetection[];
}): RecordContours {
  const contours: DetectedContour[] = input.detections.map((detection, index) => ({
    slice: index + 1,
    controlPoints: detection.controlPoints.map(({ x, y }) => ({ x: roundTo(x, 2), y: roundTo(y, 2) })),
    areaMm2: roundTo(detection.areaMm2, 4),
    minDiameterMm: roundTo(detection.minDiameterMm, 4),
    maxDiameterMm: roundTo(detection.maxDiameterMm, 4),
  }));
  const analysis = analysePullback(
    contours.map((contour) => contour.areaMm2),
    input.framesPerMm,
  );
  const sliceOf = (found: SliceArea | null) => (found === null ? null : { slice: found.index + 1, areaMm2: found.areaMm2 });
  return {
    version: input.version,
    frameCount: contours.length,
    pixelSpacingMm: input.pixelSpacingMm,
    contours,
    mla: sliceOf(analysis.mla),
    references: { proximal: sliceOf(analysis.references.proximal), distal: sliceOf(analysis.references.distal) },
    stenosisPercent: analysis.stenosisPercent === null ? null : roundTo(analysis.stenosisPercent, 2),
  };
}

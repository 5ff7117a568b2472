/**
 * The per-slice lumen contour set (spec section 3, colour #9cc5c6): one closed contour per slice,
 * given by its control points in image pixels (the contour tool draws the smooth closed curve
 * through them), and where it came from: the automatic detection or a clinician's correction. Made
 * for the annotation manifest to carry as an optional field, so manifests saved without it stay valid.
 */
import { z } from 'zod';
import { PointSchema } from '../annotations/point.ts';

/** A contour has at least 3 and at most this many control points. */
export const MAX_CONTOUR_CONTROL_POINTS = 64;
/** A contour set holds at most this many slices (the longest pullbacks have a few thousand frames). */
export const MAX_CONTOUR_SLICES = 20_000;

export const CONTOUR_SOURCES = ['auto', 'manual'] as const;
export type ContourSource = (typeof CONTOUR_SOURCES)[number];

export const SliceContourSchema = z.strictObject({
  /** 1-based, as the manifest's slices and the review's slice indicator. */
  slice: z.number().int({ error: 'slice must be a whole number' }).min(1, { error: 'slice must be 1 or more (slices are 1-based)' }),
  controlPoints: z
    .array(PointSchema)
    .min(3, { error: 'a contour needs at least 3 control points' })
    .max(MAX_CONTOUR_CONTROL_POINTS, { error: `a contour has at most ${MAX_CONTOUR_CONTROL_POINTS} control points` }),
  /** 'manual' (a clinician's correction) wins over 'auto' (the detector's result). */
  source: z.enum(CONTOUR_SOURCES, { error: 'source must be auto or manual' }),
});
export type SliceContour = z.infer<typeof SliceContourSchema>;

/** One contour per slice at most. */
export const ContourSetSchema = z
  .array(SliceContourSchema)
  .max(MAX_CONTOUR_SLICES, { error: `a contour set has at most ${MAX_CONTOUR_SLICES} slices` })
  .superRefine((contours, ctx) => {
    const seen = new Set<number>();
    contours.forEach((contour, index) => {
      if (seen.has(contour.slice)) ctx.addIssue({ code: 'custom', path: [index, 'slice'], message: `slice ${contour.slice} has two contours` });
      seen.add(contour.slice);
    });
  });
export type ContourSet = z.infer<typeof ContourSetSchema>;

/**
 * The contour of each slice after corrections: a manual contour replaces the automatic one of its
 * slice; slices with only an automatic contour keep it. Sorted by slice.
 */
export function mergeContours(automatic: readonly SliceContour[], manual: readonly SliceContour[]): SliceContour[] {
  const bySlice = new Map<number, SliceContour>();
  for (const contour of automatic) bySlice.set(contour.slice, contour);
  for (const contour of manual) bySlice.set(contour.slice, contour);
  return [...bySlice.values()].sort((a, b) => a.slice - b.slice);
}

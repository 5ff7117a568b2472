/**
 * The per-slice contour set of the annotation manifest: per slice, at most one lumen contour
 * (colour #9cc5c6) and one vessel contour (external elastic membrane, VESSEL_CONTOUR_COLOR), each
 * given by its control points in image pixels (the contour tool draws the smooth closed curve
 * through them), and where it came from: the automatic detection or a clinician's correction. Made
 * for the annotation manifest to carry as an optional field, so manifests saved without it stay valid.
 */
import { z } from 'zod';
import { PointSchema } from './point.ts';

/** A contour has at least 3 and at most this many control points. */
export const MAX_CONTOUR_CONTROL_POINTS = 64;
/** A contour set covers at most this many slices (the longest pullbacks have a few thousand frames). */
export const MAX_CONTOUR_SLICES = 20_000;

export const CONTOUR_SOURCES = ['auto', 'manual'] as const;
export type ContourSource = (typeof CONTOUR_SOURCES)[number];

/** The two borders of a slice: the lumen's, and the vessel's (external elastic membrane) around it. */
export const CONTOUR_BORDERS = ['lumen', 'vessel'] as const;
export type ContourBorder = (typeof CONTOUR_BORDERS)[number];

export const SliceContourSchema = z.strictObject({
  /** 1-based, as the manifest's slices and the review's slice indicator. */
  slice: z.number().int({ error: 'slice must be a whole number' }).min(1, { error: 'slice must be 1 or more (slices are 1-based)' }),
  /**
   * Which border this contour is. Absent means 'lumen': manifests saved before the vessel border
   * existed carry lumen contours without the field, and must keep their meaning.
   */
  border: z.enum(CONTOUR_BORDERS, { error: 'border must be lumen or vessel' }).optional(),
  controlPoints: z
    .array(PointSchema)
    .min(3, { error: 'a contour needs at least 3 control points' })
    .max(MAX_CONTOUR_CONTROL_POINTS, { error: `a contour has at most ${MAX_CONTOUR_CONTROL_POINTS} control points` }),
  /** 'manual' (a clinician's correction) wins over 'auto' (the detector's result). */
  source: z.enum(CONTOUR_SOURCES, { error: 'source must be auto or manual' }),
});
export type SliceContour = z.infer<typeof SliceContourSchema>;

/** The border a stored contour is of ('lumen' when the field is absent). */
export function borderOf(contour: Pick<SliceContour, 'border'>): ContourBorder {
  return contour.border ?? 'lumen';
}

/** One contour per slice and border at most. */
export const ContourSetSchema = z
  .array(SliceContourSchema)
  .max(CONTOUR_BORDERS.length * MAX_CONTOUR_SLICES, { error: `a contour set has at most ${CONTOUR_BORDERS.length * MAX_CONTOUR_SLICES} contours` })
  .superRefine((contours, ctx) => {
    const seen = new Set<string>();
    contours.forEach((contour, index) => {
      const key = `${contour.slice}/${borderOf(contour)}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'slice'], message: `slice ${contour.slice} has two ${borderOf(contour)} contours` });
      seen.add(key);
    });
  });
export type ContourSet = z.infer<typeof ContourSetSchema>;

/**
 * The contours of each slice and border after corrections: a manual contour replaces the automatic
 * one of its slice and border; the others keep theirs. Sorted by slice, lumen before vessel.
 */
export function mergeContours(automatic: readonly SliceContour[], manual: readonly SliceContour[]): SliceContour[] {
  const byKey = new Map<string, SliceContour>();
  for (const contour of [...automatic, ...manual]) byKey.set(`${contour.slice}/${borderOf(contour)}`, contour);
  return [...byKey.values()].sort((a, b) => a.slice - b.slice || CONTOUR_BORDERS.indexOf(borderOf(a)) - CONTOUR_BORDERS.indexOf(borderOf(b)));
}

/** The manual contour of a slice's border in a contour set, if the clinician corrected it. */
export function findContour(contours: readonly SliceContour[] | undefined, slice: number, border: ContourBorder): SliceContour | null {
  return contours?.find((contour) => contour.slice === slice && borderOf(contour) === border) ?? null;
}

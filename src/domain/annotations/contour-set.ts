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

/**
 * Where a border the analysis measures came from: the detector ('auto'), a clinician's correction on
 * that slice ('manual', a key frame), or a key frame's correction carried onto this slice and blended
 * into the detected border ('propagated', contours/border-propagation.ts). Only the first two are ever stored:
 * a propagated border is recomputed from the key frames, never saved.
 */
export const BORDER_SOURCES = ['auto', 'manual', 'propagated'] as const;
export type BorderSource = (typeof BORDER_SOURCES)[number];

/**
 * How far a correction reaches each way by default: 2 mm, 120 frames at the usual 30 frames/s and
 * 0.5 mm/s. That is about the length of a focal detector failure (a side-branch ostium, a
 * guide-wire or calcium shadow, a stent strut cluster), and short against the 10 mm reference
 * windows: one correction fixes a local failure without reaching the next lesion or the references.
 * Here, beside the field it defaults, so that manifest edits need not import the propagation.
 */
export const DEFAULT_REACH_MM = 2;

/** A key frame reaches at most this far each way (a detector error over 2 cm is bridged by key frames, not by one reach). */
export const MAX_REACH_MM = 20;

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
  /**
   * How far along the pullback, each way, this correction blends into the detected border (a key
   * frame, border-propagation.ts). Absent (or 0) means this slice only: every correction saved before
   * key frames existed keeps the meaning and the figures it was saved with.
   */
  reachMm: z
    .number({ error: 'reachMm must be a number of millimetres' })
    .min(0, { error: 'reachMm must not be negative' })
    .max(MAX_REACH_MM, { error: `reachMm must be at most ${MAX_REACH_MM} mm` })
    .optional(),
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

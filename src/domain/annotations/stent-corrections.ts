/**
 * The stent border corrected by hand (issue 28): per slice at most one stent border the clinician
 * dragged into place on the B-mode frame, by its control points in image pixels (the contour tool
 * draws the smooth closed curve through them, as for the lumen and vessel). Carried by the
 * annotation manifest as an optional field of its own (`stentBorders`), so that every manifest
 * saved before it stays valid and the lumen/vessel contour set, its propagation and its readers
 * are left as they are. A stent correction holds on its own slice only: the struts are read again
 * on every frame, and a stent's area changes along it, so nothing is carried onto neighbours.
 */
import { z } from 'zod';
import { MAX_CONTOUR_CONTROL_POINTS, MAX_CONTOUR_SLICES, type ContourBorder } from './contour-set.ts';
import { PointSchema, strict, type Point } from './point.ts';

export const StentBorderCorrectionSchema = strict({
  /** 1-based, as the manifest's slices and the review's slice indicator. */
  slice: z.number().int({ error: 'slice must be a whole number' }).min(1, { error: 'slice must be 1 or more (slices are 1-based)' }),
  controlPoints: z
    .array(PointSchema)
    .min(3, { error: 'a stent border needs at least 3 control points' })
    .max(MAX_CONTOUR_CONTROL_POINTS, { error: `a stent border has at most ${MAX_CONTOUR_CONTROL_POINTS} control points` }),
  /** Only corrections are stored (the detected border is read again from the frames): always 'manual'. */
  source: z.literal('manual', { error: 'source must be manual' }),
});
export type StentBorderCorrection = z.infer<typeof StentBorderCorrectionSchema>;

/** One stent border per slice at most. */
export const StentBorderCorrectionsSchema = z
  .array(StentBorderCorrectionSchema)
  .max(MAX_CONTOUR_SLICES, { error: `at most ${MAX_CONTOUR_SLICES} stent borders` })
  .superRefine((corrections, ctx) => {
    const seen = new Set<number>();
    corrections.forEach((correction, index) => {
      if (seen.has(correction.slice)) ctx.addIssue({ code: 'custom', path: [index, 'slice'], message: `slice ${correction.slice} has two stent borders` });
      seen.add(correction.slice);
    });
  });

/** A border the clinician can drag on the B-mode frame with the contour tool: the lumen, the vessel, or the stent's. */
export type EditableBorder = ContourBorder | 'stent';

interface WithStentBorders {
  readonly stentBorders?: readonly StentBorderCorrection[] | undefined;
}

export function findStentCorrection(manifest: WithStentBorders, slice: number): StentBorderCorrection | null {
  return manifest.stentBorders?.find((correction) => correction.slice === slice) ?? null;
}

/** The manifest with the slice's stent border set to `controlPoints` (replacing an earlier correction of that slice). */
export function setStentCorrection<M extends WithStentBorders>(manifest: M, slice: number, controlPoints: readonly Point[]): M {
  const others = (manifest.stentBorders ?? []).filter((correction) => correction.slice !== slice);
  const correction: StentBorderCorrection = { slice, controlPoints: controlPoints.map(({ x, y }) => ({ x, y })), source: 'manual' };
  return { ...manifest, stentBorders: [...others, correction].sort((a, b) => a.slice - b.slice) };
}

/** The manifest without the slice's stent correction: the border fitted through the struts shows again. */
export function removeStentCorrection<M extends WithStentBorders>(manifest: M, slice: number): M {
  if (findStentCorrection(manifest, slice) === null) return manifest;
  return { ...manifest, stentBorders: manifest.stentBorders!.filter((correction) => correction.slice !== slice) };
}

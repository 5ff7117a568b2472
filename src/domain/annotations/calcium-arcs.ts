/**
 * The clinician's calcium arcs (issue 28), carried by the annotation manifest: per slice at most one
 * arc set by hand, which replaces whatever the detector (or the re-measure on a corrected border)
 * found there. An arc runs from `startDeg`, turning as the detector's do (0 along +x, towards +y,
 * image pixels y down), over `arcDeg` degrees; `arcDeg` 0 says "no calcium here" (the clinician
 * cleared a false arc), 360 calcium all round. Optional in the manifest, so manifests saved before
 * it stay valid. The calcium domain reads it; this file only says what may be stored.
 */
import { z } from 'zod';
import { MAX_CONTOUR_SLICES } from './contour-set.ts';

const degrees = (name: string, max: number, maxText: string) =>
  z
    .number({ error: `${name} must be a number of degrees` })
    .min(0, { error: `${name} must not be negative` })
    .max(max, { error: `${name} must be ${maxText}` });

export const CalciumArcCorrectionSchema = z.strictObject({
  /** 1-based, as the manifest's slices. */
  slice: z.number({ error: 'slice must be a slice number' }).int({ error: 'slice must be a whole number' }).min(1, { error: 'slice must be 1 or more (slices are 1-based)' }),
  /** Where the arc starts, in [0, 360). */
  startDeg: degrees('startDeg', 359.999, 'below 360'),
  /** How far it reaches from there: 0 (no calcium) to 360 (all round). */
  arcDeg: degrees('arcDeg', 360, 'at most 360'),
  /** Whether the clinician reads a calcified nodule there (absent: no). */
  nodule: z.boolean({ error: 'nodule must be true or false' }).optional(),
});
export type CalciumArcCorrection = z.infer<typeof CalciumArcCorrectionSchema>;

/** One arc per slice at most. */
export const CalciumArcCorrectionsSchema = z
  .array(CalciumArcCorrectionSchema, { error: 'calcium must be a list of arcs' })
  .max(MAX_CONTOUR_SLICES, { error: `at most ${MAX_CONTOUR_SLICES} calcium arcs` })
  .superRefine((arcs, ctx) => {
    const seen = new Set<number>();
    arcs.forEach((arc, index) => {
      if (seen.has(arc.slice)) ctx.addIssue({ code: 'custom', path: [index, 'slice'], message: `slice ${arc.slice} has two calcium arcs` });
      seen.add(arc.slice);
    });
  });

/** Where an arc ends, in [0, 360) (a full circle ends where it starts). */
export function arcEndDeg(arc: Pick<CalciumArcCorrection, 'startDeg' | 'arcDeg'>): number {
  return (arc.startDeg + arc.arcDeg) % 360;
}

/** The arc from `startDeg` to `endDeg` turning the detector's way (equal ends: none, unless `full`). */
export function arcBetween(startDeg: number, endDeg: number): number {
  const span = (((endDeg - startDeg) % 360) + 360) % 360;
  return Math.round(span * 10) / 10;
}

/** The manifest's calcium with `arc` set on its slice (replacing one there). */
export function withCalciumArc(arcs: readonly CalciumArcCorrection[] | undefined, arc: CalciumArcCorrection): CalciumArcCorrection[] {
  return [...(arcs ?? []).filter((a) => a.slice !== arc.slice), arc].sort((a, b) => a.slice - b.slice);
}

/** The manifest's calcium without the slice's hand-set arc (the detected one counts again). */
export function withoutCalciumArc(arcs: readonly CalciumArcCorrection[] | undefined, slice: number): CalciumArcCorrection[] {
  return (arcs ?? []).filter((a) => a.slice !== slice);
}

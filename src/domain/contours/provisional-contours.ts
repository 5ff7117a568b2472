/**
 * `GET /api/{tenant}/records/{recordId}/contours/provisional`: what a record's detection has found
 * so far, while it still runs (issue 23: a first open's MLA within 20 s). The detection takes the
 * pullback coarse to fine (server/contours/detection-order.ts), so once one chunk of every run is
 * done the whole pullback is sampled evenly: the lumen areas of the frames detected so far, and the
 * MLA and references among them only.
 *
 * It is provisional and says so: `status: 'provisional'`, how many frames it rests on, and no
 * borders (nothing to correct, export or report). The MLA among a sample can only be larger than
 * or equal to the final one, which is that of the stored contours (api.ts) once all frames are in.
 */
import { z } from 'zod';
import { hasBorder, SliceAreaSchema, toWire, type SliceDetection } from './api.ts';
import type { CorrectedAnalysis, SliceMeasurement } from './corrected-analysis.ts';
import { analysePullback, type SliceArea } from './measurements.ts';

const sliceNumber = z.number().int().min(1);
const mm = z.number().nonnegative();

/** One detected slice's lumen figures; all null where the detector could not read the frame. */
export const ProvisionalSliceSchema = z.object({
  slice: sliceNumber,
  areaMm2: mm.nullable(),
  minDiameterMm: mm.nullable(),
  maxDiameterMm: mm.nullable(),
});
export type ProvisionalSlice = z.infer<typeof ProvisionalSliceSchema>;

export const ProvisionalContoursSchema = z.object({
  status: z.literal('provisional'),
  /** The imaging version being detected. */
  version: z.string(),
  frameCount: z.number().int().nonnegative(),
  /** Frames detected so far (the length of `slices`). */
  detectedFrames: z.number().int().nonnegative(),
  /** The detected slices, ascending; the others are not detected yet. */
  slices: z.array(ProvisionalSliceSchema),
  /** The smallest lumen among the detected slices: provisional, never smaller than the final MLA. */
  mla: SliceAreaSchema.nullable(),
  references: z.object({ proximal: SliceAreaSchema.nullable(), distal: SliceAreaSchema.nullable() }),
  stenosisPercent: z.number().nullable(),
});
export type ProvisionalContours = z.infer<typeof ProvisionalContoursSchema>;

/**
 * The provisional body from the detections so far (`detections[i]` is frame i, undefined while
 * not detected): the same rounding as the final contours, and the MLA and references of
 * analysePullback over the detected slices (the others count as slices without a border).
 */
export function buildProvisionalContours(input: {
  readonly version: string;
  readonly framesPerMm: number;
  readonly detections: readonly (SliceDetection | undefined)[];
}): ProvisionalContours {
  const areas = new Float64Array(input.detections.length).fill(Number.NaN);
  const slices: ProvisionalSlice[] = [];
  input.detections.forEach((detection, index) => {
    if (detection === undefined) return;
    const wire = toWire(detection, index + 1);
    if (!hasBorder(wire)) {
      slices.push({ slice: index + 1, areaMm2: null, minDiameterMm: null, maxDiameterMm: null });
      return;
    }
    areas[index] = wire.areaMm2;
    slices.push({ slice: index + 1, areaMm2: wire.areaMm2, minDiameterMm: wire.minDiameterMm, maxDiameterMm: wire.maxDiameterMm });
  });
  const analysis = analysePullback(areas, input.framesPerMm);
  const sliceOf = (found: SliceArea | null) => (found === null ? null : { slice: found.index + 1, areaMm2: found.areaMm2 });
  return {
    status: 'provisional',
    version: input.version,
    frameCount: input.detections.length,
    detectedFrames: slices.length,
    slices,
    mla: sliceOf(analysis.mla),
    references: { proximal: sliceOf(analysis.references.proximal), distal: sliceOf(analysis.references.distal) },
    stenosisPercent: analysis.stenosisPercent === null ? null : Math.round(analysis.stenosisPercent * 100) / 100,
  };
}

/**
 * The provisional body as the results block reads a corrected analysis (lesion-results.ts): one
 * slice per frame, those not detected yet without figures, positions in mm along the pullback.
 */
export function provisionalAnalysis(provisional: ProvisionalContours, framesPerMm: number): Pick<CorrectedAnalysis, 'slices' | 'analysis'> {
  const slice = (number: number, figures: Omit<ProvisionalSlice, 'slice'> | null): SliceMeasurement => ({
    slice: number,
    positionMm: (number - 1) / framesPerMm,
    areaMm2: figures?.areaMm2 ?? null,
    minDiameterMm: figures?.minDiameterMm ?? null,
    maxDiameterMm: figures?.maxDiameterMm ?? null,
    eccentricity: null,
    source: null,
    controlPoints: [],
    vessel: null,
    plaqueAreaMm2: null,
    plaqueBurden: null,
    confidence: 0,
    bordersCross: false,
    noBorder: figures === null || figures.areaMm2 === null,
  });
  const slices = Array.from({ length: provisional.frameCount }, (_, index) => slice(index + 1, null));
  for (const detected of provisional.slices) if (detected.slice <= slices.length) slices[detected.slice - 1] = slice(detected.slice, detected);
  const indexOf = (found: { slice: number; areaMm2: number } | null) => (found === null ? null : { index: found.slice - 1, areaMm2: found.areaMm2 });
  return {
    slices,
    analysis: {
      mla: indexOf(provisional.mla),
      references: { proximal: indexOf(provisional.references.proximal), distal: indexOf(provisional.references.distal) },
      stenosisPercent: provisional.stenosisPercent,
    },
  };
}

/**
 * The stent as the server stores it with a record's contours (issue 28): the detection job reads
 * every frame's struts and wall beside the borders, and keeps the detection's wire form
 * (stent-results.ts) in the contours. Whoever reads it back (the review, the PACS report, the SR)
 * turns it into a detection again and computes the figures that depend on the lumen and vessel
 * borders from the corrected borders, as the review does after reading the stent itself.
 */
import { z } from 'zod';
import { RecordContoursSchema } from '../contours/api.ts';
import type { CorrectedAnalysis } from '../contours/corrected-analysis.ts';
import type { StentReferenceSlices } from '../annotations/stent-reference-slices.ts';
import { type StentDetection, type StentFigures } from './stent-analysis.ts';
import { figuresWithReferences } from './stent-references.ts';
import { StentResultsSchema, type StentResults } from './stent-results.ts';

/**
 * A record's contours with the stent read beside them. `stent` is absent on contours stored before
 * the server read stents (the review then reads it from the loaded frames on request); its
 * `segment` is null where the frames show no stent. `stentPending` (issue 23): the borders, calcium
 * and MLA are final, the stent's struts are still being read; the stent comes in a later answer,
 * and until then nothing may be shown or reported of it, not even "no stent". Defined here, not in
 * contours/api.ts, because domain/stent reads domain/contours and not the other way round.
 */
export const RecordContoursWithStentSchema = RecordContoursSchema.extend({ stent: StentResultsSchema.optional(), stentPending: z.literal(true).optional() });
export type RecordContoursWithStent = z.infer<typeof RecordContoursWithStentSchema>;

/**
 * The detection a stored wire form stands for (slice s is frame s − 1), `frameCount` frames long.
 * The per-frame borders keep their coefficients (the strut count is not stored: 0); the
 * malapposed regions keep their frames, length and widest arc (not its direction, which the wire
 * form leaves out: 0).
 */
export function stentDetectionOf(results: StentResults, frameCount: number): StentDetection {
  const frames: StentDetection['frames'][number][] = Array.from({ length: frameCount }, () => null);
  for (const s of results.slices) {
    if (s.slice - 1 >= frameCount) continue;
    frames[s.slice - 1] = { border: s.border === null ? null : { coefficients: s.border, strutCount: 0 }, areaMm2: s.areaMm2 };
  }
  const { segment, msa } = results;
  return {
    segment: segment === null ? null : { distalFrame: segment.distalSlice - 1, proximalFrame: segment.proximalSlice - 1, lengthMm: segment.lengthMm },
    frames,
    msa: msa === null ? null : { frame: msa.slice - 1, areaMm2: msa.areaMm2 },
    malapposition: results.malapposition.map((r) => ({
      firstFrame: r.firstSlice - 1,
      lastFrame: r.lastSlice - 1,
      lengthMm: r.lengthMm,
      maxArcDeg: r.maxArcDeg,
      maxArcFrame: r.maxArcSlice - 1,
      angleRad: 0,
    })),
  };
}

/** A stent's figures from the (corrected) borders, and the slices whose lumen or vessel border was corrected by hand. */
export interface StentOnBorders {
  readonly figures: StentFigures;
  readonly manualSlices: readonly number[];
}

/**
 * Expansion, edge plaque burden and flags from the corrected lumen and vessel borders, with the
 * analysis's reference slices as the starting references (stentReferences moves one that lies
 * inside the stent), moved where the clinician moved them (`moved`, the manifest's 1-based
 * `stentReferences`, as the review does), and the slices corrected by hand that these figures read.
 */
export function stentOnBorders(detection: StentDetection, result: Pick<CorrectedAnalysis, 'slices' | 'analysis'>, framesPerMm: number, moved?: StentReferenceSlices): StentOnBorders {
  const lumen = result.slices.map((s) => s.areaMm2 ?? NaN);
  const vessel = result.slices.map((s) => s.vessel?.areaMm2 ?? NaN);
  const references = result.analysis.references;
  const frameOf = (slice: number | undefined) => (slice === undefined ? null : slice - 1);
  const figures = figuresWithReferences(detection, {
    frameCount: result.slices.length,
    framesPerMm,
    lumenAreasMm2: lumen,
    vesselAreasMm2: vessel,
    referenceFrames: { distal: references.distal?.index ?? null, proximal: references.proximal?.index ?? null },
  }, { distal: frameOf(moved?.distal), proximal: frameOf(moved?.proximal) });
  const manualSlices = result.slices.filter((s) => s.source === 'manual' || s.vessel?.source === 'manual').map((s) => s.slice);
  return { figures, manualSlices };
}

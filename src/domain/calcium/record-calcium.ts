/**
 * A record's calcium as the review and the exports show it (issue 28): per slice the arc the server
 * found (contours API, `calcium` on each bordered slice), the IVUS calcium score over the pullback,
 * and the slices whose arc stands on a border the clinician has since corrected by hand (the arc was
 * read on the detected border; the clinician should look at those).
 */
import type { RecordContours, SliceCalcium } from '../contours/api.ts';
import { hasBorder } from '../contours/api.ts';
import { calciumScore, meanDiameterMm, type CalciumScore, type CalciumSlice } from './calcium-score.ts';

export interface RecordCalcium {
  /** Per slice (index slice − 1): the slice's calcium, or null where it was not measured (no border; or detected before calcium was). */
  readonly bySlice: readonly (SliceCalcium | null)[];
  /** Whether any slice was measured: false on contours detected before calcium, which then say "not measurable". */
  readonly measured: boolean;
  /** The score; its indices are slice − 1. */
  readonly score: CalciumScore;
  /** Slices showing calcium whose border was corrected by hand. */
  readonly handCorrected: readonly number[];
}

/**
 * `mmPerSlice`: pullback per frame (pullback speed ÷ frame rate); `corrected(slice)`: whether the
 * clinician corrected that slice's lumen border (manual or propagated from a key frame).
 */
export function recordCalcium(contours: RecordContours, mmPerSlice: number, corrected: (slice: number) => boolean = () => false): RecordCalcium {
  const bySlice = contours.contours.map((contour) => (hasBorder(contour) ? (contour.calcium ?? null) : null));
  const slices: CalciumSlice[] = contours.contours.map((contour, index) => {
    const calcium = bySlice[index] ?? null;
    return {
      positionMm: index * mmPerSlice,
      arcDeg: calcium === null ? null : calcium.arcDeg,
      nodule: calcium?.nodule ?? false,
      vesselDiameterMm: calcium !== null && hasBorder(contour) ? meanDiameterMm(contour.vessel.areaMm2) : null,
    };
  });
  const handCorrected = bySlice.flatMap((calcium, index) => (calcium !== null && calcium.arcDeg > 0 && corrected(index + 1) ? [index + 1] : []));
  return { bySlice, measured: bySlice.some((c) => c !== null), score: calciumScore(slices, mmPerSlice), handCorrected };
}

/** How the score is defined, for the legend and the exports (one text everywhere). */
export const CALCIUM_SCORE_DEFINITION =
  'IVUS calcium score (Zhang et al., Circ Cardiovasc Interv 2021): 1 point each for calcium > 270° over > 5 mm, 360° calcium, a calcified nodule, ' +
  'and a vessel (EEM mean) diameter < 3.5 mm beside the largest arc; 4 points foretell stent underexpansion. ' +
  'Calcium: a bright leading edge with an acoustic shadow behind it, just beyond the lumen border, on each frame the detector read.';

/**
 * A record's calcium as the review and the exports show it (issue 28): per slice the arc the server
 * found (contours API, `calcium` on each bordered slice), replaced where the clinician corrected the
 * slice's lumen border by the arc re-measured on that border (corrected-calcium.ts), and where the
 * clinician set the arc by hand by that arc (manifest `calcium`, annotations/calcium-arcs.ts); the
 * IVUS calcium score over the pullback; and which slices' arcs came from where, so that every figure
 * can say which frames were corrected by hand.
 */
import type { RecordContours, SliceCalcium } from '../contours/api.ts';
import { hasBorder } from '../contours/api.ts';
import { arcEndDeg, type CalciumArcCorrection } from '../annotations/calcium-arcs.ts';
import { calciumScore, meanDiameterMm, type CalciumScore, type CalciumSlice } from './calcium-score.ts';

export interface RecordCalcium {
  /** Per slice (index slice − 1): the slice's calcium, or null where it was not measured (no border; or detected before calcium was). */
  readonly bySlice: readonly (SliceCalcium | null)[];
  /** Whether any slice was measured: false on contours detected before calcium, which then say "not measurable". */
  readonly measured: boolean;
  /** The score; its indices are slice − 1. */
  readonly score: CalciumScore;
  /** Slices whose arc was measured on a lumen border corrected by hand (the arc re-read on it). */
  readonly onCorrectedBorder: readonly number[];
  /** Slices whose arc the clinician set by hand (a cleared arc included). */
  readonly setByHand: readonly number[];
  /** Every slice whose lumen border was corrected by hand (manual or carried from a key frame). */
  readonly bordersCorrected: readonly number[];
  /** Slices showing calcium whose border was corrected by hand but whose arc still stands on the detected border (its frame was not at hand to re-measure). */
  readonly handCorrected: readonly number[];
}

/** What replaces the detected arcs: re-measures on corrected borders, then the clinician's own arcs over everything. */
export interface CalciumCorrections {
  /** By slice: the arc re-measured on the slice's corrected lumen border (null: not measurable on it). */
  readonly remeasured?: ReadonlyMap<number, SliceCalcium | null>;
  /** The manifest's hand-set arcs. */
  readonly byHand?: readonly CalciumArcCorrection[];
  /** The vessel (EEM) area of a slice after corrections, mm² (null: none); the detected one without it. */
  readonly vesselAreaMm2?: (slice: number) => number | null;
}

/** A hand-set arc as the slice's calcium. */
export function handCalcium(arc: CalciumArcCorrection): SliceCalcium {
  return { arcDeg: arc.arcDeg, startDeg: arc.startDeg, endDeg: arc.arcDeg === 0 ? arc.startDeg : arcEndDeg(arc), nodule: arc.arcDeg > 0 && arc.nodule === true };
}

/**
 * `mmPerSlice`: pullback per frame (pullback speed ÷ frame rate); `corrected(slice)`: whether the
 * clinician corrected that slice's lumen border (manual or propagated from a key frame).
 */
export function recordCalcium(
  contours: RecordContours,
  mmPerSlice: number,
  corrected: (slice: number) => boolean = () => false,
  corrections: CalciumCorrections = {},
): RecordCalcium {
  const remeasured = corrections.remeasured ?? new Map<number, SliceCalcium | null>();
  const byHand = new Map((corrections.byHand ?? []).filter((arc) => arc.slice <= contours.contours.length).map((arc) => [arc.slice, arc]));
  const detected = contours.contours.map((contour) => (hasBorder(contour) ? (contour.calcium ?? null) : null));
  const bySlice = detected.map((calcium, index) => {
    const hand = byHand.get(index + 1);
    if (hand) return handCalcium(hand);
    return remeasured.has(index + 1) ? remeasured.get(index + 1)! : calcium;
  });
  const vesselAreaOf = (index: number): number | null => {
    if (corrections.vesselAreaMm2) return corrections.vesselAreaMm2(index + 1);
    const contour = contours.contours[index]!;
    return hasBorder(contour) ? contour.vessel.areaMm2 : null;
  };
  const slices: CalciumSlice[] = bySlice.map((calcium, index) => {
    const area = calcium === null ? null : vesselAreaOf(index);
    return { positionMm: index * mmPerSlice, arcDeg: calcium === null ? null : calcium.arcDeg, nodule: calcium?.nodule ?? false, vesselDiameterMm: area === null ? null : meanDiameterMm(area) };
  });
  const sliceNumbers = (holds: (index: number) => boolean) => bySlice.flatMap((_, index) => (holds(index) ? [index + 1] : []));
  return {
    bySlice,
    measured: bySlice.some((c) => c !== null),
    score: calciumScore(slices, mmPerSlice),
    setByHand: [...byHand.keys()].sort((a, b) => a - b),
    bordersCorrected: sliceNumbers((index) => corrected(index + 1)),
    onCorrectedBorder: sliceNumbers((index) => !byHand.has(index + 1) && remeasured.has(index + 1)),
    handCorrected: sliceNumbers((index) => {
      const slice = index + 1;
      const calcium = bySlice[index];
      return !byHand.has(slice) && !remeasured.has(slice) && calcium != null && calcium.arcDeg > 0 && corrected(slice);
    }),
  };
}

/** Where a slice's arc comes from, in a few words (the score details, the frame's legend). */
export function calciumOrigin(calcium: RecordCalcium, slice: number): string {
  if (calcium.setByHand.includes(slice)) return 'set by hand';
  if (calcium.onCorrectedBorder.includes(slice)) return 'measured on the corrected border';
  if (calcium.handCorrected.includes(slice)) return 'read on the detected border (not re-read: frame not loaded yet)';
  return 'detected';
}

/** How the score is defined, for the legend and the exports (one text everywhere). */
export const CALCIUM_SCORE_DEFINITION =
  'IVUS calcium score (Zhang et al., Circ Cardiovasc Interv 2021): 1 point each for calcium > 270° over > 5 mm, 360° calcium, a calcified nodule, ' +
  'and a vessel (EEM mean) diameter < 3.5 mm beside the largest arc; 4 points foretell stent underexpansion. ' +
  'Calcium: a bright leading edge with an acoustic shadow behind it, just beyond the lumen border, on each frame the detector read; ' +
  'where the clinician corrected the lumen border, read again on the corrected border; where the clinician set the arc by hand, that arc.';

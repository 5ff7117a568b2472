/**
 * The figures a cardiologist sizes a stent with, read off the corrected pullback analysis (issue 26,
 * "a results block"): the MLA with its minimal lumen diameter, the distal and proximal references
 * with their lumen areas and diameters, the area stenosis and the lesion length, each placed in mm
 * along the pullback. Pure: every figure comes from the slices' corrected borders.
 */
import type { CorrectedAnalysis, SliceMeasurement } from './corrected-analysis.ts';

/** One frame the results name: where it is and its lumen figures. */
export interface ResultFrame {
  /** 1-based slice, as everywhere in the review. */
  readonly slice: number;
  /** Distance along the pullback from the first frame (from the frame rate and pullback speed). */
  readonly positionMm: number;
  readonly areaMm2: number;
  /** Shortest lumen chord through the centroid (measurements.ts: diametersThroughCentroid). */
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
  /**
   * Mean lumen diameter, (D_min + D_max) / 2: the mean of the two diameters the IVUS consensus
   * (Mintz et al., JACC 2001;37:1478) measures, the figure a reference is usually sized by.
   */
  readonly meanDiameterMm: number;
}

export interface LesionResults {
  /** The MLA frame; its minDiameterMm is the MLD (minimal lumen diameter at the MLA frame). */
  readonly mla: ResultFrame | null;
  readonly distalReference: ResultFrame | null;
  readonly proximalReference: ResultFrame | null;
  /** 100 · (mean reference area − MLA) / mean reference area; null without an MLA or a reference. */
  readonly areaStenosisPercent: number | null;
  /**
   * Lesion length in mm. As the IVUS consensus (Mintz et al. 2001) measures it on a motorised
   * pullback, the lesion runs between the two reference frames that bound the MLA (stent length is
   * chosen from it): the distance along
   * the pullback between the distal and the proximal reference frames. Null unless both exist: with
   * one side missing the lesion has no measured end, and a length to the pullback's end would mislead.
   */
  readonly lesionLengthMm: number | null;
}

/** A slice's lumen figures as a result frame, or null where the slice has no lumen border. */
export function resultFrame(slice: SliceMeasurement | undefined): ResultFrame | null {
  if (!slice || slice.areaMm2 === null || slice.minDiameterMm === null || slice.maxDiameterMm === null) return null;
  return {
    slice: slice.slice,
    positionMm: slice.positionMm,
    areaMm2: slice.areaMm2,
    minDiameterMm: slice.minDiameterMm,
    maxDiameterMm: slice.maxDiameterMm,
    meanDiameterMm: (slice.minDiameterMm + slice.maxDiameterMm) / 2,
  };
}

/** Lesion length: the distance in mm between the distal and proximal reference frames (see LesionResults.lesionLengthMm). */
export function lesionLengthMm(distal: Pick<ResultFrame, 'positionMm'> | null, proximal: Pick<ResultFrame, 'positionMm'> | null): number | null {
  return distal && proximal ? Math.abs(proximal.positionMm - distal.positionMm) : null;
}

/** The results block's figures of a corrected analysis. */
export function lesionResults(result: Pick<CorrectedAnalysis, 'slices' | 'analysis'>): LesionResults {
  const { mla, references, stenosisPercent } = result.analysis;
  const at = (index: number | undefined) => (index === undefined ? null : resultFrame(result.slices[index]));
  const distalReference = at(references.distal?.index);
  const proximalReference = at(references.proximal?.index);
  return {
    mla: at(mla?.index),
    distalReference,
    proximalReference,
    areaStenosisPercent: stenosisPercent,
    lesionLengthMm: lesionLengthMm(distalReference, proximalReference),
  };
}

/**
 * The pullback analysis the clinician sees: the automatic contours with their manual corrections
 * (a manual contour wins on its slice), measured per slice, then the MLA, the reference slices and
 * the area stenosis; and the per-slice CSV export. Pure.
 */
import type { AnnotationManifest } from '../annotations/manifest.ts';
import type { RecordContours } from './api.ts';
import type { SliceContour } from './contour-set.ts';
import { analysePullback, eccentricity, measureContour, type PullbackAnalysis } from './measurements.ts';

export interface SliceMeasurement {
  readonly slice: number;
  /** Distance along the pullback from the first frame. */
  readonly positionMm: number;
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
  /** (max − min) / max diameter. */
  readonly eccentricity: number;
  readonly source: 'auto' | 'manual';
  readonly controlPoints: readonly { x: number; y: number }[];
}

export interface CorrectedAnalysis {
  readonly slices: readonly SliceMeasurement[];
  readonly analysis: PullbackAnalysis;
  readonly manualCount: number;
}

export interface PullbackGeometry {
  readonly frameRateHz: number;
  readonly pullbackSpeedMmPerS: number;
}

/** mm along the pullback at a 1-based slice: frames are taken at a fixed rate while the catheter withdraws at a fixed speed. */
export function slicePositionMm(slice: number, geometry: PullbackGeometry): number {
  return ((slice - 1) / geometry.frameRateHz) * geometry.pullbackSpeedMmPerS;
}

export function framesPerMm(geometry: PullbackGeometry): number {
  return geometry.frameRateHz / geometry.pullbackSpeedMmPerS;
}

/** The manual contour of a slice, if the clinician corrected it. */
export function manualContour(manifest: AnnotationManifest, slice: number): SliceContour | null {
  return manifest.contours?.find((contour) => contour.slice === slice) ?? null;
}

export function correctedAnalysis(detected: RecordContours, manifest: AnnotationManifest, geometry: PullbackGeometry): CorrectedAnalysis {
  const manual = new Map((manifest.contours ?? []).map((contour) => [contour.slice, contour]));
  const slices = detected.contours.map((auto): SliceMeasurement => {
    const corrected = manual.get(auto.slice);
    const measured = corrected
      ? measureContour(corrected.controlPoints, detected.pixelSpacingMm)
      : { areaMm2: auto.areaMm2, minDiameterMm: auto.minDiameterMm, maxDiameterMm: auto.maxDiameterMm };
    return {
      slice: auto.slice,
      positionMm: slicePositionMm(auto.slice, geometry),
      ...measured,
      eccentricity: eccentricity({ min: measured.minDiameterMm, max: measured.maxDiameterMm }),
      source: corrected ? 'manual' : 'auto',
      controlPoints: corrected ? corrected.controlPoints : auto.controlPoints,
    };
  });
  const analysis = analysePullback(
    slices.map((slice) => slice.areaMm2),
    framesPerMm(geometry),
  );
  return { slices, analysis, manualCount: slices.filter((slice) => slice.source === 'manual').length };
}

export const CSV_HEADER = ['slice', 'position_mm', 'lumen_area_mm2', 'min_diameter_mm', 'max_diameter_mm', 'eccentricity', 'source', 'flag'] as const;

/** One row per slice; the flag column names the MLA and reference slices. */
export function measurementsCsv({ slices, analysis }: CorrectedAnalysis): string {
  const flags = new Map<number, string>();
  if (analysis.references.distal) flags.set(analysis.references.distal.index + 1, 'distal reference');
  if (analysis.references.proximal) flags.set(analysis.references.proximal.index + 1, 'proximal reference');
  if (analysis.mla) flags.set(analysis.mla.index + 1, 'MLA');
  const rows = slices.map((s) =>
    [s.slice, s.positionMm.toFixed(3), s.areaMm2.toFixed(2), s.minDiameterMm.toFixed(2), s.maxDiameterMm.toFixed(2), s.eccentricity.toFixed(3), s.source, flags.get(s.slice) ?? ''].join(','),
  );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

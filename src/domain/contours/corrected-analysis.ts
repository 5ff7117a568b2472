/**
 * The pullback analysis the clinician sees: the automatic lumen and vessel borders with their manual
 * corrections (a manual contour wins on its slice and border), measured per slice, then the MLA, the
 * reference slices, the area stenosis and the maximal plaque burden; and the per-slice CSV export. Pure.
 */
import type { AnnotationManifest } from '../annotations/manifest.ts';
import type { Point } from '../annotations/point.ts';
import type { DetectedContour, RecordContours } from './api.ts';
import { borderOf, findContour, type ContourBorder, type ContourSource, type SliceContour } from './contour-set.ts';
import {
  analysePullback,
  eccentricity,
  enclosesContour,
  findMaxPlaqueBurden,
  lumenAreaMm2,
  measureContour,
  plaqueOf,
  type PullbackAnalysis,
  type SliceBurden,
} from './measurements.ts';

export interface VesselMeasurement {
  readonly areaMm2: number;
  readonly source: ContourSource;
  readonly controlPoints: readonly Point[];
}

/** One slice after corrections. The lumen's figures sit at the top level, as in DetectedContour. */
export interface SliceMeasurement {
  readonly slice: number;
  /** Distance along the pullback from the first frame. */
  readonly positionMm: number;
  /** Lumen area. */
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
  /** Lumen eccentricity, (max − min) / max diameter. */
  readonly eccentricity: number;
  /** Where the lumen border came from. */
  readonly source: ContourSource;
  /** The lumen border's control points. */
  readonly controlPoints: readonly Point[];
  readonly vessel: VesselMeasurement;
  /** Vessel − lumen area (0 when corrected borders cross). */
  readonly plaqueAreaMm2: number;
  /** (vessel − lumen) / vessel, a fraction. */
  readonly plaqueBurden: number;
  /** The detector's confidence in its borders, 0..1. */
  readonly confidence: number;
  /** A corrected border crosses the other one: the vessel no longer encloses the lumen. */
  readonly bordersCross: boolean;
}

export interface CorrectedAnalysis {
  readonly slices: readonly SliceMeasurement[];
  readonly analysis: PullbackAnalysis;
  /** The slice of the largest plaque burden after corrections (index 0-based), or null without slices. */
  readonly maxPlaqueBurden: SliceBurden | null;
  /** The slices the detector was not confident about (1-based, ascending), as the server listed them. */
  readonly lowConfidenceSlices: readonly number[];
  /** Slices with at least one corrected border. */
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

/** The manual contour of a slice's border, if the clinician corrected it. */
export function manualContour(manifest: AnnotationManifest, slice: number, border: ContourBorder = 'lumen'): SliceContour | null {
  return findContour(manifest.contours, slice, border);
}

interface LumenFigures {
  readonly areaMm2: number;
  readonly minDiameterMm: number;
  readonly maxDiameterMm: number;
  readonly source: ContourSource;
  readonly controlPoints: readonly Point[];
}

/** A slice's figures from its two borders (whichever source each has). */
function combine(slice: number, positionMm: number, lumen: LumenFigures, vessel: VesselMeasurement, confidence: number): SliceMeasurement {
  // The detector keeps the vessel outside the lumen on every ray; only a correction can make them cross.
  const corrected = lumen.source === 'manual' || vessel.source === 'manual';
  const bordersCross = corrected && !enclosesContour(vessel.controlPoints, lumen.controlPoints);
  return {
    slice,
    positionMm,
    areaMm2: lumen.areaMm2,
    minDiameterMm: lumen.minDiameterMm,
    maxDiameterMm: lumen.maxDiameterMm,
    source: lumen.source,
    controlPoints: lumen.controlPoints,
    eccentricity: eccentricity({ min: lumen.minDiameterMm, max: lumen.maxDiameterMm }),
    vessel,
    // Crossing borders enclose no plaque that could be measured: 0, and the slice is flagged.
    ...(bordersCross ? { plaqueAreaMm2: 0, plaqueBurden: 0 } : plaqueOf(lumen.areaMm2, vessel.areaMm2)),
    confidence,
    bordersCross,
  };
}

const manualLumen = (controlPoints: readonly Point[], pixelSpacingMm: number): LumenFigures => ({
  ...measureContour(controlPoints, pixelSpacingMm),
  source: 'manual',
  controlPoints,
});
const manualVessel = (controlPoints: readonly Point[], pixelSpacingMm: number): VesselMeasurement => ({
  areaMm2: lumenAreaMm2(controlPoints, pixelSpacingMm),
  source: 'manual',
  controlPoints,
});

/** One slice's figures from its automatic borders and the corrections of either. */
function measureSlice(auto: DetectedContour, lumen: SliceContour | undefined, vessel: SliceContour | undefined, pixelSpacingMm: number, geometry: PullbackGeometry): SliceMeasurement {
  return combine(
    auto.slice,
    slicePositionMm(auto.slice, geometry),
    lumen
      ? manualLumen(lumen.controlPoints, pixelSpacingMm)
      : { areaMm2: auto.areaMm2, minDiameterMm: auto.minDiameterMm, maxDiameterMm: auto.maxDiameterMm, source: 'auto', controlPoints: auto.controlPoints },
    vessel ? manualVessel(vessel.controlPoints, pixelSpacingMm) : { areaMm2: auto.vessel.areaMm2, source: 'auto', controlPoints: auto.vessel.controlPoints },
    auto.confidence,
  );
}

/**
 * A slice's figures with one border replaced by a manual contour: what the contour card shows while
 * a control point is dragged, before the correction is stored.
 */
export function withCorrection(measured: SliceMeasurement, border: ContourBorder, controlPoints: readonly Point[], pixelSpacingMm: number): SliceMeasurement {
  const lumen: LumenFigures = border === 'lumen' ? manualLumen(controlPoints, pixelSpacingMm) : measured;
  const vessel = border === 'vessel' ? manualVessel(controlPoints, pixelSpacingMm) : measured.vessel;
  return combine(measured.slice, measured.positionMm, lumen, vessel, measured.confidence);
}

export function correctedAnalysis(detected: RecordContours, manifest: AnnotationManifest, geometry: PullbackGeometry): CorrectedAnalysis {
  const manual = { lumen: new Map<number, SliceContour>(), vessel: new Map<number, SliceContour>() };
  for (const contour of manifest.contours ?? []) manual[borderOf(contour)].set(contour.slice, contour);
  const slices = detected.contours.map((auto) => measureSlice(auto, manual.lumen.get(auto.slice), manual.vessel.get(auto.slice), detected.pixelSpacingMm, geometry));
  const analysis = analysePullback(
    slices.map((slice) => slice.areaMm2),
    framesPerMm(geometry),
  );
  return {
    slices,
    analysis,
    // Slices whose borders cross have no plaque figure to compete with.
    maxPlaqueBurden: findMaxPlaqueBurden(slices.map((slice) => (slice.bordersCross ? Number.NaN : slice.plaqueBurden))),
    lowConfidenceSlices: detected.lowConfidenceSlices,
    manualCount: slices.filter((slice) => slice.source === 'manual' || slice.vessel.source === 'manual').length,
  };
}

export const CSV_HEADER = [
  'slice',
  'position_mm',
  'lumen_area_mm2',
  'min_diameter_mm',
  'max_diameter_mm',
  'eccentricity',
  'vessel_area_mm2',
  'plaque_area_mm2',
  'plaque_burden_percent',
  'confidence',
  'lumen_source',
  'vessel_source',
  'flag',
] as const;

/**
 * One row per slice. The flag column names, joined by '; ', the MLA and reference slices, the slice
 * of the maximal plaque burden, low-confidence slices and slices whose corrected borders cross
 * (their plaque columns are left empty: there is no plaque figure to give).
 */
export function measurementsCsv({ slices, analysis, maxPlaqueBurden, lowConfidenceSlices }: CorrectedAnalysis): string {
  const flags = new Map<number, string[]>();
  const flag = (slice: number, text: string) => flags.set(slice, [...(flags.get(slice) ?? []), text]);
  if (analysis.mla) flag(analysis.mla.index + 1, 'MLA');
  if (analysis.references.distal) flag(analysis.references.distal.index + 1, 'distal reference');
  if (analysis.references.proximal) flag(analysis.references.proximal.index + 1, 'proximal reference');
  if (maxPlaqueBurden) flag(maxPlaqueBurden.index + 1, 'max plaque burden');
  for (const slice of lowConfidenceSlices) flag(slice, 'low confidence');
  for (const s of slices) if (s.bordersCross) flag(s.slice, 'borders cross');
  const rows = slices.map((s) =>
    [
      s.slice,
      s.positionMm.toFixed(3),
      s.areaMm2.toFixed(2),
      s.minDiameterMm.toFixed(2),
      s.maxDiameterMm.toFixed(2),
      s.eccentricity.toFixed(3),
      s.vessel.areaMm2.toFixed(2),
      s.bordersCross ? '' : s.plaqueAreaMm2.toFixed(2),
      s.bordersCross ? '' : (100 * s.plaqueBurden).toFixed(1),
      s.confidence.toFixed(2),
      s.source,
      s.vessel.source,
      (flags.get(s.slice) ?? []).join('; '),
    ].join(','),
  );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

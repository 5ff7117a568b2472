/**
 * The pullback analysis the clinician sees: the automatic lumen and vessel borders with their manual
 * corrections (a manual contour wins on its slice and border, and a key frame's correction is carried
 * onto its neighbours: border-propagation.ts), measured per slice, then the MLA, the reference
 * slices, the area stenosis and the maximal plaque burden; and the per-slice CSV export. Every
 * border says where it came from: 'auto', 'manual' or 'propagated'. Pure.
 */
import type { AnnotationManifest } from '../annotations/manifest.ts';
import type { Point } from '../annotations/point.ts';
import { hasBorder, type BorderedContour, type DetectedContour, type RecordContours } from './api.ts';
import { findContour, type BorderSource, type ContourBorder, type SliceContour } from '../annotations/contour-set.ts';
import { propagateBorders, type PlacedBorder, type PropagationOptions } from './border-propagation.ts';
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
  readonly source: BorderSource;
  readonly controlPoints: readonly Point[];
}

/**
 * One slice after corrections. The lumen's figures sit at the top level, as in BorderedContour. A
 * border the slice has not got (the detector could not read the frame, issue 23, and the clinician
 * drew none) is null, and so is every figure made from it: nothing is measured on a border that was
 * never found.
 */
export interface SliceMeasurement {
  readonly slice: number;
  /** Distance along the pullback from the first frame. */
  readonly positionMm: number;
  /** Lumen area; null without a lumen border. */
  readonly areaMm2: number | null;
  readonly minDiameterMm: number | null;
  readonly maxDiameterMm: number | null;
  /** Lumen eccentricity, (max − min) / max diameter; null without a lumen border. */
  readonly eccentricity: number | null;
  /** Where the lumen border came from; null without one. */
  readonly source: BorderSource | null;
  /** The lumen border's control points; empty without one. */
  readonly controlPoints: readonly Point[];
  /** The vessel border; null without one. */
  readonly vessel: VesselMeasurement | null;
  /** Vessel − lumen area (0 when corrected borders cross); null unless the slice has both borders. */
  readonly plaqueAreaMm2: number | null;
  /** (vessel − lumen) / vessel, a fraction; null unless the slice has both borders. */
  readonly plaqueBurden: number | null;
  /** The detector's confidence in its borders, 0..1. */
  readonly confidence: number;
  /** A corrected border crosses the other one: the vessel no longer encloses the lumen. */
  readonly bordersCross: boolean;
  /** The detector could not read this frame and gave it no border (a border drawn by hand since still counts). */
  readonly noBorder: boolean;
}

export interface CorrectedAnalysis {
  readonly slices: readonly SliceMeasurement[];
  /** MLA, references and stenosis over the slices with a lumen border only. */
  readonly analysis: PullbackAnalysis;
  /** The slice of the largest plaque burden after corrections (index 0-based), or null without a slice that has both borders. */
  readonly maxPlaqueBurden: SliceBurden | null;
  /** The slices the detector was not confident about (1-based, ascending), as the server listed them. */
  readonly lowConfidenceSlices: readonly number[];
  /** The slices the detector gave no border (1-based, ascending): a subset of lowConfidenceSlices. */
  readonly noBorderSlices: readonly number[];
  /** Slices with at least one corrected border (a key frame). */
  readonly manualCount: number;
  /** Slices with a border carried from a key frame and none corrected on the slice itself. */
  readonly propagatedCount: number;
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
  readonly source: BorderSource;
  readonly controlPoints: readonly Point[];
}

/** A slice's figures from its two borders (whichever source each has, either possibly missing). */
function combine(slice: number, positionMm: number, lumen: LumenFigures | null, vessel: VesselMeasurement | null, confidence: number, noBorder: boolean): SliceMeasurement {
  // The detector keeps the vessel outside the lumen on every ray; only a correction can make them cross.
  const corrected = (lumen !== null && lumen.source !== 'auto') || (vessel !== null && vessel.source !== 'auto');
  const bordersCross = lumen !== null && vessel !== null && corrected && !enclosesContour(vessel.controlPoints, lumen.controlPoints);
  // Crossing borders enclose no plaque that could be measured: 0, and the slice is flagged.
  const plaque = lumen === null || vessel === null ? { plaqueAreaMm2: null, plaqueBurden: null } : bordersCross ? { plaqueAreaMm2: 0, plaqueBurden: 0 } : plaqueOf(lumen.areaMm2, vessel.areaMm2);
  return {
    slice,
    positionMm,
    areaMm2: lumen?.areaMm2 ?? null,
    minDiameterMm: lumen?.minDiameterMm ?? null,
    maxDiameterMm: lumen?.maxDiameterMm ?? null,
    source: lumen?.source ?? null,
    controlPoints: lumen?.controlPoints ?? [],
    eccentricity: lumen ? eccentricity({ min: lumen.minDiameterMm, max: lumen.maxDiameterMm }) : null,
    vessel,
    ...plaque,
    confidence,
    bordersCross,
    noBorder,
  };
}

const manualLumen = (controlPoints: readonly Point[], pixelSpacingMm: number, source: BorderSource = 'manual'): LumenFigures => ({
  ...measureContour(controlPoints, pixelSpacingMm),
  source,
  controlPoints,
});
const manualVessel = (controlPoints: readonly Point[], pixelSpacingMm: number, source: BorderSource = 'manual'): VesselMeasurement => ({
  areaMm2: lumenAreaMm2(controlPoints, pixelSpacingMm),
  source,
  controlPoints,
});

/** The automatic lumen of a slice the detector read. */
const autoLumen = (auto: BorderedContour): LumenFigures => ({
  areaMm2: auto.areaMm2,
  minDiameterMm: auto.minDiameterMm,
  maxDiameterMm: auto.maxDiameterMm,
  source: 'auto',
  controlPoints: auto.controlPoints,
});

/**
 * One slice's figures from its placed borders: the detector's own figures for an automatic border,
 * measured afresh for a corrected or propagated one.
 */
function measureSlice(auto: DetectedContour, lumen: PlacedBorder | null, vessel: PlacedBorder | null, pixelSpacingMm: number, geometry: PullbackGeometry): SliceMeasurement {
  const bordered = hasBorder(auto) ? auto : null;
  const lumenFigures = lumen === null ? null : lumen.source === 'auto' && bordered ? autoLumen(bordered) : manualLumen(lumen.controlPoints, pixelSpacingMm, lumen.source);
  const vesselFigures: VesselMeasurement | null =
    vessel === null ? null : vessel.source === 'auto' && bordered ? { areaMm2: bordered.vessel.areaMm2, source: 'auto', controlPoints: bordered.vessel.controlPoints } : manualVessel(vessel.controlPoints, pixelSpacingMm, vessel.source);
  return combine(auto.slice, slicePositionMm(auto.slice, geometry), lumenFigures, vesselFigures, auto.confidence, bordered === null);
}

/** The lumen figures a measured slice already has, or null without a lumen border. */
function lumenOf(measured: SliceMeasurement): LumenFigures | null {
  const { areaMm2, minDiameterMm, maxDiameterMm, source, controlPoints } = measured;
  if (areaMm2 === null || minDiameterMm === null || maxDiameterMm === null || source === null) return null;
  return { areaMm2, minDiameterMm, maxDiameterMm, source, controlPoints };
}

/**
 * A slice's figures with one border replaced by a manual contour: what the contour card shows while
 * a control point is dragged, before the correction is stored.
 */
export function withCorrection(measured: SliceMeasurement, border: ContourBorder, controlPoints: readonly Point[], pixelSpacingMm: number): SliceMeasurement {
  const lumen = border === 'lumen' ? manualLumen(controlPoints, pixelSpacingMm) : lumenOf(measured);
  const vessel = border === 'vessel' ? manualVessel(controlPoints, pixelSpacingMm) : measured.vessel;
  return combine(measured.slice, measured.positionMm, lumen, vessel, measured.confidence, measured.noBorder);
}

/** Bridging distance and least wall of the propagation, where a caller wants other than the defaults (border-propagation.ts). */
export type PropagationTuning = Pick<PropagationOptions, 'bridgeMm' | 'minWallMm'>;

/**
 * The analysis reads only the manifest's contour set: a caller that memoises it can key on
 * `manifest.contours`, so that moving a ruler does not re-propagate and re-measure the borders.
 */
export function correctedAnalysis(detected: RecordContours, manifest: Pick<AnnotationManifest, 'contours'>, geometry: PullbackGeometry, tuning: PropagationTuning = {}): CorrectedAnalysis {
  const borders = propagateBorders(detected.contours, manifest.contours ?? [], { ...tuning, framesPerMm: framesPerMm(geometry), pixelSpacingMm: detected.pixelSpacingMm });
  const slices = detected.contours.map((auto, index) => measureSlice(auto, borders[index]!.lumen, borders[index]!.vessel, detected.pixelSpacingMm, geometry));
  // A slice without a lumen border is no candidate for the MLA or a reference (NaN is skipped there).
  const analysis = analysePullback(
    slices.map((slice) => slice.areaMm2 ?? Number.NaN),
    framesPerMm(geometry),
  );
  return {
    slices,
    analysis,
    // Slices whose borders cross, or that lack one, have no plaque figure to compete with.
    maxPlaqueBurden: findMaxPlaqueBurden(slices.map((slice) => (slice.bordersCross ? Number.NaN : (slice.plaqueBurden ?? Number.NaN)))),
    lowConfidenceSlices: detected.lowConfidenceSlices,
    noBorderSlices: slices.filter((slice) => slice.noBorder).map((slice) => slice.slice),
    manualCount: slices.filter(isCorrected).length,
    propagatedCount: slices.filter((slice) => !isCorrected(slice) && (slice.source === 'propagated' || slice.vessel?.source === 'propagated')).length,
  };
}

const isCorrected = (slice: SliceMeasurement) => slice.source === 'manual' || slice.vessel?.source === 'manual';

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

/** A figure to `digits` decimals, or an empty cell where there is none (never 0: a 0 would read as a measured closed lumen). */
const cell = (value: number | null, digits: number, scale = 1) => (value === null ? '' : (scale * value).toFixed(digits));

/**
 * One row per slice. The flag column names, joined by '; ', the MLA and reference slices, the slice
 * of the maximal plaque burden, low-confidence slices, slices the detector gave no border ('no
 * border': their figures are empty unless drawn by hand) and slices whose corrected borders cross
 * (their plaque columns are left empty: there is no plaque figure to give). The lumen_source and
 * vessel_source columns say where each border came from: auto, manual (a key frame drawn on that
 * slice) or propagated (carried from a key frame); empty without the border.
 */
export function measurementsCsv({ slices, analysis, maxPlaqueBurden, lowConfidenceSlices, noBorderSlices }: CorrectedAnalysis): string {
  const flags = new Map<number, string[]>();
  const flag = (slice: number, text: string) => flags.set(slice, [...(flags.get(slice) ?? []), text]);
  if (analysis.mla) flag(analysis.mla.index + 1, 'MLA');
  if (analysis.references.distal) flag(analysis.references.distal.index + 1, 'distal reference');
  if (analysis.references.proximal) flag(analysis.references.proximal.index + 1, 'proximal reference');
  if (maxPlaqueBurden) flag(maxPlaqueBurden.index + 1, 'max plaque burden');
  for (const slice of lowConfidenceSlices) flag(slice, 'low confidence');
  for (const slice of noBorderSlices) flag(slice, 'no border');
  for (const s of slices) if (s.bordersCross) flag(s.slice, 'borders cross');
  const rows = slices.map((s) =>
    [
      s.slice,
      s.positionMm.toFixed(3),
      cell(s.areaMm2, 2),
      cell(s.minDiameterMm, 2),
      cell(s.maxDiameterMm, 2),
      cell(s.eccentricity, 3),
      cell(s.vessel?.areaMm2 ?? null, 2),
      s.bordersCross ? '' : cell(s.plaqueAreaMm2, 2),
      s.bordersCross ? '' : cell(s.plaqueBurden, 1, 100),
      s.confidence.toFixed(2),
      s.source ?? '',
      s.vessel?.source ?? '',
      (flags.get(s.slice) ?? []).join('; '),
    ].join(','),
  );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

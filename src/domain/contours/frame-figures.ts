/**
 * The figures of one frame the review keeps on screen beside the B-mode image (issue 26): lumen
 * area, minimal and maximal lumen diameter through the centroid (as the IVUS consensus documents
 * measure them: measurements.ts, diametersThroughCentroid), vessel (EEM) area and plaque burden,
 * and the round length of the scale bar drawn on the frame. Pure: the review draws what this says.
 */
import type { SliceMeasurement } from './corrected-analysis.ts';

/** One frame's figures; a figure the frame has no border for is null and is shown as a dash, never as 0. */
export interface FrameFigures {
  readonly slice: number;
  readonly lumenAreaMm2: number | null;
  readonly minLumenDiameterMm: number | null;
  readonly maxLumenDiameterMm: number | null;
  readonly vesselAreaMm2: number | null;
  /** (EEM − lumen) / EEM in percent; null without both borders, or when corrected borders cross. */
  readonly plaqueBurdenPercent: number | null;
  /** The detector could not read the frame and no lumen was drawn by hand: the readout says so instead of figures. */
  readonly noBorder: boolean;
  /** A corrected vessel border crosses the lumen: no plaque figure, and the readout says why. */
  readonly bordersCross: boolean;
}

/** The readout's figures for a frame's measurement (borders after corrections). */
export function frameFigures(m: SliceMeasurement): FrameFigures {
  const lumen = m.areaMm2 !== null;
  return {
    slice: m.slice,
    lumenAreaMm2: m.areaMm2,
    minLumenDiameterMm: lumen ? m.minDiameterMm : null,
    maxLumenDiameterMm: lumen ? m.maxDiameterMm : null,
    vesselAreaMm2: m.vessel?.areaMm2 ?? null,
    plaqueBurdenPercent: m.bordersCross || m.plaqueBurden === null ? null : 100 * m.plaqueBurden,
    noBorder: m.noBorder && !lumen && m.vessel === null,
    bordersCross: m.bordersCross,
  };
}

/** What the readout shows for a missing figure. */
export const NO_FIGURE = '—';

/** A figure with `digits` decimals, or the dash when there is none. */
export function formatFigure(value: number | null, digits: number): string {
  return value === null || !Number.isFinite(value) ? NO_FIGURE : value.toFixed(digits);
}

/** The lengths a scale bar may show (mm): 1-2-5 steps, as on a ruler. */
const SCALE_LENGTHS_MM = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20] as const;

export interface ScaleBar {
  readonly lengthMm: number;
  /** Its length on screen at the current zoom. */
  readonly lengthPx: number;
}

/**
 * The scale bar for a frame shown at `screenPxPerMm`: the longest round length (1-2-5 steps) that
 * fits in `maxPx`, so it stays readable and follows the zoom; null when no round length fits, or the
 * scale is not a positive number (the bar is then left out rather than drawn wrong).
 */
export function scaleBarFor(screenPxPerMm: number, maxPx: number): ScaleBar | null {
  if (!(screenPxPerMm > 0) || !Number.isFinite(screenPxPerMm)) return null;
  let best: ScaleBar | null = null;
  for (const lengthMm of SCALE_LENGTHS_MM) {
    const lengthPx = lengthMm * screenPxPerMm;
    if (lengthPx <= maxPx) best = { lengthMm, lengthPx };
  }
  return best;
}

/** '1 mm', '0.5 mm', '2 mm'. */
export function formatScaleLength(lengthMm: number): string {
  return `${lengthMm} mm`;
}

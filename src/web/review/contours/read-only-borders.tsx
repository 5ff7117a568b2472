import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import { imageToScreen, type Size, type ViewTransform } from '../view/view-transform.ts';
import type { Circle } from './readout-placement.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { findStentCorrection, type StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';
import type { FrameLine, FrameLinesFor } from '../panels/frame-lines.ts';
import { STENT_AREA_COLOR } from './pullback-plot.tsx';
import { stentBorderPoints } from './stent-border-overlay.tsx';
import { calciumArcLine } from '../calcium/calcium-arc-overlay.tsx';
import type { RecordCalcium } from '../../../domain/calcium/record-calcium.ts';

/** How each border is drawn. The lumen's handles keep their old test id: tests and tools that knew one contour still find it. */
export const BORDERS = {
  lumen: { color: CONTOUR_COLOR, pathTestId: 'lumen-contour', pointTestId: 'contour-point', name: 'Lumen' },
  vessel: { color: VESSEL_CONTOUR_COLOR, pathTestId: 'vessel-contour', pointTestId: 'vessel-point', name: 'Vessel' },
} as const satisfies Record<ContourBorder, unknown>;

/** The vessel first, so where the borders come close the lumen lies on top (and its handles take the press). */
export const DRAW_ORDER: readonly ContourBorder[] = ['vessel', 'lumen'];

/** The circular field of view on screen: the circle inscribed in the frame. */
export function fieldOfViewOnScreen(transform: ViewTransform, frame: Size): Circle {
  const centre = imageToScreen(transform, { x: frame.width / 2, y: frame.height / 2 });
  return { cx: centre.x, cy: centre.y, r: (Math.min(frame.width, frame.height) / 2) * Math.min(transform.scaleX, transform.scaleY) };
}

/** The borders' screen points (lumen and vessel), empty where a border is missing. */
export type ScreenBorders = Record<ContourBorder, readonly Point[]>;

/** What the read-only borders of a slice are drawn from. */
export interface BorderLinesInputs {
  analysis: CorrectedAnalysis | null;
  stentBorders: ReadonlyMap<number, readonly number[]> | null;
  stentCorrections: readonly StentBorderCorrection[];
  pixelSpacingMm: number;
  /** Issue 28: the calcium arcs by slice as the score counts them, drawn on top, just outside the lumen. */
  calciumArcs?: RecordCalcium | null | undefined;
}

/** The stent border a slice shows: the one drawn by hand, else the fitted one, once the stent is read. */
export function stentBorderOn(slice: number, { stentBorders, stentCorrections }: Pick<BorderLinesInputs, 'stentBorders' | 'stentCorrections'>): { coefficients: readonly number[]; controlPoints: readonly Point[] | null } | null {
  if (stentBorders === null) return null;
  const coefficients = stentBorders.get(slice) ?? null;
  const controlPoints = findStentCorrection({ stentBorders: stentCorrections }, slice)?.controlPoints ?? null;
  return coefficients || controlPoints ? { coefficients: coefficients ?? [], controlPoints } : null;
}

/**
 * The read-only borders of each slice as the B-mode panel draws them in its WebGL scene (issue 27):
 * vessel, then lumen on top, 2 px; the stent border dashed 6/3 in its colour; the calcium arc last.
 */
export function borderLinesFor(inputs: BorderLinesInputs): FrameLinesFor {
  return (slice, imageSize) => {
    const measurement = inputs.analysis?.slices[slice - 1] ?? null;
    const lines: FrameLine[] = [];
    const points: Record<ContourBorder, readonly Point[]> = { lumen: measurement?.controlPoints ?? [], vessel: measurement?.vessel?.controlPoints ?? [] };
    for (const border of DRAW_ORDER) {
      if (points[border].length >= 3) lines.push({ points: points[border], color: BORDERS[border].color, width: 2, shape: 'smooth-closed' });
    }
    const stent = stentBorderOn(slice, inputs);
    if (stent) lines.push({ points: stentBorderPoints(stent, imageSize, inputs.pixelSpacingMm), color: STENT_AREA_COLOR, width: 2, shape: 'smooth-closed', dash: [6, 3] });
    const calcium = inputs.calciumArcs?.bySlice[slice - 1] ?? null;
    if (calcium && calcium.arcDeg > 0 && measurement) lines.push(calciumArcLine(calcium, measurement.controlPoints, imageSize, inputs.pixelSpacingMm));
    return lines;
  };
}

/**
 * The borders as lines only, outside the contour tool (issue 26): seen with the ruler, the notes or
 * no tool, but not edited there. The lines themselves are drawn in the B-mode panel's WebGL scene
 * (borderLinesFor); this is their light DOM stand-in, no geometry in it: which borders the slice
 * shows, for tests and assistive technology, redrawn with nothing to paint.
 */
export function ReadOnlyBorders({ borders, slice }: { borders: readonly ContourBorder[]; slice: number }) {
  const names = DRAW_ORDER.filter((border) => borders.includes(border)).map((border) => BORDERS[border].name.toLowerCase());
  return (
    <div data-testid="read-only-borders" data-slice={slice} role="img" aria-label={`Borders drawn on the frame: ${names.join(' and ')}`} style={HOOK_STYLE}>
      {DRAW_ORDER.map((border) => (borders.includes(border) ? <span key={border} data-testid={BORDERS[border].pathTestId} data-stroke={BORDERS[border].color} style={HOOK_STYLE} /> : null))}
    </div>
  );
}

/** Covers the panel (so it counts as shown) and paints nothing. */
const HOOK_STYLE = { position: 'absolute', inset: 0, pointerEvents: 'none' } as const;

/**
 * The stent border on the B-mode frame (issue 28), read-only, once the stent has been read: the
 * smooth curve fitted through the struts (domain/stent/stent-border.ts, in mm around the catheter
 * at the frame's centre) in a colour of its own, with a legend saying what it is. Drawn beside the
 * lumen and vessel borders and switched on and off with them.
 */
import type { Point } from '../../../domain/annotations/manifest.ts';
import { stentRadiusAt } from '../../../domain/stent/stent-border.ts';
import type { Size } from '../view/view-transform.ts';
import { STENT_AREA_COLOR } from './pullback-plot.tsx';

/** Points along the curve: enough that the smooth path through them follows the two harmonics. */
const POINT_COUNT = 32;

/** The stent border's points in image pixels (the strut detector's polar convention: x = cx + r cos θ, y = cy + r sin θ). */
export function stentBorderImagePoints(coefficients: readonly number[], frame: Size, pixelSpacingMm: number, count = POINT_COUNT): Point[] {
  const border = { coefficients };
  return Array.from({ length: count }, (_, k) => {
    const angle = (2 * Math.PI * k) / count;
    const radiusPx = stentRadiusAt(border, angle) / pixelSpacingMm;
    return { x: frame.width / 2 + radiusPx * Math.cos(angle), y: frame.height / 2 + radiusPx * Math.sin(angle) };
  });
}

/** The stent border's points in image pixels: as drawn by hand where it was, else fitted. */
export function stentBorderPoints({ coefficients, controlPoints }: { coefficients: readonly number[]; controlPoints: readonly Point[] | null }, frame: Size, pixelSpacingMm: number): readonly Point[] {
  return controlPoints !== null && controlPoints.length >= 3 ? controlPoints : stentBorderImagePoints(coefficients, frame, pixelSpacingMm);
}

export interface StentBorderOverlayProps {
  slice: number;
  /** The border the clinician drew on this slice (contour tool), drawn instead of the fitted one. */
  controlPoints?: readonly Point[] | null | undefined;
}

/**
 * The stent border's legend and light DOM stand-in: the line itself is drawn in the B-mode panel's
 * WebGL scene with the other borders (read-only-borders.tsx borderLinesFor), so it never lags the image.
 */
export function StentBorderOverlay({ slice, controlPoints = null }: StentBorderOverlayProps) {
  const drawn = controlPoints !== null && controlPoints.length >= 3;
  return (
    <svg data-testid="stent-border-overlay" data-slice={slice} data-source={drawn ? 'manual' : 'auto'} width="100%" height="100%" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
      <g data-testid="stent-border" data-stroke={STENT_AREA_COLOR} />
      <g data-testid="stent-border-legend">
        <line x1={8} x2={26} y1={14} y2={14} stroke={STENT_AREA_COLOR} strokeWidth={2} strokeDasharray="6 3" />
        <text x={30} y={18} fontSize={12} fontFamily="sans-serif" fill={STENT_AREA_COLOR}>
          {drawn ? 'Stent border (corrected by hand; edit with the contour tool)' : 'Stent border (fitted through the struts; correct it with the contour tool)'}
        </text>
      </g>
    </svg>
  );
}

/**
 * The stent border on the B-mode frame (issue 28), read-only, once the stent has been read: the
 * smooth curve fitted through the struts (domain/stent/stent-border.ts, in mm around the catheter
 * at the frame's centre) in a colour of its own, with a legend saying what it is. Drawn beside the
 * lumen and vessel borders and switched on and off with them.
 */
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import { stentRadiusAt } from '../../../domain/stent/stent-border.ts';
import { imageToScreen, type Size, type ViewTransform } from '../view/view-transform.ts';
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

export interface StentBorderOverlayProps {
  coefficients: readonly number[];
  slice: number;
  transform: ViewTransform;
  imageSize: Size;
  pixelSpacingMm: number;
  /** The border the clinician drew on this slice (contour tool), drawn instead of the fitted one. */
  controlPoints?: readonly Point[] | null | undefined;
}

export function StentBorderOverlay({ coefficients, slice, transform, imageSize, pixelSpacingMm, controlPoints = null }: StentBorderOverlayProps) {
  const drawn = controlPoints !== null && controlPoints.length >= 3;
  const points = (drawn ? controlPoints : stentBorderImagePoints(coefficients, imageSize, pixelSpacingMm)).map((p) => imageToScreen(transform, p));
  return (
    <svg data-testid="stent-border-overlay" data-slice={slice} data-source={drawn ? 'manual' : 'auto'} width="100%" height="100%" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
      <path data-testid="stent-border" d={smoothClosedCurveSvgPath(points)} fill="none" stroke={STENT_AREA_COLOR} strokeWidth={2} strokeDasharray="6 3" />
      <g data-testid="stent-border-legend">
        <line x1={8} x2={26} y1={14} y2={14} stroke={STENT_AREA_COLOR} strokeWidth={2} strokeDasharray="6 3" />
        <text x={30} y={18} fontSize={12} fontFamily="sans-serif" fill={STENT_AREA_COLOR}>
          {drawn ? 'Stent border (corrected by hand; edit with the contour tool)' : 'Stent border (fitted through the struts; correct it with the contour tool)'}
        </text>
      </g>
    </svg>
  );
}

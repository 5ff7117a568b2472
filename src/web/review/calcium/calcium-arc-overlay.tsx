/**
 * The current slice's calcium arc on the B-mode frame (issue 28), read-only: a thick arc just outside
 * the lumen border, from where the arc starts to where it ends (0° to the right of the catheter,
 * turning clockwise on screen, as the score details' editor counts), in the band's colour for its
 * size, with a legend giving the arc and where it came from. Shown and hidden with the borders (O).
 */
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { SliceCalcium } from '../../../domain/contours/api.ts';
import type { Size } from '../view/view-transform.ts';
import type { FrameLine } from '../panels/frame-lines.ts';
import { calciumArcColor } from './calcium-colors.ts';

/** The arc stands this far outside the lumen border's farthest point, so that it hides no border. */
const OUTSIDE_LUMEN_MM = 0.3;
const STEP_DEG = 2;

/** The arc's points in image pixels, round the frame's centre (the catheter), at `radiusPx`. */
export function calciumArcImagePoints(calcium: Pick<SliceCalcium, 'startDeg' | 'arcDeg'>, frame: Size, radiusPx: number): Point[] {
  const steps = Math.max(1, Math.ceil(calcium.arcDeg / STEP_DEG));
  return Array.from({ length: steps + 1 }, (_, k) => {
    const angle = ((calcium.startDeg + (calcium.arcDeg * k) / steps) * Math.PI) / 180;
    return { x: frame.width / 2 + radiusPx * Math.cos(angle), y: frame.height / 2 + radiusPx * Math.sin(angle) };
  });
}

/**
 * The arc as the B-mode panel draws it in its WebGL scene with the frame and the borders (issue 27):
 * 4 px, round ends, in its band's colour at 0.85 opacity, just outside the lumen's farthest point.
 */
export function calciumArcLine(calcium: Pick<SliceCalcium, 'startDeg' | 'arcDeg'>, lumen: readonly Point[], imageSize: Size, pixelSpacingMm: number): FrameLine {
  const centre = { x: imageSize.width / 2, y: imageSize.height / 2 };
  const lumenPx = lumen.reduce((far, p) => Math.max(far, Math.hypot(p.x - centre.x, p.y - centre.y)), 0);
  const radiusPx = lumenPx + OUTSIDE_LUMEN_MM / pixelSpacingMm;
  return { points: calciumArcImagePoints(calcium, imageSize, radiusPx), color: calciumArcColor(calcium.arcDeg), width: 4, shape: 'open', alpha: 0.85, roundCap: true };
}

export interface CalciumArcOverlayProps {
  calcium: SliceCalcium;
  /** Where the arc came from, for the legend ("detected", "set by hand", ...). */
  origin: string;
  slice: number;
}

/**
 * The arc's legend, and the arc's light DOM stand-in (its colour, no geometry): the arc itself is
 * drawn in the B-mode panel's WebGL scene (calciumArcLine), so it never lags the image.
 */
export function CalciumArcOverlay({ calcium, origin, slice }: CalciumArcOverlayProps) {
  const color = calciumArcColor(calcium.arcDeg);
  const legend = `Calcium arc ${Math.round(calcium.arcDeg)}° (${Math.round(calcium.startDeg)}°–${Math.round(calcium.endDeg)}°), ${origin}`;
  return (
    <svg data-testid="calcium-arc-overlay" data-slice={slice} width="100%" height="100%" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
      <g data-testid="calcium-arc" data-stroke={color} />
      <g data-testid="calcium-arc-legend">
        <line x1={8} x2={26} y1={32} y2={32} stroke={color} strokeWidth={4} />
        <text x={30} y={36} fontSize={12} fontFamily="sans-serif" fill={color}>
          {legend}
        </text>
      </g>
    </svg>
  );
}

import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import { imageToScreen, type Size, type ViewTransform } from '../view/view-transform.ts';
import type { Circle } from './readout-placement.ts';

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

/**
 * The borders as lines only, outside the contour tool (issue 26): seen with the ruler, the notes or
 * no tool, but not edited there, so they take no pointer input and have no handles.
 */
export function ReadOnlyBorders({ screen, slice }: { screen: ScreenBorders; slice: number }) {
  return (
    <svg data-testid="read-only-borders" data-slice={slice} width="100%" height="100%" aria-hidden style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
      {DRAW_ORDER.map((border) => {
        const points = screen[border];
        const { color, pathTestId } = BORDERS[border];
        return points.length >= 3 ? <path key={border} data-testid={pathTestId} d={smoothClosedCurveSvgPath(points)} fill="none" stroke={color} strokeWidth={2} /> : null;
      })}
    </svg>
  );
}

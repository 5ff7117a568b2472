/**
 * Lines a panel draws in its own WebGL scene, over the image and in the same render (issue 27): the
 * B-mode frame's read-only borders and calcium arc, the L-mode's border lines along the cut. As SVG redrawn every slice they cost ~12 ms of the browser's
 * time per painted frame during playback; drawn here they never lag the image and follow pan/zoom.
 */
import type { Graphics } from 'pixi.js';
import { closedCatmullRomBeziers } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import { imageToScreen, type Size, type ViewTransform } from '../view/view-transform.ts';
import { BORDER_LINE_COLOURS, BORDER_LINE_WIDTH_PX, traceBorderLine, type BorderLines } from '../lmode/border-lines.ts';

export interface FrameLine {
  /** Image pixels. */
  readonly points: readonly Point[];
  /** CSS colour ('#rrggbb'). */
  readonly color: string;
  /** CSS pixels, whatever the zoom (as the SVG strokes were). */
  readonly width: number;
  /** 'smooth-closed': the closed Catmull-Rom curve through the points (as the contour tool draws it); 'open': a polyline. */
  readonly shape: 'smooth-closed' | 'open';
  /** Dash and gap in CSS pixels, as SVG's stroke-dasharray. */
  readonly dash?: readonly [number, number] | undefined;
  readonly alpha?: number | undefined;
  readonly roundCap?: boolean | undefined;
}

/** The lines to draw on a slice's frame (image pixels), or none. */
export type FrameLinesFor = (slice: number, imageSize: Size) => readonly FrameLine[];

/** A panel that draws lines over its image in its own render (the B-mode panel's controller). */
export interface FrameLinesTarget {
  setFrameLines(lines: FrameLinesFor | null): void;
}

/** Beziers are flattened to this many steps for dashes (the solid curves are drawn as true Béziers). */
const DASH_STEPS_PER_SEGMENT = 12;

function screenPolyline(line: FrameLine, transform: ViewTransform): Point[] {
  const toScreen = (p: Point) => imageToScreen(transform, p);
  if (line.shape === 'open') return line.points.map(toScreen);
  const segments = closedCatmullRomBeziers(line.points);
  const points: Point[] = [];
  for (const { from, c1, c2, to } of segments) {
    for (let s = 0; s < DASH_STEPS_PER_SEGMENT; s++) {
      const t = s / DASH_STEPS_PER_SEGMENT;
      const u = 1 - t;
      const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
      points.push(toScreen({ x: a * from.x + b * c1.x + c * c2.x + d * to.x, y: a * from.y + b * c1.y + c * c2.y + d * to.y }));
    }
  }
  if (points[0]) points.push(points[0]);
  return points;
}

/** Adds the dashes of a polyline as sub-paths (dash on, gap off, carried across its corners). */
function traceDashes(graphics: Graphics, points: readonly Point[], [on, off]: readonly [number, number]): void {
  let drawing = true;
  let left = on;
  for (let i = 1; i < points.length; i++) {
    let from = points[i - 1]!;
    const to = points[i]!;
    let length = Math.hypot(to.x - from.x, to.y - from.y);
    if (drawing) graphics.moveTo(from.x, from.y);
    while (length > 0) {
      const step = Math.min(left, length);
      const k = step / length;
      const at = { x: from.x + (to.x - from.x) * k, y: from.y + (to.y - from.y) * k };
      if (drawing) graphics.lineTo(at.x, at.y);
      from = at;
      length -= step;
      left -= step;
      if (left <= 0) {
        drawing = !drawing;
        left = drawing ? on : off;
        if (drawing) graphics.moveTo(at.x, at.y);
      }
    }
  }
}

/** Redraws `graphics` (in screen coordinates) with the lines, in the image's place for `transform`. */
export function drawFrameLines(graphics: Graphics, lines: readonly FrameLine[], transform: ViewTransform): void {
  graphics.clear();
  for (const line of lines) {
    if (line.points.length < (line.shape === 'open' ? 2 : 3)) continue;
    if (line.dash) traceDashes(graphics, screenPolyline(line, transform), line.dash);
    else if (line.shape === 'open') {
      const [first, ...rest] = line.points.map((p) => imageToScreen(transform, p));
      graphics.moveTo(first!.x, first!.y);
      for (const p of rest) graphics.lineTo(p.x, p.y);
    } else {
      const segments = closedCatmullRomBeziers(line.points);
      const start = imageToScreen(transform, segments[0]!.from);
      graphics.moveTo(start.x, start.y);
      for (const { c1, c2, to } of segments) {
        const [a, b, c] = [c1, c2, to].map((p) => imageToScreen(transform, p));
        graphics.bezierCurveTo(a!.x, a!.y, b!.x, b!.y, c!.x, c!.y);
      }
      graphics.closePath();
    }
    graphics.stroke({ width: line.width, color: line.color, alpha: line.alpha ?? 1, cap: line.roundCap ? 'round' : 'butt', join: 'round' });
  }
}

/**
 * Adds the L-mode's border lines, in screen pixels, to the L-mode panel's overlay (issue 27): drawn
 * with its image, no canvas layer of their own for the compositor to draw again in every played frame.
 */
export function strokeBorderLinesOn(graphics: Graphics, lines: BorderLines, transform: ViewTransform, colours = BORDER_LINE_COLOURS): void {
  for (const line of lines.lines) {
    if (traceBorderLine(graphics, line, transform)) graphics.stroke({ width: BORDER_LINE_WIDTH_PX, color: colours[line.border], join: 'round' });
  }
}

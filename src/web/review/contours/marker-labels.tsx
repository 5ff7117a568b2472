import type { KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent, PointerEvent as ReactPointerEvent } from 'react';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { layOutLabels } from './label-layout.ts';
import { sliceToX, xToSlice, type PlotAxis } from './plot-scale.ts';

/** The markers' labels: 14 px, dark text on the marker's colour, legible in both themes. */
export const MARKER_FONT_PX = 14;
const CHIP_PADDING_PX = 4;
export const MARKER_CHIP_HEIGHT_PX = MARKER_FONT_PX + 6;
/** The labels are drawn in this family, and measured in it. */
const MARKER_FONT = `600 ${MARKER_FONT_PX}px sans-serif`;

let measureContext: OffscreenCanvasRenderingContext2D | null | undefined;
/** A label's drawn width: measured where the browser can, else a wide estimate (tests without a canvas). */
export function labelTextWidth(text: string): number {
  if (measureContext === undefined) measureContext = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  const estimate = 0.62 * MARKER_FONT_PX * text.length;
  if (!measureContext) return estimate;
  measureContext.font = MARKER_FONT;
  return measureContext.measureText(text).width;
}

export interface SliceMarker {
  slice: number;
  color: string;
  label: string;
  testId: string;
  /** Issue 28: a tooltip (and accessible name) saying what the marker shows and how it is computed. */
  title?: string;
  /**
   * Issue 28: a marker the clinician may move (the stent's references): dragged along the plot, or
   * with the arrow keys once focused (Shift for ten slices; Home and End to its ends), as a slider over its slices.
   */
  move?: MarkerMove;
}

export interface MarkerMove {
  /** The slices it may take (1-based, inclusive). */
  readonly min: number;
  readonly max: number;
  /** To (the nearest allowed slice to) a slice, as the pointer drags it. */
  readonly to: (slice: number) => void;
  /** By this many slices, as a key moves it. */
  readonly by: (steps: number) => void;
}

const MOVE_KEYS: Readonly<Record<string, number>> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
/** The pointer dragging each movable marker (the marker keeps the pointer's moves while captured). */
const dragging = new WeakMap<Element, number>();

/** A movable marker's pointer and key handlers and its slider semantics. */
function moveHandlers(marker: SliceMarker, move: MarkerMove, axis: PlotAxis) {
  const sliceUnder = (event: ReactPointerEvent<SVGGElement>): number => {
    const svg = event.currentTarget.ownerSVGElement;
    return xToSlice(event.clientX - (svg?.getBoundingClientRect().left ?? 0), axis);
  };
  return {
    role: 'slider',
    tabIndex: 0,
    'aria-label': marker.title === undefined ? marker.label : `${marker.label}: ${marker.title}`,
    'aria-valuemin': move.min,
    'aria-valuemax': move.max,
    'aria-valuenow': marker.slice,
    'aria-valuetext': `slice ${marker.slice}`,
    onPointerDown: (event: ReactPointerEvent<SVGGElement>) => {
      if (event.button !== 0) return;
      dragging.set(event.currentTarget, event.pointerId);
      event.currentTarget.setPointerCapture?.(event.pointerId);
    },
    onPointerMove: (event: ReactPointerEvent<SVGGElement>) => {
      if (dragging.get(event.currentTarget) === event.pointerId) move.to(sliceUnder(event));
    },
    onPointerUp: (event: ReactPointerEvent<SVGGElement>) => dragging.delete(event.currentTarget),
    onPointerCancel: (event: ReactPointerEvent<SVGGElement>) => dragging.delete(event.currentTarget),
    onKeyDown: (event: ReactKeyboardEvent<SVGGElement>) => {
      const direction = MOVE_KEYS[event.key];
      const end = event.key === 'Home' ? move.min : event.key === 'End' ? move.max : null;
      if ((direction === undefined && end === null) || event.altKey || event.ctrlKey || event.metaKey) return;
      // The review's arrow keys (and Home, End) move the slice; here they move the marker.
      event.preventDefault();
      event.stopPropagation();
      if (end !== null) move.to(end);
      else move.by(direction! * (event.shiftKey ? 10 : 1));
    },
  };
}

export interface MarkerLabelsProps {
  markers: readonly SliceMarker[];
  axis: PlotAxis;
  /** The row's top, and the markers' lines' vertical extent. */
  labelTop: number;
  lineTop: number;
  lineBottom: number;
  /** The row's right end (the element's width). */
  rowRight: number;
  /** A click on a marker (its line or label) goes to exactly its slice. */
  cursor: SliceMover;
  labelTestId: string;
}

/**
 * The MLA and reference markers: a dashed line at the marker's slice, and a label on one row above
 * laid out so that labels never overlap (label-layout.ts), each joined to its line by a leader when
 * pushed aside. A click on either goes to the marker's own slice, not to the slice under the pointer.
 */
export function MarkerLabels({ markers, axis, labelTop, lineTop, lineBottom, rowRight, cursor, labelTestId }: MarkerLabelsProps) {
  const widths = markers.map((marker) => labelTextWidth(marker.label) + 2 * CHIP_PADDING_PX);
  // Each label wants to be centred on its marker.
  const starts = layOutLabels(
    markers.map((marker, i) => ({ x: sliceToX(marker.slice, axis) - widths[i]! / 2, width: widths[i]! })),
    { min: 0, max: rowRight, gap: 4 },
  );
  const go = (slice: number) => (event: ReactMouseEvent) => {
    // The plot's own click would read the pointer's x: a label's width away from the marker.
    event.stopPropagation();
    cursor.setSlice(slice);
  };
  return markers.map((marker, i) => {
    const x = sliceToX(marker.slice, axis);
    const start = starts[i]!;
    const centre = start + widths[i]! / 2;
    const chipBottom = labelTop + MARKER_CHIP_HEIGHT_PX;
    return (
      <g
        key={marker.testId}
        data-testid={marker.testId}
        data-slice={marker.slice}
        onClick={go(marker.slice)}
        style={{ cursor: marker.move ? 'ew-resize' : 'pointer', touchAction: marker.move ? 'none' : undefined }}
        {...(marker.title === undefined ? {} : { role: 'button', 'aria-label': `${marker.label}: ${marker.title}` })}
        {...(marker.move ? moveHandlers(marker, marker.move, axis) : {})}
      >
        {marker.title === undefined ? null : <title>{marker.title}</title>}
        <line x1={x} x2={x} y1={lineTop} y2={lineBottom} stroke={marker.color} strokeWidth={2} strokeDasharray="4 3" />
        {/* A wider invisible line: the marker is easy to hit. */}
        <line x1={x} x2={x} y1={lineTop} y2={lineBottom} stroke="transparent" strokeWidth={10} />
        {Math.abs(centre - x) > 1 ? <path d={`M${centre},${chipBottom} L${x},${lineTop}`} stroke={marker.color} strokeWidth={1.5} fill="none" /> : null}
        <g data-testid={labelTestId} data-slice={marker.slice}>
          <rect x={start} y={labelTop} width={widths[i]} height={MARKER_CHIP_HEIGHT_PX} rx={3} fill={marker.color} />
          <text x={centre} y={labelTop + MARKER_FONT_PX + 1} textAnchor="middle" fontSize={MARKER_FONT_PX} fontWeight={600} fontFamily="sans-serif" fill="#000">
            {marker.label}
          </text>
        </g>
      </g>
    );
  });
}

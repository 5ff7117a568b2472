import type { MouseEvent as ReactMouseEvent } from 'react';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { layOutLabels } from './label-layout.ts';
import { sliceToX, type PlotAxis } from './plot-scale.ts';

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
        style={{ cursor: 'pointer' }}
        {...(marker.title === undefined ? {} : { role: 'button', 'aria-label': `${marker.label}: ${marker.title}` })}
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

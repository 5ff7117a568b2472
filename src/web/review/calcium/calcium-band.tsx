/**
 * The calcium band on the L-mode strip (issue 28): along the top of the strip, on its x axis, a bar
 * per slice whose height is the slice's calcium arc (a full circle fills the band) and whose colour
 * says the arc's class (calcium-colors.ts). The L-mode's cut shows only two angles of each frame, so
 * the band gives the arc's size at every slice rather than where the cut meets it.
 */
import type { SliceCalcium } from '../../../domain/contours/api.ts';
import { CALCIUM_ARC_BANDS, calciumArcColor } from './calcium-colors.ts';

export const CALCIUM_BAND_PX = 16;

export interface CalciumBandProps {
  /** Per slice (index slice − 1): its calcium, or null where not measured. */
  bySlice: readonly (SliceCalcium | null)[];
  /** The strip's x of a slice. */
  x: (slice: number) => number;
}

export function CalciumBand({ bySlice, x }: CalciumBandProps) {
  const count = bySlice.length;
  if (count === 0) return null;
  const step = count > 1 ? Math.abs(x(2) - x(1)) : 1;
  const width = Math.max(1, step);
  // One path per colour: a pullback has thousands of slices, and thousands of rects would cost the strip its frame rate.
  const paths = new Map<string, string[]>();
  bySlice.forEach((calcium, index) => {
    if (calcium === null || calcium.arcDeg <= 0) return;
    const height = Math.max(2, (calcium.arcDeg / 360) * CALCIUM_BAND_PX);
    const color = calciumArcColor(calcium.arcDeg);
    const left = x(index + 1) - width / 2;
    const list = paths.get(color) ?? [];
    list.push(`M${left.toFixed(1)},0h${width.toFixed(2)}v${height.toFixed(1)}h${(-width).toFixed(2)}Z`);
    paths.set(color, list);
  });
  const legend = `Calcium arc per slice: bar height = arc (full band = 360°); colours ${CALCIUM_ARC_BANDS.map((b) => b.label).join(', ')}`;
  return (
    <g data-testid="calcium-band" data-calcium-slices={bySlice.filter((c) => c !== null && c.arcDeg > 0).length}>
      <title>{legend}</title>
      {[...paths].map(([color, parts]) => (
        <path key={color} d={parts.join('')} fill={color} fillOpacity={0.9} data-testid="calcium-band-bars" />
      ))}
    </g>
  );
}

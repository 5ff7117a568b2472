import { Box, HStack, Text } from '@chakra-ui/react';
import { useMemo, type MouseEvent as ReactMouseEvent } from 'react';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { sliceRuns } from '../../../domain/contours/slices-to-check.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { MARKER_CHIP_HEIGHT_PX, MarkerLabels, type SliceMarker } from './marker-labels.tsx';
import { sliceToX, xToSlice, type PlotAxis } from './plot-scale.ts';
import { useSliceLine } from './slice-line.ts';

/**
 * The plot's figures (two lines of 14 px text at most) and legend above the drawing: a fixed height,
 * however many lines the figures take. The open analysis keeps this plus the plot's height from the
 * start, whether its plot is there yet or not: the panels above must not shrink under the
 * clinician's pointer when the borders arrive (mid-drawing, that moved the image and drew the
 * outline somewhere else).
 */
export const PLOT_HEADER_PX = 72;
/** The left and right margins hold the area and plaque burden axes; the top one the marker labels' row. */
export const PLOT_MARGIN = { left: 56, right: 48, top: MARKER_CHIP_HEIGHT_PX + 8, bottom: 24 };
/** Axis figures: as large as the plot's other text. */
const AXIS_FONT_PX = 13;
const MARGIN = PLOT_MARGIN;
export const MLA_COLOR = '#FF461F';
export const REFERENCE_COLOR = '#45FF4F';
/** The plaque burden curve is the vessel border's figure: it takes the vessel's colour. */
const PLAQUE_BURDEN_COLOR = VESSEL_CONTOUR_COLOR;
/** Slices the detector could not read (no border, a gap in both curves) are shaded in this colour. */
const NO_BORDER_COLOR = '#FFA23F';

export interface PullbackPlotProps {
  result: CorrectedAnalysis;
  /** The review's slice cursor: the plot's marker follows it, a click moves it. */
  cursor: SliceMover;
  width: number;
  /** The drawing's height in px (the clinician may resize it: plot-height.ts). */
  height: number;
  /** Which figures the areas and positions rest on that the files did not give, or null. */
  assumedNote: string | null;
  /** Issue 28: the stent area by slice index (null: not measurable or outside the stent), once the stent is read. */
  stentAreas?: readonly (number | null)[] | null;
  /** Issue 28: more markers beside the MLA and references (the stent's edges and MSA), laid out with them. */
  extraMarkers?: readonly SliceMarker[];
}

/** The stent area curve's colour (issue 28). */
export const STENT_AREA_COLOR = '#B98CFF';

/** Polyline of a per-slice value against slice, in plot pixels; null values (no figure) break the line. */
function curvePath(result: CorrectedAnalysis, value: (index: number) => number | null, x: (slice: number) => number, y: (v: number) => number): string {
  let path = '';
  let drawing = false;
  result.slices.forEach((s, i) => {
    const v = value(i);
    if (v === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(s.slice).toFixed(1)},${y(v).toFixed(1)}`;
    drawing = true;
  });
  return path;
}

const percent = (fraction: number) => `${(100 * fraction).toFixed(0)} %`;

/**
 * The MLA and reference markers of an analysis, distal to proximal; the plot's test ids have no
 * prefix (mla-flag, distal-reference, proximal-reference), the strip's 'strip-' (strip-mla, ...).
 */
export function plotMarkers(result: Pick<CorrectedAnalysis, 'analysis'> | null, prefix: '' | 'strip-'): SliceMarker[] {
  const { mla, references } = result?.analysis ?? { mla: null, references: { distal: null, proximal: null } };
  const marker = (index: number, color: string, label: string, testId: string): SliceMarker => ({ slice: index + 1, color, label, testId: `${prefix}${testId}` });
  return [
    ...(references.distal ? [marker(references.distal.index, REFERENCE_COLOR, 'D ref', 'distal-reference')] : []),
    ...(mla ? [marker(mla.index, MLA_COLOR, 'MLA', prefix ? 'mla' : 'mla-flag')] : []),
    ...(references.proximal ? [marker(references.proximal.index, REFERENCE_COLOR, 'P ref', 'proximal-reference')] : []),
  ];
}

/** A short line in a curve's colour, for the legend. */
function Swatch({ color, label }: { color: string; label: string }) {
  return (
    <HStack gap="1">
      <Box width="14px" height="2px" bg={color} />
      <Text>{label}</Text>
    </HStack>
  );
}

/**
 * Lumen area (left axis, mm²) and plaque burden (right axis, %) along the pullback (issues 9 and
 * 15): x in slices (with mm below), the current slice marked; the MLA, the two reference slices and
 * the maximal plaque burden flagged; low-confidence slices shaded; a click jumps to the slice under
 * the pointer.
 */
export function PullbackPlot({ result, cursor, width, height, assumedNote, stentAreas = null, extraMarkers = [] }: PullbackPlotProps) {
  const count = result.slices.length;
  const maxArea = useMemo(() => Math.max(1, ...result.slices.map((s) => s.areaMm2 ?? 0)) * 1.1, [result]);
  const plotWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(10, height - MARGIN.top - MARGIN.bottom);
  const axis: PlotAxis = { left: MARGIN.left, width: plotWidth, count };
  const x = (s: number) => sliceToX(s, axis);
  const y = (area: number) => MARGIN.top + plotHeight - (area / maxArea) * plotHeight;
  const yBurden = (fraction: number) => MARGIN.top + plotHeight - fraction * plotHeight;
  /* eslint-disable react-hooks/exhaustive-deps -- x, y and yBurden follow plotWidth, count and maxArea */
  // A slice without a lumen border (the detector could not read it) has no area: the curve breaks there.
  const areaPath = useMemo(() => curvePath(result, (i) => result.slices[i]!.areaMm2, x, y), [result, plotWidth, plotHeight, maxArea]);
  // Slices whose corrected borders cross, or that lack a border, have no plaque burden: the curve breaks there.
  const burdenPath = useMemo(() => curvePath(result, (i) => (result.slices[i]!.bordersCross ? null : result.slices[i]!.plaqueBurden), x, yBurden), [result, plotWidth, plotHeight]);
  // Consecutive low-confidence slices are one band: a few rectangles, not one per slice.
  const lowRuns = useMemo(() => sliceRuns(result.lowConfidenceSlices), [result]);
  const stentPath = useMemo(() => (stentAreas === null ? null : curvePath(result, (i) => stentAreas[i] ?? null, x, y)), [result, stentAreas, plotWidth, plotHeight, maxArea]);
  const noBorderRuns = useMemo(() => sliceRuns(result.noBorderSlices), [result]);
  /* eslint-enable react-hooks/exhaustive-deps */
  const { mla } = result.analysis;
  const maxBurden = result.maxPlaqueBurden;
  const lastMm = result.slices.at(-1)?.positionMm ?? 0;
  const halfStep = count > 1 ? plotWidth / (count - 1) / 2 : 1;
  /** The band a run of slices takes on the plot, half a slice beyond each end (one pixel at least). */
  const runBand = (run: { first: number; last: number }) => ({
    'data-first': run.first,
    'data-last': run.last,
    x: x(run.first) - halfStep,
    y: MARGIN.top,
    width: Math.max(1, x(run.last) - x(run.first) + 2 * halfStep),
    height: plotHeight,
  });

  const cursorRef = useSliceLine(cursor, x, plotWidth, count);

  const onClick = (event: ReactMouseEvent<SVGSVGElement>) => {
    // The same mapping the curves and markers are drawn with (plot-scale.ts), read backwards.
    cursor.setSlice(xToSlice(event.clientX - event.currentTarget.getBoundingClientRect().left, axis));
  };
  const markers = [...plotMarkers(result, ''), ...extraMarkers];

  const axisText = (text: string, atX: number, atY: number, anchor: 'start' | 'end' = 'start') => (
    <text x={atX} y={atY} fontSize={AXIS_FONT_PX} fill="currentColor" textAnchor={anchor}>
      {text}
    </text>
  );

  return (
    <Box px="2" height={`${height + PLOT_HEADER_PX}px`} data-testid="pullback-analysis">
      <Box height={`${PLOT_HEADER_PX}px`} overflow="hidden" pt="1">
      <HStack columnGap="4" rowGap="0" textStyle="sm" wrap="wrap" minHeight="44px" alignContent="start">
        <Text fontWeight="semibold">Lumen area and plaque burden</Text>
        {mla ? (
          // The MLA's area, diameter and place are in the results block above; here, its plaque.
          <Text data-testid="mla-plaque-burden">
            Plaque burden at the MLA{' '}
            {result.slices[mla.index]?.bordersCross || result.slices[mla.index]?.plaqueBurden == null ? '—' : percent(result.slices[mla.index]!.plaqueBurden!)}
          </Text>
        ) : count > 0 ? (
          // Every slice lacks a lumen border: there is no MLA to give, and the clinician is told why.
          <Text data-testid="mla-summary" color="fg.warning">
            MLA — no slice has a lumen border: the detector could not read these frames (draw one with the contour tool)
          </Text>
        ) : null}
        {result.noBorderSlices.length > 0 ? (
          <Text data-testid="no-border-count" color="fg.muted">
            {result.noBorderSlices.length} slice{result.noBorderSlices.length > 1 ? 's' : ''} without a border
          </Text>
        ) : null}
        <Text data-testid="max-plaque-burden">
          Max plaque burden {maxBurden ? `${percent(maxBurden.plaqueBurden)} at slice ${maxBurden.index + 1} (${result.slices[maxBurden.index]?.positionMm.toFixed(1)} mm)` : '—'}
        </Text>
        {assumedNote ? (
          <Text color="fg.warning" data-testid="analysis-assumed">
            {assumedNote}
          </Text>
        ) : null}
        {result.manualCount > 0 ? <Text color="fg.muted">{result.manualCount} corrected slice{result.manualCount > 1 ? 's' : ''}</Text> : null}
      </HStack>
      <HStack gap="4" textStyle="sm" color="fg.muted" data-testid="plot-legend">
        <Swatch color={CONTOUR_COLOR} label="Lumen area (mm², left)" />
        <Swatch color={PLAQUE_BURDEN_COLOR} label="Plaque burden (%, right)" />
        <HStack gap="1">
          <Box width="10px" height="10px" bg="currentColor" opacity={0.25} />
          <Text>Low confidence</Text>
        </HStack>
        <HStack gap="1">
          <Box width="10px" height="10px" bg={NO_BORDER_COLOR} opacity={0.4} />
          <Text>No border (gap)</Text>
        </HStack>
      </HStack>
      </Box>
      <Box position="relative">
        <Box
          ref={cursorRef}
          data-testid="plot-cursor"
          position="absolute"
          left="0"
          top={`${MARGIN.top}px`}
          width="2px"
          height={`${plotHeight}px`}
          bg="#FFE411"
          pointerEvents="none"
          willChange="transform"
        />
        <svg
          width={width}
          height={height}
          role="img"
          aria-label="Lumen area and plaque burden along the pullback; click to go to a slice"
          data-testid="pullback-plot"
          data-plot-left={MARGIN.left}
          data-plot-width={plotWidth}
          style={{ cursor: 'pointer', display: 'block' }}
          onClick={onClick}
        >
          <g data-testid="low-confidence-marks" data-count={result.lowConfidenceSlices.length}>
            {lowRuns.map((run) => (
              <rect key={run.first} {...runBand(run)} fill="currentColor" fillOpacity={0.18} />
            ))}
          </g>
          <g data-testid="no-border-marks" data-count={result.noBorderSlices.length}>
            {noBorderRuns.map((run) => (
              <rect key={run.first} {...runBand(run)} fill={NO_BORDER_COLOR} fillOpacity={0.3}>
                <title>{run.first === run.last ? `Slice ${run.first}: no border` : `Slices ${run.first}–${run.last}: no border`}</title>
              </rect>
            ))}
          </g>
          <rect x={MARGIN.left} y={MARGIN.top} width={plotWidth} height={plotHeight} fill="transparent" stroke="currentColor" strokeOpacity={0.2} />
          {axisText(`${maxArea.toFixed(0)} mm²`, 4, MARGIN.top + AXIS_FONT_PX - 2)}
          {axisText('0', 4, MARGIN.top + plotHeight)}
          {axisText('100 %', width - 4, MARGIN.top + AXIS_FONT_PX - 2, 'end')}
          {axisText('0 %', width - 4, MARGIN.top + plotHeight, 'end')}
          {axisText('slice 1 · 0 mm', MARGIN.left, height - 6)}
          {axisText(`slice ${count} · ${lastMm.toFixed(1)} mm`, MARGIN.left + plotWidth, height - 6, 'end')}
          <path data-testid="lumen-area-curve" d={areaPath} fill="none" stroke={CONTOUR_COLOR} strokeWidth={1.5} />
          <path data-testid="plaque-burden-curve" d={burdenPath} fill="none" stroke={PLAQUE_BURDEN_COLOR} strokeWidth={1.5} />
          {stentPath !== null ? (
            <path data-testid="stent-area-curve" d={stentPath} fill="none" stroke={STENT_AREA_COLOR} strokeWidth={1.5} strokeDasharray="4 2">
              <title>Stent area (mm², on the area axis): inside the stent border fitted through the struts</title>
            </path>
          ) : null}
          <MarkerLabels markers={markers} axis={axis} labelTop={2} lineTop={MARGIN.top} lineBottom={MARGIN.top + plotHeight} rowRight={width} cursor={cursor} labelTestId="plot-marker-label" />
          {maxBurden ? (
            <circle
              data-testid="max-plaque-burden-flag"
              data-slice={maxBurden.index + 1}
              cx={x(maxBurden.index + 1)}
              cy={yBurden(maxBurden.plaqueBurden)}
              r={3.5}
              fill={PLAQUE_BURDEN_COLOR}
              stroke="currentColor"
            >
              <title>Max plaque burden</title>
            </circle>
          ) : null}
        </svg>
      </Box>
    </Box>
  );
}
